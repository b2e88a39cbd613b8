/**
 * T7 docking (spec §3): the ligand is moved along x (far enough to leave the pocket) and then rotated
 * about its own centre. Images: pocket front/left/top, displaced ligand front/left/top, pocket +
 * displaced ligand front. Gold = `roll <axis> <-a>, move x <-d>`: the rotation about the ligand's
 * centre undoes the turn (the centre does not move under it), then the x move brings it home.
 *
 * "Overlaps the pocket little" is made concrete as a clash test: a draw is accepted when at most
 * `maxClashFraction` of the displaced ligand's atoms lie within `clashDistanceA` of a pocket atom;
 * otherwise it is redrawn (up to `maxAttempts`, then the least-clashing draw is kept with a note).
 */
import { z } from "zod";
import type { ViewCommand } from "@/lib/molecule/geometry/commands";
import { type Vec3, centroidOf } from "@/lib/molecule/geometry/vec3";
import { createSpatialGrid, findNeighbours } from "@/lib/molecule/geometry/spatial-grid";
import { DOCKING_MOVE_COMMAND, DOCKING_ROLL_COMMAND, dockingTask } from "@/lib/tasks/docking";
import { buildScene3dField, displaceLigand, frameViewCamera, toFrontFrame, computeViewCentre } from "../scene";
import {
  AxisXYZSchema,
  THREE_VIEWS,
  defineGenerator,
  listGridValues,
  makeCanonicalViews,
  makeView,
  pickValue,
  requireComplex,
} from "../task-generator";

const TASK_DEFAULTS = dockingTask.defaultParams;

export const DockingGeneratorParamsSchema = z
  .object({
    /** Axes of the ligand's turn (the task's default: x, y, z). */
    rollAxes: z
      .array(AxisXYZSchema)
      .min(1)
      .default([...TASK_DEFAULTS.rollAxes]),
    /** |turn| in degrees, on the answer grammar's 15° grid. */
    minAbsAngleDeg: z
      .number()
      .int()
      .min(DOCKING_ROLL_COMMAND.step)
      .max(DOCKING_ROLL_COMMAND.max)
      .default(DOCKING_ROLL_COMMAND.step),
    maxAbsAngleDeg: z
      .number()
      .int()
      .min(DOCKING_ROLL_COMMAND.step)
      .max(DOCKING_ROLL_COMMAND.max)
      .default(DOCKING_ROLL_COMMAND.max),
    /** |x move| in whole Å (paper: about 10–20 Å). */
    minAbsMoveA: z.number().int().min(1).max(DOCKING_MOVE_COMMAND.max).default(TASK_DEFAULTS.minAbsMoveA),
    maxAbsMoveA: z.number().int().min(1).max(DOCKING_MOVE_COMMAND.max).default(TASK_DEFAULTS.maxAbsMoveA),
    /** A displaced ligand atom this close to a pocket atom counts as overlapping the pocket. */
    clashDistanceA: z.number().positive().max(10).default(2.5),
    maxClashFraction: z.number().min(0).max(1).default(0.2),
    maxAttempts: z.number().int().min(1).max(1000).default(12),
  })
  .refine((p) => p.minAbsMoveA <= p.maxAbsMoveA && p.minAbsAngleDeg <= p.maxAbsAngleDeg, {
    message: "a minimum exceeds its maximum",
  });
export type DockingGeneratorParams = z.infer<typeof DockingGeneratorParamsSchema>;

export const dockingGenerator = defineGenerator({
  taskId: "docking",
  paramsSchema: DockingGeneratorParamsSchema,
  checkComplex: () => null,
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const viewCentre = computeViewCentre([...complex.ligandAtoms, ...complex.pocketAtoms]);
    const pocketFront = toFrontFrame(complex.pocketAtoms, viewCentre);
    const grid = createSpatialGrid(
      pocketFront.map(([x, y, z]) => ({ x, y, z })),
      params.clashDistanceA,
    );
    const angles = listGridValues(params.minAbsAngleDeg, params.maxAbsAngleDeg, DOCKING_ROLL_COMMAND.step, false);
    const moves = listGridValues(params.minAbsMoveA, params.maxAbsMoveA, 1, false);

    let best: { forward: ViewCommand[]; clash: number } | null = null;
    for (let attempt = 0; attempt < params.maxAttempts; attempt++) {
      const move = (rng.next() < 0.5 ? -1 : 1) * pickValue(rng, moves, "docking move");
      const turn = (rng.next() < 0.5 ? -1 : 1) * pickValue(rng, angles, "docking turn");
      const forward: ViewCommand[] = [
        { kind: "move", axis: "x", value: move },
        { kind: "roll", axis: rng.pick(params.rollAxes), value: turn },
      ];
      const displaced = displaceLigand(complex, viewCentre, forward);
      const clashing = displaced.filter(
        ([x, y, z]) => findNeighbours(grid, { x, y, z }, params.clashDistanceA).length > 0,
      ).length;
      const clash = clashing / displaced.length;
      if (!best || clash < best.clash) best = { forward, clash };
      if (clash <= params.maxClashFraction) break;
    }
    const { forward, clash } = best!;
    const notes =
      clash > params.maxClashFraction
        ? [
            `the displaced ligand still overlaps the pocket: ${(clash * 100).toFixed(0)}% of its atoms within ${params.clashDistanceA} Å of a pocket atom`,
          ]
        : [];

    // Images 1-3 and 7 share a camera framing the pocket and the displaced ligand, so image 7 shows
    // the displacement to scale. Images 4-6 centre and frame the displaced ligand itself: at the
    // pocket's scale a ligand is a tenth of the image and its atom labels pile up, and these images
    // are there to show its orientation.
    const displaced = displaceLigand(complex, viewCentre, forward);
    const camera = frameViewCamera([...pocketFront, ...displaced], context.settings);
    const pocketBase = { content: "pocket" as const, viewCentre, camera };
    const displacedCentre = centroidOf(displaced);
    const ligandCentre: Vec3 = [
      viewCentre[0] + displacedCentre[0],
      viewCentre[1] + displacedCentre[1],
      viewCentre[2] + displacedCentre[2],
    ];
    const ligandCamera = frameViewCamera(displaceLigand(complex, ligandCentre, forward), context.settings);
    const views = [
      ...makeCanonicalViews(pocketBase, THREE_VIEWS, 1, "pocket"),
      ...makeCanonicalViews(
        { content: "ligand", viewCentre: ligandCentre, camera: ligandCamera, ligandCommands: forward },
        THREE_VIEWS,
        4,
        "displaced ligand",
      ),
      makeView(
        { content: "complex", viewCentre, camera, ligandCommands: forward },
        "front",
        "Image 7: pocket and displaced ligand, front view",
      ),
    ];
    const [move, turn] = forward as [Extract<ViewCommand, { kind: "move" }>, Extract<ViewCommand, { kind: "roll" }>];
    const gold = { rollAxis: turn.axis, rollAngleDeg: -turn.value, moveDistanceA: -move.value };
    // scene3d: image 7's atoms (the question state: pocket + displaced ligand), never the docked pose.
    const scene3d = buildScene3dField(complex, views[6]!, context.settings);
    return { fields: { pdbId: complex.pdbId, scene3d }, gold, views, notes };
  },
});
