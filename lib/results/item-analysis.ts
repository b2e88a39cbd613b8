import { fleissKappa, type FleissKappaResult } from "@/lib/stats/fleiss-kappa";
import { parseResponseRecords, type RecordsOutcome, type ResponseRecord } from "./response-records";
import {
  MULTIPLE_CHOICE_TASK_IDS,
  RESULT_COLUMN_KEYS,
  toResultColumnKey,
  type ResultColumnKey,
  type ResultTaskId,
} from "./task-columns";

export interface AnswerCount {
  answer: string;
  count: number;
}

export interface ItemStats {
  itemId: string;
  taskId: ResultTaskId;
  column: ResultColumnKey;
  nResponses: number;
  nCorrect: number;
  /** nCorrect / nResponses. */
  exactAccuracy: number;
  partialMean: number;
  /** Canonical answers → counts, most frequent first (ties by answer text). */
  answers: AnswerCount[];
  /** Responses that carried no canonical answer (not in `answers`). */
  nWithoutAnswer: number;
  /** The single most frequent answer, or null when none or when the top count is tied. */
  modalAnswer: string | null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toItemStats(itemId: string, records: readonly ResponseRecord[]): ItemStats {
  const first = records[0] as ResponseRecord;
  const counts = new Map<string, number>();
  let nWithoutAnswer = 0;
  for (const r of records) {
    if (r.answer === undefined) nWithoutAnswer++;
    else counts.set(r.answer, (counts.get(r.answer) ?? 0) + 1);
  }
  const answers = [...counts.entries()]
    .map(([answer, count]) => ({ answer, count }))
    .sort((a, b) => b.count - a.count || compareText(a.answer, b.answer));
  const top = answers[0];
  const nCorrect = records.reduce((s, r) => s + r.exact, 0);
  return {
    itemId,
    taskId: first.taskId,
    column: toResultColumnKey(first.taskId, first.t4Polarity) as ResultColumnKey,
    nResponses: records.length,
    nCorrect,
    exactAccuracy: nCorrect / records.length,
    partialMean: records.reduce((s, r) => s + r.partial, 0) / records.length,
    answers,
    nWithoutAnswer,
    modalAnswer: top !== undefined && answers[1]?.count !== top.count ? top.answer : null,
  };
}

/** Per-item human accuracy and answer distribution, ordered by result column then item id. */
export function analyzeItems(input: unknown): RecordsOutcome<ItemStats[]> {
  const parsed = parseResponseRecords(input);
  if (!parsed.ok) return parsed;
  const byItem = new Map<string, ResponseRecord[]>();
  for (const r of parsed.value) {
    const list = byItem.get(r.itemId);
    if (list) list.push(r);
    else byItem.set(r.itemId, [r]);
  }
  const order = (c: ResultColumnKey) => RESULT_COLUMN_KEYS.indexOf(c);
  const items = [...byItem.entries()].map(([id, list]) => toItemStats(id, list));
  items.sort((a, b) => order(a.column) - order(b.column) || compareText(a.itemId, b.itemId));
  return { ok: true, value: items };
}

export interface MostMissedOptions {
  /** Items with fewer responses are left out: one wrong answer is not evidence of a hard item. */
  minResponses: number;
  limit?: number;
}

/**
 * Items sorted by human exact accuracy, lowest first; ties go to the item with more responses
 * (stronger evidence), then by item id. Items below minResponses are left out.
 */
export function listMostMissed(items: readonly ItemStats[], options: MostMissedOptions): ItemStats[] {
  const sorted = items
    .filter((i) => i.nResponses >= options.minResponses)
    .sort(
      (a, b) => a.exactAccuracy - b.exactAccuracy || b.nResponses - a.nResponses || compareText(a.itemId, b.itemId),
    );
  return options.limit === undefined ? sorted : sorted.slice(0, options.limit);
}

const MC_LETTERS = ["A", "B", "C", "D"] as const;

export interface MultipleChoiceAgreement {
  taskId: ResultTaskId;
  /** Fleiss' kappa over items (raters = the responses to each item, categories A–D); null if no item has two answers. */
  fleiss: FleissKappaResult | null;
  nItems: number;
  /** Responses of this task without a canonical letter, which cannot enter kappa. */
  nWithoutAnswer: number;
}

/**
 * Inter-rater agreement per multiple-choice task: Fleiss' kappa with items as subjects and each
 * participant's letter as a rating. The number of raters varies by item; see fleissKappa for the
 * generalised formula and the exclusion of items with fewer than two answers.
 */
export function computeMultipleChoiceAgreement(input: unknown): RecordsOutcome<MultipleChoiceAgreement[]> {
  const parsed = parseResponseRecords(input);
  if (!parsed.ok) return parsed;
  const out: MultipleChoiceAgreement[] = [];
  for (const taskId of MULTIPLE_CHOICE_TASK_IDS) {
    const records = parsed.value.filter((r) => r.taskId === taskId);
    if (records.length === 0) continue;
    const countsByItem = new Map<string, number[]>();
    let nWithoutAnswer = 0;
    for (const r of records) {
      const row = countsByItem.get(r.itemId) ?? [0, 0, 0, 0];
      countsByItem.set(r.itemId, row);
      // Letters are validated as A–D when present.
      const j = r.answer === undefined ? -1 : MC_LETTERS.indexOf(r.answer as (typeof MC_LETTERS)[number]);
      if (j < 0) nWithoutAnswer++;
      else row[j] = (row[j] as number) + 1;
    }
    out.push({ taskId, fleiss: fleissKappa([...countsByItem.values()]), nItems: countsByItem.size, nWithoutAnswer });
  }
  return { ok: true, value: out };
}
