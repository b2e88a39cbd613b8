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
  parseSingleCommand,
  type CommandSpec,
} from "./grammar/command";
import { computeLinearCredit } from "./partial-credit";
import { fillTemplate } from "./template";

/** Spec §3 T2: `roll <x|y|z> <a>`, a in [-90°, 90°] in 15° steps. */
export const ROTATION_COMMAND: CommandSpec = { verb: "roll", axes: ["x", "y", "z"], min: -90, max: 90, step: 15 };
const EXAMPLE = "roll y 15";

/**
 * The grammar accepts a = 0 (the spec's 13 values include it; release items may have it); generators skip 0
 * because image 4 would equal image 1. lib/tasks/chance.ts counts the values a key can take.
 */
export const RotationAnswerSchema = z.object({
  axis: axisSchema(ROTATION_COMMAND.axes),
  angleDeg: commandValueSchema(ROTATION_COMMAND),
});
export type RotationAnswer = z.infer<typeof RotationAnswerSchema>;

export const RotationFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** Interactive condition only: the first view's atoms (lib/scene3d.ts); never the after-state. */
  scene3d: Scene3dSchema.optional(),
});
export type RotationFields = z.infer<typeof RotationFieldsSchema>;

export const RotationParamsSchema = z
  .object({
    /** Partial-credit width R in degrees: partial = max(0, 1 - |error| / R). Spec §4 [decision]: the range width, 180°. */
    partialRangeDeg: z.number().positive().default(180),
    /** Axes the generator draws from. */
    axes: z.array(axisSchema(ROTATION_COMMAND.axes)).min(1).default(["x", "y", "z"]),
    /** Generated angles, degrees (multiples of 15 inside the grammar's range). */
    minAngleDeg: commandValueSchema(ROTATION_COMMAND).default(-90),
    maxAngleDeg: commandValueSchema(ROTATION_COMMAND).default(90),
    /** Whether the generator may draw 0 (no visible change); off by default. */
    allowZero: z.boolean().default(false),
  })
  .refine((p) => p.minAngleDeg <= p.maxAngleDeg, { message: "minAngleDeg must not exceed maxAngleDeg" });

const QUESTION_TEMPLATE =
  "The images show the protein–ligand complex {pdbId}. Images 1–3 are its front, left and top views. " +
  "Image 4 is the front view after the whole complex was rotated about the x, y or z axis through its centre. " +
  "In the front view, x points right, y points up and z points toward the viewer; rotations follow the right-hand rule. " +
  "Which rotation turns image 1 into image 4? " +
  `Answer with one command in the form roll <axis> <angle>, where the axis is x, y or z and the angle in degrees is ${describeCommandRange(ROTATION_COMMAND)}. ` +
  `Example: ${EXAMPLE}`;

export const rotationTask = defineTask({
  id: "rotation",
  code: "T2",
  version: 1,
  label: "Rotation",
  kind: "unit",
  format: "cloze",
  instructions: [
    "You see four images of a protein–ligand complex: its front, left and top views, then the front view again after the whole complex was rotated about one axis (x, y or z) through its centre. Work out that rotation.",
    AXES_CONVENTION,
    ROTATION_CONVENTION,
    `Answer with one command: roll <axis> <angle>. The axis is x, y or z; the angle in degrees is ${describeCommandRange(ROTATION_COMMAND)}.`,
    `Example: the complex was turned 15° about the vertical axis, its front moving toward the right, so the answer is: ${EXAMPLE}`,
    FORMAT_TOLERANCE,
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: RotationFieldsSchema,
  renderQuestion: (fields: RotationFields) => fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId }),
  // Spec §4: "about 1/13" (13 angles, given the axis); guessing the axis as well would be 1/39.
  answerWidget: {
    type: "command",
    verb: "roll",
    axes: ROTATION_COMMAND.axes,
    min: ROTATION_COMMAND.min,
    max: ROTATION_COMMAND.max,
    step: ROTATION_COMMAND.step,
    unit: "°",
  },
  params: RotationParamsSchema,
  answerSchema: RotationAnswerSchema,
  goldSchema: RotationAnswerSchema,
  parseAnswer(text) {
    const parsed = parseSingleCommand(text, ROTATION_COMMAND, EXAMPLE);
    if (!parsed.ok) return parsed;
    return { ok: true, value: { axis: parsed.value.axis, angleDeg: parsed.value.value }, canonical: parsed.canonical };
  },
  canonicalize: (value: RotationAnswer) => formatCommand({ kind: "roll", axis: value.axis, value: value.angleDeg }),
  toCorrectAnswer: (gold: RotationAnswer) => gold,
  score(answer, gold, params) {
    if (answer.axis !== gold.axis) return { exact: 0, partial: 0 };
    const exact = answer.angleDeg === gold.angleDeg ? 1 : 0;
    return { exact, partial: computeLinearCredit(answer.angleDeg, gold.angleDeg, params.partialRangeDeg) };
  },
});
