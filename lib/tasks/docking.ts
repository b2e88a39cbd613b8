import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import { AXES_CONVENTION, FORMAT_TOLERANCE, ROTATION_CONVENTION } from "./conventions";
import { defineTask } from "./define-task";
import { PdbIdSchema } from "./fields";
import {
  axisSchema,
  commandValueSchema,
  describeCommandRange,
  formatCommand,
  parseCommandSequence,
  type CommandSpec,
} from "./grammar/command";
import { computeLinearCredit } from "./partial-credit";
import { fillTemplate } from "./template";
import type { Axis } from "./types";

/** Spec §3 T7: rotation about the ligand centre, [-90°, 90°] in 15° steps (as in the paper's examples). */
export const DOCKING_ROLL_COMMAND: CommandSpec = { verb: "roll", axes: ["x", "y", "z"], min: -90, max: 90, step: 15 };
/**
 * Translation along x only, whole Å. The paper's moves are "about ±10–20 Å"; the grammar accepts
 * [-20, 20] so that R = 40 Å (spec §4 [decision]) is the width of the answer range, as for T1/T2.
 */
export const DOCKING_MOVE_COMMAND: CommandSpec<"x"> = { verb: "move", axes: ["x"], min: -20, max: 20, step: 1 };
const EXAMPLE = "roll x 75, move x -14";

export const DockingAnswerSchema = z.object({
  rollAxis: axisSchema(DOCKING_ROLL_COMMAND.axes),
  rollAngleDeg: commandValueSchema(DOCKING_ROLL_COMMAND),
  moveDistanceA: commandValueSchema(DOCKING_MOVE_COMMAND),
});
export type DockingAnswer = z.infer<typeof DockingAnswerSchema>;

export const DockingFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** Interactive condition only: the pocket with the DISPLACED ligand (image 7's atoms), never the docked pose. */
  scene3d: Scene3dSchema.optional(),
});
export type DockingFields = z.infer<typeof DockingFieldsSchema>;

export const DockingParamsSchema = z
  .object({
    /** Width R of the roll part's credit ramp, degrees (as T2). */
    rollPartialRangeDeg: z.number().positive().default(180),
    /** Width R of the move part's credit ramp, Å. Spec §4 [decision]: 40 Å. */
    movePartialRangeA: z.number().positive().default(40),
    /** Axes the generator rolls about. */
    rollAxes: z.array(axisSchema(DOCKING_ROLL_COMMAND.axes)).min(1).default(["x", "y", "z"]),
    /** Generated |move|, Å: the ligand ends up far left or right of the pocket (paper: about 10–20 Å). */
    minAbsMoveA: z.number().int().min(1).max(DOCKING_MOVE_COMMAND.max).default(10),
    maxAbsMoveA: z.number().int().min(1).max(DOCKING_MOVE_COMMAND.max).default(20),
  })
  .refine((p) => p.minAbsMoveA <= p.maxAbsMoveA, { message: "minAbsMoveA must not exceed maxAbsMoveA" });

const QUESTION_TEMPLATE =
  "Images 1–3 show the binding pocket of the protein–ligand complex {pdbId} from the front, left and top. " +
  "Images 4–6 show its ligand from the front, left and top after it was taken out of the pocket: moved along the x axis and rotated about its own centre. " +
  "Image 7 shows the pocket and the displaced ligand together in the front view. " +
  "Which commands put the ligand back into its place in the pocket? Give the rotation about the ligand's centre first, then the translation along x, " +
  `in the form roll <axis> <angle>, move x <distance>: the axis is x, y or z, the angle in degrees is ${describeCommandRange(DOCKING_ROLL_COMMAND)}, ` +
  `and the distance is ${describeCommandRange(DOCKING_MOVE_COMMAND)}. ` +
  `Example: ${EXAMPLE}`;

function formatDocking(value: DockingAnswer): string {
  return `${formatCommand({ kind: "roll", axis: value.rollAxis, value: value.rollAngleDeg })}, ${formatCommand({ kind: "move", axis: "x", value: value.moveDistanceA })}`;
}

/**
 * Spec §4: 0.5 × roll part + 0.5 × move part.
 * Roll part: 0 if the axis is wrong, else max(0, 1 - |â - a| / R_roll).
 * Move part: only when the x move points the right way; then max(0, 1 - |d̂ - d| / R_move).
 * An answered move of 0 has no direction and so earns no move credit. A gold move of 0 (generators
 * never produce one: the ligand would sit in the pocket) has no direction to get right, so the
 * sign condition is waived and the distance error alone counts.
 */
function scoreDocking(answer: DockingAnswer, gold: DockingAnswer, params: z.output<typeof DockingParamsSchema>) {
  const exact =
    answer.rollAxis === gold.rollAxis &&
    answer.rollAngleDeg === gold.rollAngleDeg &&
    answer.moveDistanceA === gold.moveDistanceA
      ? 1
      : 0;
  const rollPart =
    answer.rollAxis === gold.rollAxis
      ? computeLinearCredit(answer.rollAngleDeg, gold.rollAngleDeg, params.rollPartialRangeDeg)
      : 0;
  const signRight = gold.moveDistanceA === 0 || Math.sign(answer.moveDistanceA) === Math.sign(gold.moveDistanceA);
  const movePart = signRight
    ? computeLinearCredit(answer.moveDistanceA, gold.moveDistanceA, params.movePartialRangeA)
    : 0;
  return { exact, partial: 0.5 * rollPart + 0.5 * movePart } as const;
}

export const dockingTask = defineTask({
  id: "docking",
  code: "T7",
  version: 1,
  label: "Ligand docking",
  kind: "composite",
  format: "cloze",
  instructions: [
    "You see a binding pocket, and its ligand after it was taken out of the pocket: moved sideways along x and turned about its own centre. Work out how to put the ligand back: first a rotation about the ligand's own centre, then a move along x.",
    AXES_CONVENTION,
    ROTATION_CONVENTION,
    `Answer with two commands separated by a comma, rotation first: roll <axis> <angle>, move x <distance>. The axis is x, y or z; the angle in degrees is ${describeCommandRange(DOCKING_ROLL_COMMAND)}; the distance is ${describeCommandRange(DOCKING_MOVE_COMMAND)} (negative moves left).`,
    `Example: the ligand sits 14 Å right of the pocket and must be turned 75° about x to match its docked pose, so the answer is: ${EXAMPLE}`,
    FORMAT_TOLERANCE,
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: DockingFieldsSchema,
  renderQuestion: (fields: DockingFields) => fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId }),
  answerWidget: {
    type: "docking",
    rollAxes: DOCKING_ROLL_COMMAND.axes,
    rollMin: DOCKING_ROLL_COMMAND.min,
    rollMax: DOCKING_ROLL_COMMAND.max,
    rollStep: DOCKING_ROLL_COMMAND.step,
    moveAxis: "x",
    moveMin: DOCKING_MOVE_COMMAND.min,
    moveMax: DOCKING_MOVE_COMMAND.max,
    moveStep: DOCKING_MOVE_COMMAND.step,
  },
  params: DockingParamsSchema,
  answerSchema: DockingAnswerSchema,
  goldSchema: DockingAnswerSchema,
  parseAnswer(text) {
    const parsed = parseCommandSequence(text, [DOCKING_ROLL_COMMAND, DOCKING_MOVE_COMMAND], EXAMPLE);
    if (!parsed.ok) return parsed;
    const [roll, move] = parsed.value;
    if (roll === undefined || move === undefined)
      return { ok: false, error: `expected two commands — e.g. '${EXAMPLE}'` };
    const value: DockingAnswer = { rollAxis: roll.axis as Axis, rollAngleDeg: roll.value, moveDistanceA: move.value };
    return { ok: true, value, canonical: formatDocking(value) };
  },
  canonicalize: formatDocking,
  toCorrectAnswer: (gold: DockingAnswer) => gold,
  score: scoreDocking,
});
