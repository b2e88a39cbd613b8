import { z } from "zod";
import { Scene3dSchema } from "@/lib/scene3d";
import { AXES_CONVENTION, FORMAT_TOLERANCE, SIX_VIEWS_CONVENTION, VIEW_ORDER } from "./conventions";
import { defineTask } from "./define-task";
import { HbondPickersSchema, PdbIdSchema } from "./fields";
import {
  POCKET_BOND_GRAMMAR,
  PocketBondSchema,
  formatHbondAnswer,
  hbondAnswerSchema,
  parseHbondAnswer,
  scoreHbondAnswer,
  type HbondAnswer,
  type PocketBond,
} from "./grammar/hbond";
import { joinAlternatives } from "./grammar/text";
import { fillTemplate } from "./template";

/**
 * Spec §3 T9: list `<RES> <resnum> <atom> <chain>, <ligand atom>; ...`. An insertion code follows
 * the number directly (`ASP 60B OD1 A, N2`); the chain is always the 4th part. `No` is accepted
 * (scored 0 on items with bonds): the paper's T9 items all have bonds, but a participant must be
 * able to say they see none.
 */
export type PocketLigandAnswer = HbondAnswer<PocketBond>;
export const PocketLigandAnswerSchema = hbondAnswerSchema(PocketBondSchema);
const EXAMPLE = POCKET_BOND_GRAMMAR.example;

export const PocketLigandFieldsSchema = z.object({
  pdbId: PdbIdSchema,
  /** Chains the pocket residues belong to, as written in answers. */
  chainIds: z.array(z.string().regex(/^[A-Za-z0-9]$/, "chain id: one letter or digit")).min(1),
  /** Every pocket residue's and the ligand's heavy-atom names, for pick lists. */
  pickers: HbondPickersSchema.optional(),
  /** Interactive condition only: the first view's atoms (lib/scene3d.ts); never the after-state. */
  scene3d: Scene3dSchema.optional(),
});
export type PocketLigandFields = z.infer<typeof PocketLigandFieldsSchema>;

/** Generator knobs come with the generator (later issue). */
export const PocketLigandParamsSchema = z.object({});

const QUESTION_TEMPLATE =
  "The six images show the binding pocket and the ligand of the protein–ligand complex {pdbId}, seen from the " +
  `${VIEW_ORDER}. Pocket residues are labelled with their name and number and belong to {chainList}; ` +
  "ligand atoms are labelled with their atom names. " +
  "List every hydrogen bond between a pocket residue and the ligand, each written as " +
  "<RES> <residue number> <residue atom> <chain>, <ligand atom>, with the bonds separated by semicolons. " +
  "Write an insertion code directly after the residue number (for example 60B). If there are none, answer No. " +
  `Example: ${EXAMPLE}`;

export const pocketLigandTask = defineTask({
  id: "pocket_ligand",
  code: "T9",
  // v2: keys from ChimeraX's H-bond criteria (lib/molecule/hbonds.ts, ../shared/spec/hbond-criteria.md).
  // v3: ring systems typed by ChimeraX's bond-order enumeration (guanine N1–H, C2=N3), which can change keys.
  version: 3,
  label: "Pocket–ligand interaction",
  kind: "composite",
  format: "cloze",
  instructions: [
    `You see a binding pocket and its ligand from six directions (${VIEW_ORDER}). Hydrogens are hidden; oxygen is red, nitrogen blue; residues are labelled with name and number, ligand atoms with their names. Find every hydrogen bond between the pocket and the ligand.`,
    `${AXES_CONVENTION} ${SIX_VIEWS_CONVENTION}`,
    "List each bond as <RES> <residue number> <residue atom> <chain>, <ligand atom>: the protein side first (3-letter residue code, residue number, atom name, chain), then a comma, then the ligand atom name. Separate bonds with semicolons; their order does not matter. If a residue number has an insertion code, write it directly after the number (60B). If you see no hydrogen bond, answer No.",
    `Example: the hydroxyl OH of tyrosine 228 in chain A bonds to ligand atom O5, and OD1 of aspartate 104 in chain A to N2, so the answer is: ${EXAMPLE}`,
    FORMAT_TOLERANCE,
  ].join("\n\n"),
  questionTemplate: QUESTION_TEMPLATE,
  fieldsSchema: PocketLigandFieldsSchema,
  renderQuestion: (fields: PocketLigandFields) => {
    const chains = [...new Set(fields.chainIds.map((c) => c.toUpperCase()))];
    const chainList = `${chains.length === 1 ? "chain" : "chains"} ${joinAlternatives(chains, "and")}`;
    return fillTemplate(QUESTION_TEMPLATE, { pdbId: fields.pdbId, chainList });
  },
  answerWidget: { type: "hbond-list", withResidueNumberAndChain: true, allowNo: true, yesPrefix: false },
  params: PocketLigandParamsSchema,
  answerSchema: PocketLigandAnswerSchema,
  goldSchema: PocketLigandAnswerSchema,
  parseAnswer: (text: string) => parseHbondAnswer(text, POCKET_BOND_GRAMMAR),
  // The item's chains and pick lists tell `GLY 27 C O` (atom C, chain O) from a chain typed first (lib/tasks/grammar/hbond.ts).
  parseAnswerForItem: (text: string, fields: PocketLigandFields) =>
    parseHbondAnswer(text, POCKET_BOND_GRAMMAR, {
      chainIds: fields.chainIds,
      ...(fields.pickers ? { residues: fields.pickers.residues, ligandAtoms: fields.pickers.ligandAtoms } : {}),
    }),
  canonicalize: (value: PocketLigandAnswer) => formatHbondAnswer(value, POCKET_BOND_GRAMMAR),
  toCorrectAnswer: (gold: PocketLigandAnswer) => gold,
  score: (answer: PocketLigandAnswer, gold: PocketLigandAnswer) => scoreHbondAnswer(answer, gold, POCKET_BOND_GRAMMAR),
  // Every true bond's chain must be one the question lists.
  checkItem({ fields, gold }) {
    if (gold.kind === "none") return undefined;
    const chains = new Set(fields.chainIds.map((c) => c.toUpperCase()));
    const stray = gold.bonds.find((b) => !chains.has(b.chainId.toUpperCase()));
    return stray === undefined
      ? undefined
      : `gold bond on chain ${stray.chainId} but the question lists chains ${[...chains].join(", ")}`;
  },
});
