import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import { AXES_CONVENTION, SIX_VIEWS_CONVENTION } from "./conventions";
import { defineTask } from "./define-task";
import { PdbIdSchema, ResidueRefSchema, formatResidueRef } from "./fields";
import type { CommandSpec } from "./grammar/command";
import {
  MC_ANSWER_FORMAT,
  MC_WIDGET,
  McAnswerSchema,
  canonicalizeMcAnswer,
  canonicalizeOption,
  createMcGoldSchema,
  formatMcOptions,
  parseMcAnswer,
  scoreMcAnswer,
  type McAnswer,
  type McGold,
} from "./multiple-choice";
import { fillTemplate } from "./template";
import { MC_LETTERS } from "./types";

/**
 * T8 options are `move x <dx>, move y <dy>` pairs (spec §3), shown to the participant as text.
 * Values may carry one decimal (the bond midpoint is not on a grid); ±50 Å is far beyond any pocket.
 */
export const INTERACTION_LOCATION_OPTION_COMMANDS: readonly CommandSpec[] = [
  { verb: "move", axes: ["x"], min: -50, max: 50, step: 0.1 },
  { verb: "move", axes: ["y"], min: -50, max: 50, step: 0.1 },
];
const OPTION_EXAMPLE = "move x 3, move y -2";

const atomNameSchema = z.string().regex(/^[A-Za-z0-9'"*_]{1,6}$/, "atom name: 1–6 of letters, digits, ' \" * _");
const optionTextSchema = z.string().min(1);

export const InteractionLocationFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** The H-bond named in the question: protein residue and atom, ligand atom. */
  bond: z.object({ residue: ResidueRefSchema, atomName: atomNameSchema, ligandAtomName: atomNameSchema }),
  /** Option texts as shown, A–D; must match the answer key's options. */
  options: z.tuple([optionTextSchema, optionTextSchema, optionTextSchema, optionTextSchema]),
  /** Interactive condition only: the first view's atoms (lib/scene3d.ts); never the after-state. */
  scene3d: Scene3dSchema.optional(),
});
export type InteractionLocationFields = z.infer<typeof InteractionLocationFieldsSchema>;

/** Generator knobs come with the generator (later issue). */
export const InteractionLocationParamsSchema = z.object({});

const QUESTION_TEMPLATE =
  "The six images show the binding pocket and the ligand of the protein–ligand complex {pdbId} from the front, left, top, back, right and bottom. " +
  "Consider the hydrogen bond between atom {proteinAtom} of residue {residue} and ligand atom {ligandAtom}. " +
  "Which moves bring the midpoint of these two atoms to the centre of the screen in the front view? " +
  "In the front view, x points right and y points up; distances are in Å.\n" +
  "{options}\n" +
  "Answer with one letter: A, B, C or D.";

export const interactionLocationTask = defineTask({
  id: "interaction_location",
  code: "T8",
  // v2: the located bond comes from ChimeraX's H-bond criteria (lib/molecule/hbonds.ts).
  // v3: ring systems typed by ChimeraX's bond-order enumeration (guanine N1–H, C2=N3), which can change the bond.
  version: 3,
  label: "Interaction location",
  kind: "composite",
  format: "mc",
  instructions: [
    "You see a binding pocket and its ligand from six directions (front, left, top, back, right, bottom). The question names one hydrogen bond between a protein atom and a ligand atom. Find where that bond is, and pick the moves along x and y that would bring the midpoint of its two atoms to the centre of the screen in the front view.",
    `${AXES_CONVENTION} ${SIX_VIEWS_CONVENTION}`,
    "A move shifts the whole scene: move x 3 shifts everything 3 Å to the right, so a point 3 Å left of the centre ends up at the centre.",
    MC_ANSWER_FORMAT,
    "Example: the bond's midpoint sits 3 Å left of and 2 Å above the centre; the option 'move x 3, move y -2' brings it to the centre, so if that is option A the answer is: A",
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: InteractionLocationFieldsSchema,
  renderQuestion: (fields: InteractionLocationFields) =>
    fillTemplate(QUESTION_TEMPLATE, {
      pdbId: fields.pdbId,
      proteinAtom: fields.bond.atomName.toUpperCase(),
      residue: formatResidueRef(fields.bond.residue),
      ligandAtom: fields.bond.ligandAtomName.toUpperCase(),
      options: formatMcOptions(fields.options),
    }),
  // Spec §4: four options, 25%.
  answerWidget: MC_WIDGET,
  params: InteractionLocationParamsSchema,
  answerSchema: McAnswerSchema,
  goldSchema: createMcGoldSchema(INTERACTION_LOCATION_OPTION_COMMANDS, OPTION_EXAMPLE),
  parseAnswer: parseMcAnswer,
  canonicalize: canonicalizeMcAnswer,
  toCorrectAnswer: (gold: McGold): McAnswer => ({ letter: gold.letter }),
  score: (answer: McAnswer, gold: McGold) => scoreMcAnswer(answer, gold),
  // The options shown (public fields) and the options in the key must be the same moves.
  // A letter-only key (imported items) has nothing to compare; the shown options must still parse.
  checkItem({ fields, gold }) {
    for (const [i, letter] of MC_LETTERS.entries()) {
      const shown = canonicalizeOption(fields.options[i] ?? "", INTERACTION_LOCATION_OPTION_COMMANDS, OPTION_EXAMPLE);
      if (shown !== undefined && !gold.options) continue;
      const keyed = canonicalizeOption(gold.options?.[i] ?? "", INTERACTION_LOCATION_OPTION_COMMANDS, OPTION_EXAMPLE);
      if (shown === undefined) return `option ${letter} shown to participants does not parse: ${fields.options[i]}`;
      if (shown !== keyed)
        return `option ${letter} shown (${shown}) differs from the answer key (${gold.options?.[i]})`;
    }
    return undefined;
  },
});
