import { z } from "zod";
import { AXES_CONVENTION, ROTATION_CONVENTION } from "./conventions";
import { defineTask } from "./define-task";
import { PdbIdSchema } from "./fields";
import type { CommandSpec } from "./grammar/command";
import {
  MC_ANSWER_FORMAT,
  MC_WIDGET,
  McAnswerSchema,
  canonicalizeMcAnswer,
  createMcGoldSchema,
  parseMcAnswer,
  scoreMcAnswer,
  type McAnswer,
  type McGold,
} from "./multiple-choice";
import { fillTemplate } from "./template";

/**
 * Option texts (hidden from participants: T5 options are images) describe the transformation each
 * option image shows: a translation followed by a rotation. The paper gives no magnitudes for its
 * distractors, so the bounds are only a sanity check on stored keys.
 */
export const TRANSLATION_ROTATION_OPTION_COMMANDS: readonly CommandSpec[] = [
  { verb: "move", axes: ["x", "y", "z"], min: -50, max: 50, step: 1 },
  { verb: "roll", axes: ["x", "y", "z"], min: -180, max: 180, step: 1 },
];
const OPTION_EXAMPLE = "move x 3, roll y 45";

export const TranslationRotationFieldsSchema = z
  .object({
    /** Reference complex c1: the transformation is shown on it. */
    referencePdbId: PdbIdSchema,
    /** Target complex c2: the participant applies the transformation to it. */
    targetPdbId: PdbIdSchema,
  })
  .refine((f) => f.referencePdbId.toLowerCase() !== f.targetPdbId.toLowerCase(), {
    message: "reference and target must be different complexes",
  });
export type TranslationRotationFields = z.infer<typeof TranslationRotationFieldsSchema>;

/** Generator knobs come with the generator (later issue); defaults keep old stored params valid. */
export const TranslationRotationParamsSchema = z.object({});

const QUESTION_TEMPLATE =
  "Images 1–3 show the front, left and top views of the protein–ligand complex {referencePdbId}. " +
  "Image 4 is its front view after a transformation: a translation followed by a rotation. " +
  "Images 5–7 show the front, left and top views of a different complex, {targetPdbId}. " +
  "Apply the same transformation (the same translation, then the same rotation) to {targetPdbId}. " +
  "Which option shows its front view afterwards? Options A, B, C and D are images 8, 9, 10 and 11. " +
  "Answer with one letter: A, B, C or D.";

export const translationRotationTask = defineTask({
  id: "translation_rotation",
  code: "T5",
  version: 1,
  label: "Translation + rotation",
  kind: "composite",
  format: "mc",
  instructions: [
    "You see one complex before and after a transformation: first a translation (a move along an axis), then a rotation about an axis. Then you see a second, different complex. Imagine applying exactly the same transformation to the second complex, and pick the image that shows its front view afterwards.",
    AXES_CONVENTION,
    ROTATION_CONVENTION,
    MC_ANSWER_FORMAT,
    "Example: if option image B (image 9) shows the second complex moved and turned in the same way as the first, the answer is: B",
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: TranslationRotationFieldsSchema,
  renderQuestion: (fields: TranslationRotationFields) =>
    fillTemplate(QUESTION_TEMPLATE, { referencePdbId: fields.referencePdbId, targetPdbId: fields.targetPdbId }),
  // Spec §4: four options, 25%.
  answerWidget: MC_WIDGET,
  params: TranslationRotationParamsSchema,
  answerSchema: McAnswerSchema,
  goldSchema: createMcGoldSchema(TRANSLATION_ROTATION_OPTION_COMMANDS, OPTION_EXAMPLE),
  parseAnswer: parseMcAnswer,
  canonicalize: canonicalizeMcAnswer,
  toCorrectAnswer: (gold: McGold): McAnswer => ({ letter: gold.letter }),
  score: (answer: McAnswer, gold: McGold) => scoreMcAnswer(answer, gold),
});
