import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import { AXES_CONVENTION, FORMAT_TOLERANCE, SIX_VIEWS_CONVENTION, VIEW_ORDER } from "./conventions";
import { defineTask } from "./define-task";
import { HbondPickersSchema, PdbIdSchema, ResidueRefSchema, formatResidueRef } from "./fields";
import {
  RESIDUE_BOND_GRAMMAR,
  ResidueBondSchema,
  formatHbondAnswer,
  hbondAnswerSchema,
  parseHbondAnswer,
  scoreHbondAnswer,
  type HbondAnswer,
  type ResidueBond,
} from "./grammar/hbond";
import { fillTemplate } from "./template";

/** Spec §3 T4: `No`, or `Yes: <RES> <atom>, <ligand atom>; ...` (protein side first, 3-letter code). */
export type ResidueLigandAnswer = HbondAnswer<ResidueBond>;
export const ResidueLigandAnswerSchema = hbondAnswerSchema(ResidueBondSchema);
const EXAMPLE = RESIDUE_BOND_GRAMMAR.example;

export const ResidueLigandFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** The one residue shown with the ligand. */
  residue: ResidueRefSchema,
  /** The residue's and the ligand's heavy-atom names, for pick lists. */
  pickers: HbondPickersSchema.optional(),
  /** Interactive condition only: the first view's atoms (lib/scene3d.ts); never the after-state. */
  scene3d: Scene3dSchema.optional(),
});
export type ResidueLigandFields = z.infer<typeof ResidueLigandFieldsSchema>;

/** Generator knobs (e.g. share of no-bond items) come with the generator (later issue). */
export const ResidueLigandParamsSchema = z.object({});

/** Spec §4: T4 is reported separately for items with bonds (Pos.) and without (Neg.). */
export function classifyResidueLigandItem(gold: ResidueLigandAnswer): "pos" | "neg" {
  return gold.kind === "bonds" && gold.bonds.length > 0 ? "pos" : "neg";
}

const QUESTION_TEMPLATE =
  "The six images show residue {residue} and the ligand of the protein–ligand complex {pdbId}, seen from the " +
  `${VIEW_ORDER}. Every atom of the residue and every ligand atom is labelled with its atom name. ` +
  "Does this residue form hydrogen bonds with the ligand? If it does not, answer No. " +
  "If it does, answer Yes: followed by every hydrogen bond written as <RES> <residue atom>, <ligand atom> " +
  "(protein side first, 3-letter residue code), with the bonds separated by semicolons. " +
  `Example: ${EXAMPLE}`;

export const residueLigandTask = defineTask({
  id: "residue_ligand",
  code: "T4",
  // v2: every atom of the target residue is labelled with its atom name; keys name amino acids only.
  // v3: keys from ChimeraX's H-bond criteria (lib/molecule/hbonds.ts, ../shared/spec/hbond-criteria.md).
  // v4: ring systems typed by ChimeraX's bond-order enumeration (guanine N1–H, C2=N3), which can change keys.
  version: 4,
  label: "Residue–ligand interaction",
  kind: "unit",
  format: "cloze",
  instructions: [
    `You see one protein residue and the ligand from six directions (${VIEW_ORDER}). Hydrogens are hidden; oxygen is red, nitrogen blue; every atom of the residue and every ligand atom is labelled with its atom name. Decide whether the residue forms hydrogen bonds with the ligand, and if so, which atoms are bonded.`,
    `${AXES_CONVENTION} ${SIX_VIEWS_CONVENTION}`,
    "If there is no hydrogen bond, answer: No",
    "Otherwise answer Yes: and list every bond as <RES> <residue atom>, <ligand atom>: the residue's 3-letter code and atom name first, then a comma, then the ligand atom name. Separate bonds with semicolons. The order of the bonds does not matter.",
    `Example: the arginine's NH2 atom bonds to ligand atom O1B and its NE atom to O2G, so the answer is: ${EXAMPLE}`,
    FORMAT_TOLERANCE,
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: ResidueLigandFieldsSchema,
  renderQuestion: (fields: ResidueLigandFields) =>
    fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId, residue: formatResidueRef(fields.residue) }),
  answerWidget: { type: "hbond-list", withResidueNumberAndChain: false, allowNo: true, yesPrefix: true },
  params: ResidueLigandParamsSchema,
  answerSchema: ResidueLigandAnswerSchema,
  goldSchema: ResidueLigandAnswerSchema,
  parseAnswer: (text: string) => parseHbondAnswer(text, RESIDUE_BOND_GRAMMAR),
  canonicalize: (value: ResidueLigandAnswer) => formatHbondAnswer(value, RESIDUE_BOND_GRAMMAR),
  toCorrectAnswer: (gold: ResidueLigandAnswer) => gold,
  score: (answer: ResidueLigandAnswer, gold: ResidueLigandAnswer) =>
    scoreHbondAnswer(answer, gold, RESIDUE_BOND_GRAMMAR),
  // Every true bond must involve the residue the question names.
  checkItem({ fields, gold }) {
    if (gold.kind === "none") return undefined;
    const name = fields.residue.residueName.toUpperCase();
    const stray = gold.bonds.find((b) => b.residueName.toUpperCase() !== name);
    return stray === undefined
      ? undefined
      : `gold bond ${stray.residueName} ${stray.atomName}, ${stray.ligandAtomName} is not on the question's residue ${name}`;
  },
});
