/**
 * The "fair" score (issue 13), reported beside the paper's score everywhere results appear. The
 * paper's rules (lib/tasks/*: `score`) stay the primary score, comparable with the published tables.
 *
 * Fair differs only on the H-bond tasks (T4, T9):
 * 1. Chemically equivalent atom names count as one: a participant cannot tell ARG NH1 from NH2 (the
 *    guanidinium is symmetric, and which N the crystallographer called NH1 is a naming convention),
 *    ASP OD1/OD2, GLU OE1/OE2, a C-terminal O/OXT, and the ring-flip pairs CD1/CD2, CE1/CE2 of PHE
 *    and TYR (180° ring flips make them equivalent; they never H-bond, but a list naming them is
 *    judged the same way). Not equivalent: ASN OD1/ND2, GLN OE1/NE2, HIS ND1/NE2 (different
 *    elements or tautomers), LEU CD1/CD2, VAL CG1/CG2 (prochiral methyls, distinguishable in
 *    principle and never H-bond partners).
 *    Matching is one-to-one: an answered bond uses up one gold bond of its equivalence class.
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
import { getTask } from "./registry";
import type { TaskId } from "./types";

/** Residue name → atom name → the class it shares with its equivalent partner. */
export const EQUIVALENT_ATOM_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  ARG: { NH1: "NH1|NH2", NH2: "NH1|NH2" },
  ASP: { OD1: "OD1|OD2", OD2: "OD1|OD2" },
  GLU: { OE1: "OE1|OE2", OE2: "OE1|OE2" },
  PHE: { CD1: "CD1|CD2", CD2: "CD1|CD2", CE1: "CE1|CE2", CE2: "CE1|CE2" },
  TYR: { CD1: "CD1|CD2", CD2: "CD1|CD2", CE1: "CE1|CE2", CE2: "CE1|CE2" },
};
/** Any amino acid: the two oxygens of a C-terminal carboxylate. */
const TERMINAL_CARBOXYLATE: Readonly<Record<string, string>> = { O: "O|OXT", OXT: "O|OXT" };

/** The equivalence class of an atom name within its residue (the name itself when it has no partner). */
export function equivalentAtomClass(residueName: string, atomName: string): string {
  const res = residueName.toUpperCase();
  const atom = atomName.toUpperCase();
  return EQUIVALENT_ATOM_NAMES[res]?.[atom] ?? TERMINAL_CARBOXYLATE[atom] ?? atom;
}

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

function fairKeys<B extends ResidueBond>(bonds: readonly B[], grammar: BondListGrammar<B>): Map<string, number> {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (const b of bonds) {
    const exactKey = `${grammar.formatProteinSide(b)}, ${b.ligandAtomName.toUpperCase()}`;
    if (seen.has(exactKey)) continue; // duplicates are one bond, as in the paper's set comparison
    seen.add(exactKey);
    const key = `${grammar.formatProteinSide({ ...b, atomName: equivalentAtomClass(b.residueName, b.atomName) })}, ${b.ligandAtomName.toUpperCase()}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Fair score of an H-bond answer (see the module comment). */
export function scoreHbondAnswerFair<B extends ResidueBond>(answer: HbondAnswer<B>, gold: HbondAnswer<B>, grammar: BondListGrammar<B>): FairScore {
  const truth = fairKeys(gold.kind === "none" ? [] : gold.bonds, grammar);
  const nTrue = [...truth.values()].reduce((s, n) => s + n, 0);
  if (nTrue === 0) {
    const right = answer.kind === "none" ? 1 : 0;
    return { exact: right, partial: right, f1: right };
  }
  if (answer.kind === "none") return { exact: 0, partial: 0, f1: 0 };
  const answered = fairKeys(answer.bonds, grammar);
  const nAnswered = [...answered.values()].reduce((s, n) => s + n, 0);
  let hits = 0;
  for (const [key, n] of answered) hits += Math.min(n, truth.get(key) ?? 0);
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
 * Fair score of a stored response from its canonical answer text and the item's stored gold, or
 * null when fair equals paper for this task (the caller keeps the paper score). An answer text that
 * does not parse (an unanswered or malformed response) scores 0; a gold that does not validate
 * returns an error.
 */
export function fairScoreOf(taskId: TaskId, canonicalAnswer: string, gold: unknown): { ok: true; score: FairScore | null } | { ok: false; error: string } {
  const grammar = HBOND_GRAMMARS[taskId];
  if (!grammar) return { ok: true, score: null };
  const task = getTask(taskId);
  const parsedGold = task.goldSchema.safeParse(gold);
  if (!parsedGold.success) return { ok: false, error: `stored gold for ${taskId} is invalid: ${parsedGold.error.issues[0]?.message ?? "unknown problem"}` };
  const parsed = task.parseAnswer(canonicalAnswer);
  if (!parsed.ok) return { ok: true, score: { exact: 0, partial: 0, f1: 0 } };
  return { ok: true, score: scoreHbondAnswerFair(parsed.value as HbondAnswer<ResidueBond>, parsedGold.data as HbondAnswer<ResidueBond>, grammar) };
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
): { ok: true; fields: FairFields | null } | { ok: false; error: string } {
  const fair = fairScoreOf(taskId, canonicalAnswer, gold);
  if (!fair.ok) return fair;
  if (!fair.score) return { ok: true, fields: null };
  if (paper.exact === 1) return { ok: true, fields: { fairExact: 1, fairPartial: 1, fairF1: 1 } };
  const fairPartial = Math.max(fair.score.partial, paper.partial);
  return { ok: true, fields: { fairExact: fair.score.exact, fairPartial, fairF1: fair.score.f1 ?? fairPartial } };
}
