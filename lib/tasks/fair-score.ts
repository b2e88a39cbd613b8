/**
 * The "fair" score, reported beside the paper's score everywhere results appear. The
 * paper's rules (lib/tasks/*: `score`) stay the primary score, comparable with the published tables.
 *
 * Fair differs only on the H-bond tasks (T4, T9):
 * 1. Chemically equivalent atom names count as one: a participant cannot tell ARG NH1 from NH2 (the
 *    guanidinium is symmetric, and which N the crystallographer called NH1 is a naming convention),
 *    ASP OD1/OD2, GLU OE1/OE2, a C-terminal O/OXT (a residue is C-terminal when the gold names its OXT
 *    or the item's pick lists show it has one: on any other residue OXT does not exist, so the swap is
 *    symmetric there and nowhere else), and the ring-flip pairs CD1/CD2, CE1/CE2 of PHE
 *    and TYR (180° ring flips make them equivalent; they never H-bond, but a list naming them is
 *    judged the same way). Not equivalent: ASN OD1/ND2, GLN OE1/NE2, HIS ND1/NE2 (different
 *    elements or tautomers), LEU CD1/CD2, VAL CG1/CG2 (prochiral methyls, distinguishable in
 *    principle and never H-bond partners).
 *    Equivalence is a relabelling of the residue, not of single bonds: per residue and symmetric group
 *    the answer's names are either all swapped or none (whichever matches more gold bonds), so an
 *    answer naming NH1→O1 and NH2→O2 does not match a gold in which one N bonds both O. Matching is
 *    then exact, one-to-one. (T4 images label every atom, but which N is NH1 is a naming convention
 *    a participant cannot be expected to know.)
 * 2. Partial credit is reported as both precision (the paper's partial rule, with the equivalence) and
 *    F1 = 2·P·R / (P + R) with recall R = matched / gold, so listing one obvious bond of nine earns
 *    full precision but F1 0.2.
 * Other tasks: fair = paper (no equivalence issue; F1 not defined).
 *
 * Computed, not stored: from the stored canonical answer and the gold at results time (no migration,
 * and every stored response gets it, including those answered before this rule existed).
 */
import {
  type BondListGrammar,
  type HbondAnswer,
  POCKET_BOND_GRAMMAR,
  RESIDUE_BOND_GRAMMAR,
  type ResidueBond,
} from "./grammar/hbond";
import { HbondPickersSchema } from "./fields";
import { getTask } from "./registry";
import type { TaskId } from "./types";

/**
 * Residue name → the relabelling a participant cannot see: the symmetric partners' names swapped. A ring flip swaps
 * both pairs of PHE/TYR at once.
 */
const RESIDUE_FLIPS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ARG: { NH1: "NH2", NH2: "NH1" },
  ASP: { OD1: "OD2", OD2: "OD1" },
  GLU: { OE1: "OE2", OE2: "OE1" },
  PHE: { CD1: "CD2", CD2: "CD1", CE1: "CE2", CE2: "CE1" },
  TYR: { CD1: "CD2", CD2: "CD1", CE1: "CE2", CE2: "CE1" },
};
/** The two oxygens of a C-terminal carboxylate (see `terminalResiduesOf` for which residues are C-terminal). */
const TERMINAL_FLIP: Readonly<Record<string, string>> = { O: "OXT", OXT: "O" };

export interface FairScore {
  exact: 0 | 1;
  /** Precision under the paper's partial rule (superset cap, over-listing rule), atom names up to equivalence. */
  partial: number;
  /** F1 of the answered bond set against the gold, up to equivalence; null where not defined (non-list tasks). */
  f1: number | null;
}

/** Paper's caps, same values as lib/tasks/grammar/hbond.ts (spec §4). */
const SUPERSET_PARTIAL_CAP = 0.5;
const MAX_ANSWERED_PER_TRUE_BOND = 2;

const residueOf = <B extends ResidueBond>(b: B, grammar: BondListGrammar<B>) =>
  grammar.formatProteinSide({ ...b, atomName: "" });
const keyOf = <B extends ResidueBond>(b: B, grammar: BondListGrammar<B>) =>
  `${grammar.formatProteinSide(b)}, ${b.ligandAtomName.toUpperCase()}`;
const relabel = <B extends ResidueBond>(b: B, flip: Readonly<Record<string, string>>): B => ({
  ...b,
  atomName: flip[b.atomName.toUpperCase()] ?? b.atomName,
});

/** Distinct bonds by key (duplicates are one bond, as in the paper's set comparison). */
function keySet<B extends ResidueBond>(bonds: readonly B[], grammar: BondListGrammar<B>): Set<string> {
  return new Set(bonds.map((b) => keyOf(b, grammar)));
}

/**
 * The answer with each residue's names relabelled consistently (flip or not, per symmetric group) so that it matches
 * the most gold bonds. One relabelling per residue, never bond by bond: "NH1→O1, NH2→O2" does not match a gold in which
 * one N bonds both O. Residues do not interact (every key names its residue), so each is decided on its own.
 */
function bestRelabelling<B extends ResidueBond>(
  answer: readonly B[],
  truth: Set<string>,
  terminalResidues: Set<string>,
  grammar: BondListGrammar<B>,
): B[] {
  const byResidue = new Map<string, B[]>();
  for (const b of answer) {
    const r = residueOf(b, grammar);
    byResidue.set(r, [...(byResidue.get(r) ?? []), b]);
  }
  const out: B[] = [];
  for (const [residue, bonds] of byResidue) {
    const flips = [
      RESIDUE_FLIPS[bonds[0]!.residueName.toUpperCase()],
      terminalResidues.has(residue) ? TERMINAL_FLIP : undefined,
    ].filter((f): f is Readonly<Record<string, string>> => f !== undefined);
    let best = bonds;
    let bestHits = [...keySet(bonds, grammar)].filter((k) => truth.has(k)).length;
    for (let mask = 1; mask < 1 << flips.length; mask++) {
      const candidate = bonds.map((b) =>
        flips.reduce((acc, flip, i) => (mask & (1 << i) ? relabel(acc, flip) : acc), b),
      );
      const hits = [...keySet(candidate, grammar)].filter((k) => truth.has(k)).length;
      if (hits > bestHits) [best, bestHits] = [candidate, hits];
    }
    out.push(...best);
  }
  return out;
}

/**
 * The C-terminal residues of an item, as `residueOf` keys: those whose OXT the gold names, and those whose atoms in the
 * item's public pick lists (fields.pickers, lib/tasks/fields.ts) include OXT. Without pick lists (imported items) a
 * residue whose gold names only O cannot be recognised as C-terminal, and OXT answered for it stays wrong.
 */
export function terminalResiduesOf<B extends ResidueBond>(
  goldBonds: readonly B[],
  fields: unknown,
  grammar: BondListGrammar<B>,
): Set<string> {
  const out = new Set(goldBonds.filter((b) => b.atomName.toUpperCase() === "OXT").map((b) => residueOf(b, grammar)));
  const pickers = HbondPickersSchema.safeParse((fields as { pickers?: unknown } | null | undefined)?.pickers);
  if (pickers.success) {
    for (const r of pickers.data.residues) {
      if (!r.atoms.some((a) => a.toUpperCase() === "OXT")) continue;
      out.add(residueOf({ ...r, atomName: "", ligandAtomName: "" } as unknown as B, grammar));
    }
  }
  return out;
}

/**
 * Fair score of an H-bond answer (see the module comment). `fields` are the item's public fields: their pick lists
 * tell which residues are C-terminal (O/OXT equivalence).
 */
export function scoreHbondAnswerFair<B extends ResidueBond>(
  answer: HbondAnswer<B>,
  gold: HbondAnswer<B>,
  grammar: BondListGrammar<B>,
  fields?: unknown,
): FairScore {
  const goldBonds = gold.kind === "none" ? [] : gold.bonds;
  const truth = keySet(goldBonds, grammar);
  const nTrue = truth.size;
  if (nTrue === 0) {
    const right = answer.kind === "none" ? 1 : 0;
    return { exact: right, partial: right, f1: right };
  }
  if (answer.kind === "none") return { exact: 0, partial: 0, f1: 0 };
  const terminal = terminalResiduesOf(goldBonds, fields, grammar);
  const answered = keySet(bestRelabelling(answer.bonds, truth, terminal, grammar), grammar);
  const nAnswered = answered.size;
  const hits = [...answered].filter((k) => truth.has(k)).length;
  const exact = hits === nTrue && nAnswered === nTrue ? 1 : 0;
  const precision = hits / nAnswered;
  const recall = hits / nTrue;
  const f1 = hits === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  if (nAnswered > MAX_ANSWERED_PER_TRUE_BOND * nTrue) return { exact, partial: 0, f1 };
  const partial = hits === nTrue && nAnswered > nTrue ? Math.min(precision, SUPERSET_PARTIAL_CAP) : precision;
  return { exact, partial, f1 };
}

const HBOND_GRAMMARS: Partial<Record<TaskId, BondListGrammar<ResidueBond>>> = {
  residue_ligand: RESIDUE_BOND_GRAMMAR,
  pocket_ligand: POCKET_BOND_GRAMMAR as unknown as BondListGrammar<ResidueBond>,
};

/** Tasks whose fair score can differ from the paper's. */
export const FAIR_SCORE_TASKS: readonly TaskId[] = ["residue_ligand", "pocket_ligand"];

/**
 * Fair score of a stored response from its canonical answer text, the item's stored gold and (optionally) its public
 * fields, or null when fair equals paper for this task (the caller keeps the paper score). An answer text that does
 * not parse (an unanswered or malformed response) scores 0; a gold that does not validate returns an error.
 */
export function fairScoreOf(
  taskId: TaskId,
  canonicalAnswer: string,
  gold: unknown,
  fields?: unknown,
): { ok: true; score: FairScore | null } | { ok: false; error: string } {
  const grammar = HBOND_GRAMMARS[taskId];
  if (!grammar) return { ok: true, score: null };
  const task = getTask(taskId);
  const parsedGold = task.goldSchema.safeParse(gold);
  if (!parsedGold.success)
    return {
      ok: false,
      error: `stored gold for ${taskId} is invalid: ${parsedGold.error.issues[0]?.message ?? "unknown problem"}`,
    };
  const parsed = task.parseAnswer(canonicalAnswer);
  if (!parsed.ok) return { ok: true, score: { exact: 0, partial: 0, f1: 0 } };
  return {
    ok: true,
    score: scoreHbondAnswerFair(
      parsed.value as HbondAnswer<ResidueBond>,
      parsedGold.data as HbondAnswer<ResidueBond>,
      grammar,
      fields,
    ),
  };
}

/** The fair fields of a scored answer (human response or model prediction), as the results records carry them. */
export interface FairFields {
  fairExact: 0 | 1;
  fairPartial: number;
  fairF1: number;
}

/**
 * Fair fields from the stored paper score, the canonical answer and the gold; null when fair equals
 * paper for this task. The stored paper score stays authoritative: an answer exact under the paper is
 * exact under fair too, and fair partial credit is never below the paper's.
 */
export function fairFieldsOf(
  taskId: TaskId,
  canonicalAnswer: string,
  gold: unknown,
  paper: { exact: 0 | 1; partial: number },
  itemFields?: unknown,
): { ok: true; fields: FairFields | null } | { ok: false; error: string } {
  const fair = fairScoreOf(taskId, canonicalAnswer, gold, itemFields);
  if (!fair.ok) return fair;
  if (!fair.score) return { ok: true, fields: null };
  if (paper.exact === 1) return { ok: true, fields: { fairExact: 1, fairPartial: 1, fairF1: 1 } };
  const fairPartial = Math.max(fair.score.partial, paper.partial);
  return { ok: true, fields: { fairExact: fair.score.exact, fairPartial, fairF1: fair.score.f1 ?? fairPartial } };
}
