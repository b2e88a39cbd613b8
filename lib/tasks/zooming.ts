import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import { AXES_CONVENTION, FORMAT_TOLERANCE, ZOOM_CONVENTION } from "./conventions";
import { defineTask } from "./define-task";
import { PdbIdSchema } from "./fields";
import {
  commandValueSchema,
  describeCommandRange,
  formatCommand,
  parseSingleCommand,
  type CommandSpec,
} from "./grammar/command";
import { fillTemplate } from "./template";

/**
 * Spec §3 T3: `move z <d>`, d a whole number of Å in [40, 60]. Smaller moves are invisible and
 * larger ones zoom into a single atom (paper); zoom is visible because the camera is perspective.
 */
export const ZOOMING_COMMAND: CommandSpec<"z"> = { verb: "move", axes: ["z"], min: 40, max: 60, step: 1 };
const EXAMPLE = "move z 40";

export const ZoomingAnswerSchema = z.object({ distanceA: commandValueSchema(ZOOMING_COMMAND) });
export type ZoomingAnswer = z.infer<typeof ZoomingAnswerSchema>;

export const ZoomingFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** Interactive condition only: the first view's atoms (lib/scene3d.ts); never the after-state. */
  scene3d: Scene3dSchema.optional(),
});
export type ZoomingFields = z.infer<typeof ZoomingFieldsSchema>;

export const ZoomingParamsSchema = z
  .object({
    /** Generated distances, Å (inside the grammar's range). Scoring is exact only (spec §4). */
    minDistanceA: z.number().int().min(ZOOMING_COMMAND.min).max(ZOOMING_COMMAND.max).default(40),
    maxDistanceA: z.number().int().min(ZOOMING_COMMAND.min).max(ZOOMING_COMMAND.max).default(60),
  })
  .refine((p) => p.minDistanceA <= p.maxDistanceA, { message: "minDistanceA must not exceed maxDistanceA" });

const QUESTION_TEMPLATE =
  "The images show the protein–ligand complex {pdbId}. Images 1–3 are its front, left and top views. " +
  "Image 4 is the front view after the whole complex was moved along the z axis, toward the viewer, so it looks larger. " +
  "How far was it moved? " +
  `Answer with one command in the form move z <distance>, where the distance is ${describeCommandRange(ZOOMING_COMMAND)}. ` +
  `Example: ${EXAMPLE}`;

export const zoomingTask = defineTask({
  id: "zooming",
  code: "T3",
  version: 1,
  label: "Zooming",
  kind: "unit",
  format: "cloze",
  instructions: [
    "You see four images of a protein–ligand complex: its front, left and top views, then the front view again after the whole complex was moved toward you along the z axis, so it looks larger. Work out how far it moved.",
    AXES_CONVENTION,
    ZOOM_CONVENTION,
    `Answer with one command: move z <distance>. The distance is ${describeCommandRange(ZOOMING_COMMAND)}. Only the exact distance counts.`,
    `Example: the complex came 40 Å closer, so the answer is: ${EXAMPLE}`,
    FORMAT_TOLERANCE,
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: ZoomingFieldsSchema,
  renderQuestion: (fields: ZoomingFields) => fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId }),
  // Spec §4: 1/21, one of the 21 distances 40..60.
  answerWidget: {
    type: "command",
    verb: "move",
    axes: ZOOMING_COMMAND.axes,
    min: ZOOMING_COMMAND.min,
    max: ZOOMING_COMMAND.max,
    step: ZOOMING_COMMAND.step,
    unit: "Å",
  },
  params: ZoomingParamsSchema,
  answerSchema: ZoomingAnswerSchema,
  goldSchema: ZoomingAnswerSchema,
  parseAnswer(text) {
    const parsed = parseSingleCommand(text, ZOOMING_COMMAND, EXAMPLE);
    if (!parsed.ok) return parsed;
    return { ok: true, value: { distanceA: parsed.value.value }, canonical: parsed.canonical };
  },
  canonicalize: (value: ZoomingAnswer) => formatCommand({ kind: "move", axis: "z", value: value.distanceA }),
  toCorrectAnswer: (gold: ZoomingAnswer) => gold,
  // Spec §4: zooming is scored exact-only; partial equals exact.
  score(answer, gold) {
    const exact = answer.distanceA === gold.distanceA ? 1 : 0;
    return { exact, partial: exact };
  },
});
