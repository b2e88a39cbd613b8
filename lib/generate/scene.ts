/**
 * Renderer glue: a generator complex + an item view → the `Scene` lib/render draws (screen-frame
 * coordinates, roles, residue order for the carbon colours, bonds, ligand atom labels, residue
 * labels), and the interactive `Scene3d` of a front view.
 */
import { frameCameraOnRadius, type PerspectiveCamera } from "@/lib/molecule/geometry/camera";
import {
  type ViewCommand,
  applyCommands,
  canonicalViewTransform,
  commandsToTransform,
  toScreenFrame,
} from "@/lib/molecule/geometry/commands";
import { composeTransforms } from "@/lib/molecule/geometry/transform";
import { type Vec3, boundingSphereOf, centroidOf, lengthVec } from "@/lib/molecule/geometry/vec3";
import { type Atom, type Bond, positionOf, positionsOf } from "@/lib/molecule/types";
import { type BuildSceneResult, buildScene } from "@/lib/render/build-scene";
import type { Scene } from "@/lib/render/scene";
import type { RenderSettings } from "@/lib/render/settings";
import type { Scene3d } from "@/lib/scene3d";
import type { ComplexResidue, GeneratorComplex, ItemView, ViewCamera, ViewContent } from "./types";

/** The atoms a view shows, before any transform: ligand first, then pocket (file coordinates). */
export interface ViewAtoms {
  ligand: Atom[];
  pocket: Atom[];
  /** Bonds by index into ligand ++ pocket. */
  bonds: Bond[];
}

function findResidue(complex: GeneratorComplex, residueId: string | undefined): ComplexResidue {
  const residue = complex.residues.find((r) => r.id === residueId);
  if (!residue)
    throw new Error(`view shows residue ${residueId ?? "(none)"}, which is not in the pocket of ${complex.file}`);
  return residue;
}

/** Pocket atoms (and their bonds, re-indexed) of a subset of residues. */
function selectPocket(complex: GeneratorComplex, indices: readonly number[]): { atoms: Atom[]; bonds: Bond[] } {
  const newIndex = new Map<number, number>();
  indices.forEach((i, k) => newIndex.set(i, k));
  const bonds: Bond[] = [];
  for (const b of complex.pocketBonds) {
    const a = newIndex.get(b.a);
    const c = newIndex.get(b.b);
    if (a !== undefined && c !== undefined) bonds.push({ a: Math.min(a, c), b: Math.max(a, c), order: b.order });
  }
  return { atoms: indices.map((i) => complex.pocketAtoms[i]!), bonds };
}

/** The atoms and bonds a view content shows. */
export function selectViewAtoms(complex: GeneratorComplex, content: ViewContent, residueId?: string): ViewAtoms {
  const withLigand = content !== "pocket";
  const ligand = withLigand ? complex.ligandAtoms : [];
  let pocket: { atoms: Atom[]; bonds: Bond[] };
  if (content === "ligand") pocket = { atoms: [], bonds: [] };
  else if (content === "residue-ligand") pocket = selectPocket(complex, findResidue(complex, residueId).atomIndices);
  else pocket = { atoms: complex.pocketAtoms, bonds: complex.pocketBonds };
  const offset = ligand.length;
  const bonds: Bond[] = [
    ...(withLigand ? complex.ligandBonds : []),
    ...pocket.bonds.map((b) => ({ a: b.a + offset, b: b.b + offset, order: b.order })),
  ];
  return { ligand, pocket: pocket.atoms, bonds };
}

/** Centre of the bounding box of the atoms (ChimeraX centres views on the displayed atoms' bounding box). */
export function computeViewCentre(atoms: readonly Atom[]): Vec3 {
  const sphere = boundingSphereOf(atoms.map(positionOf));
  if (!sphere) throw new Error("computeViewCentre: no atoms");
  return sphere.centre;
}

/** Front-view screen-frame positions: file coordinates minus the view centre. */
export function toFrontFrame(atoms: readonly Atom[], viewCentre: Vec3): Vec3[] {
  return toScreenFrame(positionsOf(atoms), viewCentre);
}

/** Ligand positions (front-view screen frame) after ligand-only commands about the ligand centroid. */
export function displaceLigand(complex: GeneratorComplex, viewCentre: Vec3, commands: readonly ViewCommand[]): Vec3[] {
  const front = toFrontFrame(complex.ligandAtoms, viewCentre);
  return commands.length === 0 ? front : applyCommands(front, commands, centroidOf(front));
}

export interface FrameViewOptions {
  /** Extra radius in Å beyond the farthest atom, for content that moves in the image plane. */
  extraRadiusA?: number;
  /** Lower bound on the camera distance (T3: room for the zoom). */
  minDistanceA?: number;
}

/**
 * Camera framing a sphere about the view centre that holds every given front-frame point (plus the
 * extra radius). A sphere about the centre is unchanged by rotations about it, so one camera serves
 * every canonical view and every roll of an item.
 */
export function frameViewCamera(
  points: readonly Vec3[],
  settings: RenderSettings,
  options: FrameViewOptions = {},
): ViewCamera {
  let radius = 0;
  for (const p of points) radius = Math.max(radius, lengthVec(p));
  const camera = frameCameraOnRadius(radius + (options.extraRadiusA ?? 0), {
    widthPx: settings.widthPx,
    heightPx: settings.heightPx,
  });
  return {
    fieldOfViewDeg: camera.fieldOfViewDeg,
    distanceA: Math.max(camera.distanceA, options.minDistanceA ?? 0),
    nearA: camera.nearA,
  };
}

export function toPerspectiveCamera(
  camera: ViewCamera,
  settings: Pick<RenderSettings, "widthPx" | "heightPx">,
): PerspectiveCamera {
  return { ...camera, widthPx: settings.widthPx, heightPx: settings.heightPx };
}

/** Atoms moved in file coordinates so that buildScene's plain re-centring yields the displaced pose. */
function withPositions(atoms: readonly Atom[], frontPositions: readonly Vec3[], viewCentre: Vec3): Atom[] {
  return atoms.map((a, i) => {
    const p = frontPositions[i]!;
    return { ...a, x: p[0] + viewCentre[0], y: p[1] + viewCentre[1], z: p[2] + viewCentre[2] };
  });
}

/** The renderer scene of one view of one complex. */
export function buildViewScene(complex: GeneratorComplex, view: ItemView, settings: RenderSettings): BuildSceneResult {
  const selected = selectViewAtoms(complex, view.content, view.residueId);
  const ligand =
    view.ligandCommands.length > 0 && selected.ligand.length > 0
      ? withPositions(selected.ligand, displaceLigand(complex, view.viewCentre, view.ligandCommands), view.viewCentre)
      : selected.ligand;
  const transform = composeTransforms(
    canonicalViewTransform(view.view),
    commandsToTransform(view.modelCommands, [0, 0, 0]),
  );
  return buildScene({
    ligand,
    pocket: selected.pocket,
    bonds: selected.bonds,
    viewCentre: view.viewCentre,
    transform,
    camera: toPerspectiveCamera(view.camera, settings),
    settings,
    // T4: every atom of the target residue carries its atom name (the answer names them).
    labelPocketAtoms: view.content === "residue-ligand",
    labelContactPolarAtoms: view.residueAtomLabels === true,
  });
}

/** Builds a view's scene or throws (a failure here is a generator bug: views are built from valid data). */
export function requireViewScene(complex: GeneratorComplex, view: ItemView, settings: RenderSettings): Scene {
  const built = buildViewScene(complex, view, settings);
  if (!built.ok) throw new Error(`${complex.file}: view "${view.caption}": ${built.reason}`);
  return built.scene;
}

/** Scene3d positions are stored to 0.001 Å: finer than any coordinate file, and stable JSON. */
const SCENE3D_DECIMALS = 3;

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = Math.round(value * f) / f;
  return r === 0 ? 0 : r;
}

/** An atom the question names, and the text its 3D label shows ("ASP 25 A OD2", "O1"). */
export interface NamedAtom {
  atom: Atom;
  text: string;
}

/** The interactive scene (lib/scene3d.ts) of a front-view scene: atoms, bonds, camera distance and field of view. */
export function toScene3d(scene: Scene, named: readonly { atom: number; text: string }[] = []): Scene3d {
  return {
    elements: scene.atoms.map((a) => a.element),
    positions: scene.atoms.flatMap((a) => a.position.map((v) => roundTo(v, SCENE3D_DECIMALS))),
    roles: scene.atoms.map((a) => (a.role === "ligand" ? "l" : "p")),
    residueIndex: scene.atoms.map((a) => a.residueIndex),
    bonds: scene.bonds.flatMap((b) => [b.a, b.b]),
    camera: { distanceA: roundTo(scene.camera.distanceA, SCENE3D_DECIMALS), fovDeg: scene.camera.fieldOfViewDeg },
    // The same labels as the static views, so the 3D view can show them.
    labels: [
      // Residue-atom names (T8, T9) stay out: the 3D view names any atom on hover, and dozens more labels
      // would crowd the view and slow each frame.
      ...scene.atoms.flatMap((a, i) =>
        a.label && a.labelKind !== "residue-atom" ? [{ atom: i, text: a.label, kind: "a" as const }] : [],
      ),
      ...scene.residueLabels
        .filter((l) => l.text.length > 0)
        .map((l) => ({ atom: l.anchorAtomIndex, text: l.text, kind: "r" as const })),
    ],
    // Names for hover and tap: what a file says about every shown atom, nothing about any answer.
    atomNames: scene.atoms.map((a) => a.atomName ?? ""),
    residueNames: scene.residueNames ?? [],
    ...(named.length > 0 ? { named: [...named] } : {}),
  };
}

/**
 * Index in the view's scene of each named atom: buildScene keeps ligand then pocket atoms in order and
 * drops hydrogens, so an atom's index is the number of kept atoms before it.
 */
function sceneIndicesOf(
  complex: GeneratorComplex,
  view: ItemView,
  named: readonly NamedAtom[],
): { atom: number; text: string }[] {
  const selected = selectViewAtoms(complex, view.content, view.residueId);
  const order = new Map<Atom, number>();
  let k = 0;
  for (const atom of [...selected.ligand, ...selected.pocket]) {
    if (atom.element === "H") continue;
    order.set(atom, k++);
  }
  return named.map(({ atom, text }) => {
    const index = order.get(atom);
    if (index === undefined)
      throw new Error(
        `the question names atom ${atom.name} (serial ${atom.serial}), which view "${view.caption}" does not show`,
      );
    return { atom: index, text };
  });
}

/**
 * The `scene3d` public field of an item: the scene of `view` (a front view without an after-state), with
 * the atoms the question names (`named`, atoms of `complex`) marked for the 3D view's first frame.
 */
export function buildScene3dField(
  complex: GeneratorComplex,
  view: ItemView,
  settings: RenderSettings,
  named: readonly NamedAtom[] = [],
): Scene3d {
  if (view.view !== "front" || view.modelCommands.length > 0) {
    throw new Error(`scene3d must come from a front view before any model command, got "${view.caption}"`);
  }
  return toScene3d(requireViewScene(complex, view, settings), sceneIndicesOf(complex, view, named));
}
