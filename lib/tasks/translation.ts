import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import { AXES_CONVENTION, FORMAT_TOLERANCE } from "./conventions";
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

/** Spec §3 T1: `move <x|y> <d>`, d a whole number of Å in [-4, 4] (1 Å bins). */
export const TRANSLATION_COMMAND: CommandSpec<"x" | "y"> = { verb: "move", axes: ["x", "y"], min: -4, max: 4, step: 1 };
const EXAMPLE = "move x 4";

/**
 * The grammar accepts d = 0: the spec's range [-4, 4] includes it (release items may have it). Generators skip 0
 * because a zero move leaves image 4 identical to image 1; lib/tasks/chance.ts counts the values a key can take.
 */
export const TranslationAnswerSchema = z.object({
  axis: axisSchema(TRANSLATION_COMMAND.axes),
  distanceA: commandValueSchema(TRANSLATION_COMMAND),
});
export type TranslationAnswer = z.infer<typeof TranslationAnswerSchema>;

export const TranslationFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** Interactive condition only: the first view's atoms (lib/scene3d.ts); never the after-state. */
  scene3d: Scene3dSchema.optional(),
});
export type TranslationFields = z.infer<typeof TranslationFieldsSchema>;

export const TranslationParamsSchema = z
  .object({
    /** Partial-credit width R in Å: partial = max(0, 1 - |error| / R). Spec §4 [decision]: the range width, 8 Å. */
    partialRangeA: z.number().positive().default(8),
    /** Axes the generator draws from. */
    axes: z.array(axisSchema(TRANSLATION_COMMAND.axes)).min(1).default(["x", "y"]),
    /** Generated distances, Å (inside the grammar's range). */
    minDistanceA: z.number().int().min(TRANSLATION_COMMAND.min).max(TRANSLATION_COMMAND.max).default(-4),
    maxDistanceA: z.number().int().min(TRANSLATION_COMMAND.min).max(TRANSLATION_COMMAND.max).default(4),
    /** Whether the generator may draw 0 (no visible change); off by default. */
    allowZero: z.boolean().default(false),
  })
  .refine((p) => p.minDistanceA <= p.maxDistanceA, { message: "minDistanceA must not exceed maxDistanceA" });

const QUESTION_TEMPLATE =
  "The images show the protein–ligand complex {pdbId}. Images 1–3 are its front, left and top views. " +
  "Image 4 is the front view after the whole complex was translated along the x or the y axis. " +
  "In the front view, x points right, y points up and z points toward the viewer. " +
  "Which translation turns image 1 into image 4? " +
  `Answer with one command in the form move <axis> <distance>, where the axis is x or y and the distance is ${describeCommandRange(TRANSLATION_COMMAND)} (negative moves left or down). ` +
  `Example: ${EXAMPLE}`;

export const translationTask = defineTask({
  id: "translation",
  code: "T1",
  version: 1,
  label: "Translation",
  kind: "unit",
  format: "cloze",
  instructions: [
    "You see four images of a protein–ligand complex: its front, left and top views, then the front view again after the whole complex was moved (translated) along the x or the y axis. Work out that move.",
    AXES_CONVENTION,
    `Answer with one command: move <axis> <distance>. The axis is x or y; the distance is ${describeCommandRange(TRANSLATION_COMMAND)}. A negative distance moves left (x) or down (y).`,
    `Example: the complex in image 4 sits 4 Å further right than in image 1, so the answer is: ${EXAMPLE}`,
    FORMAT_TOLERANCE,
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: TranslationFieldsSchema,
  renderQuestion: (fields: TranslationFields) => fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId }),
  answerWidget: {
    type: "command",
    verb: "move",
    axes: TRANSLATION_COMMAND.axes,
    min: TRANSLATION_COMMAND.min,
    max: TRANSLATION_COMMAND.max,
    step: TRANSLATION_COMMAND.step,
    unit: "Å",
  },
  params: TranslationParamsSchema,
  answerSchema: TranslationAnswerSchema,
  goldSchema: TranslationAnswerSchema,
  parseAnswer(text) {
    const parsed = parseSingleCommand(text, TRANSLATION_COMMAND, EXAMPLE);
    if (!parsed.ok) return parsed;
    return { ok: true, value: { axis: parsed.value.axis, distanceA: parsed.value.value }, canonical: parsed.canonical };
  },
  canonicalize: (value: TranslationAnswer) => formatCommand({ kind: "move", axis: value.axis, value: value.distanceA }),
  toCorrectAnswer: (gold: TranslationAnswer) => gold,
  score(answer, gold, params) {
    if (answer.axis !== gold.axis) return { exact: 0, partial: 0 };
    const exact = answer.distanceA === gold.distanceA ? 1 : 0;
    return { exact, partial: computeLinearCredit(answer.distanceA, gold.distanceA, params.partialRangeA) };
  },
});
