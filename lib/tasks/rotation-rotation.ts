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
 * Option texts (hidden: T6 options are images) describe the two rotations each option image
 * applies to image 4, in order. Bounds are a sanity check on stored keys only.
 */
export const ROTATION_ROTATION_OPTION_COMMANDS: readonly CommandSpec[] = [
  { verb: "roll", axes: ["x", "y", "z"], min: -180, max: 180, step: 1 },
  { verb: "roll", axes: ["x", "y", "z"], min: -180, max: 180, step: 1 },
];
const OPTION_EXAMPLE = "roll x 30, roll z -45";

export const RotationRotationFieldsSchema = z.object({ pdbId: PdbIdSchema });
export type RotationRotationFields = z.infer<typeof RotationRotationFieldsSchema>;

/** Generator knobs come with the generator (later issue). */
export const RotationRotationParamsSchema = z.object({});

const QUESTION_TEMPLATE =
  "Images 1–3 show the front, left and top views of the protein–ligand complex {pdbId}. " +
  "Image 4 is its front view after two rotations about two different axes, applied one after the other; the order matters. " +
  "Starting from image 4, apply the same two rotations again, in the same order. " +
  "Which option shows the front view of the result? Options A, B, C and D are images 5, 6, 7 and 8. " +
  "Answer with one letter: A, B, C or D.";

export const rotationRotationTask = defineTask({
  id: "rotation_rotation",
  code: "T6",
  version: 1,
  label: "Rotation + rotation",
  kind: "composite",
  format: "mc",
  instructions: [
    "You see a complex before and after two rotations about two different axes, one after the other (the order matters). Imagine applying the same two rotations, in the same order, once more to the rotated complex, and pick the image that shows the result.",
    AXES_CONVENTION,
    ROTATION_CONVENTION,
    MC_ANSWER_FORMAT,
    "Example: if option image C (image 7) shows the complex after the two rotations were applied a second time, the answer is: C",
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: RotationRotationFieldsSchema,
  renderQuestion: (fields: RotationRotationFields) => fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId }),
  // Spec §4: four options, 25%.
  answerWidget: MC_WIDGET,
  params: RotationRotationParamsSchema,
  answerSchema: McAnswerSchema,
  goldSchema: createMcGoldSchema(ROTATION_ROTATION_OPTION_COMMANDS, OPTION_EXAMPLE),
  parseAnswer: parseMcAnswer,
  canonicalize: canonicalizeMcAnswer,
  toCorrectAnswer: (gold: McGold): McAnswer => ({ letter: gold.letter }),
  score: (answer: McAnswer, gold: McGold) => scoreMcAnswer(answer, gold),
});
