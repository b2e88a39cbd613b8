/**
 * ChimeraX-style view commands (`move`, `roll`) and the six canonical views, in the project's screen
 * frame (spec §2):
 *
 * - Screen frame of the front view: X right, Y up, Z out of the screen toward the viewer.
 * - The model's coordinates in the front view are its file coordinates re-centred on the view centre
 *   (no rotation): see `toScreenFrame`.
 * - `move <axis> d` translates the MODEL by d Å along that screen axis (`move x 4`: the complex appears
 *   4 Å to the right; `move z 40`: it comes 40 Å closer to the viewer, so looks larger in perspective).
 * - `roll <axis> a` rotates the MODEL by a degrees about the screen axis through the rotation centre,
 *   right-hand rule (positive roll about z is counter-clockwise as seen by the viewer).
 *
 * The rotation centre is a point attached to the model: a `move` carries it along, so a later `roll`
 * turns the model about its own (moved) centre. This matches ChimeraX's default centre-of-rotation
 * method "front center", which for a zoomed-out view uses the centre of the bounding box of the
 * displayed items and is updated after translations (ChimeraX docs, `cofr`).
 */
import {
  type Axis,
  type RigidTransform,
  IDENTITY_TRANSFORM,
  applyTransform,
  applyTransformToAll,
  composeTransforms,
  rotationAboutAxis,
  rotationAboutPoint,
  translationTransform,
} from "./transform";
import type { Vec3 } from "./vec3";

export type ViewCommand = { kind: "move"; axis: Axis; value: number } | { kind: "roll"; axis: Axis; value: number };

/** Canonical views, always in this order (spec §2). */
export const CANONICAL_VIEW_NAMES = ["front", "left", "top", "back", "right", "bottom"] as const;
export type CanonicalViewName = (typeof CANONICAL_VIEW_NAMES)[number];

/**
 * Each canonical view is a model rotation applied to the front view (about the view centre).
 * "left" shows the molecule's left side: roll y +90 brings the model's −X side round to +Z, i.e. to
 * face the viewer, like walking round to the molecule's left. "top" (roll x +90) brings the model's
 * +Y side to face the viewer. back/right/bottom are the opposite sides.
 */
export const CANONICAL_VIEW_COMMANDS: Readonly<Record<CanonicalViewName, readonly ViewCommand[]>> = {
  front: [],
  left: [{ kind: "roll", axis: "y", value: 90 }],
  top: [{ kind: "roll", axis: "x", value: 90 }],
  back: [{ kind: "roll", axis: "y", value: 180 }],
  right: [{ kind: "roll", axis: "y", value: -90 }],
  bottom: [{ kind: "roll", axis: "x", value: -90 }],
};

const AXIS_UNIT: Readonly<Record<Axis, Vec3>> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/**
 * The rigid transform (in the screen frame) equivalent to running `commands` in order, with the
 * rotation centre `centre` given in the same frame before the first command and carried along by
 * every command (see the module comment).
 */
export function commandsToTransform(commands: readonly ViewCommand[], centre: Vec3): RigidTransform {
  let total = IDENTITY_TRANSFORM;
  for (const command of commands) {
    let step: RigidTransform;
    if (command.kind === "move") {
      const u = AXIS_UNIT[command.axis];
      step = translationTransform([u[0] * command.value, u[1] * command.value, u[2] * command.value]);
    } else {
      const currentCentre = applyTransform(total, centre);
      step = rotationAboutPoint(rotationAboutAxis(command.axis, command.value), currentCentre);
    }
    total = composeTransforms(step, total);
  }
  return total;
}

/**
 * Applies view commands to screen-frame coordinates (new array). `centre` is the rotation centre in
 * the same frame: the view centre (origin of the screen frame) for whole-complex tasks, the ligand
 * centroid for docking.
 */
export function applyCommands(coords: readonly Vec3[], commands: readonly ViewCommand[], centre: Vec3): Vec3[] {
  return applyTransformToAll(commandsToTransform(commands, centre), coords);
}

/** Model transform of a canonical view, rotating about `centre` (normally the view centre, the origin). */
export function canonicalViewTransform(view: CanonicalViewName, centre: Vec3 = [0, 0, 0]): RigidTransform {
  return commandsToTransform(CANONICAL_VIEW_COMMANDS[view], centre);
}

/** File coordinates → front-view screen frame: re-centred on the view centre, no rotation. */
export function toScreenFrame(coords: readonly Vec3[], viewCentre: Vec3): Vec3[] {
  return coords.map((p) => [p[0] - viewCentre[0], p[1] - viewCentre[1], p[2] - viewCentre[2]] as const);
}
