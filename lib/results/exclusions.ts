import {
  activeRules,
  describeRule,
  exclusionReasons,
  ruleExcludes,
  type ExclusionPolicy,
  type ExclusionRuleId,
  type ParticipantSignalSummary,
} from "@/lib/participant/integrity";
import type { ResponseRecord } from "./response-records";
import {
  computePaperAverage,
  RESULT_COLUMN_KEYS,
  RESULT_COLUMNS,
  toResultColumnKey,
  type ResultColumnKey,
} from "./task-columns";

/** Pooled exact accuracy (Σ exact / n answers) of a set of participants, overall and per result column. */
export interface AccuracyView {
  nParticipants: number;
  nResponses: number;
  /** Over every main answer; null without answers. */
  exact: number | null;
  /** The paper's Avg of the column means (null when a column it needs has no answers). */
  paperAverage: number | null;
  columns: Array<{ column: ResultColumnKey; label: string; nResponses: number; exact: number }>;
}

export interface RuleRow {
  rule: ExclusionRuleId;
  description: string;
  /** Participants this rule excludes (a participant several rules exclude counts under each). */
  nMatched: number;
  /** Participants no other active rule excludes. */
  nOnlyThisRule: number;
}

export interface ParticipantIntegrityRow extends ParticipantSignalSummary {
  /** The active rules that exclude this participant (empty: kept). */
  excludedBy: ExclusionRuleId[];
}

export interface ExclusionResults {
  policy: ExclusionPolicy;
  rules: RuleRow[];
  nParticipants: number;
  nExcluded: number;
  /** Participants none of whose main answers carried browser signals (an old client): only the server-side rules apply. */
  nWithoutBrowserSignals: number;
  all: AccuracyView;
  kept: AccuracyView;
  participants: ParticipantIntegrityRow[];
}

function accuracyOf(records: readonly ResponseRecord[]): AccuracyView {
  const byColumn = new Map<ResultColumnKey, { n: number; sum: number }>();
  let sum = 0;
  for (const r of records) {
    sum += r.exact;
    const key = toResultColumnKey(r.taskId, r.t4Polarity);
    if (!key) continue;
    const cell = byColumn.get(key) ?? { n: 0, sum: 0 };
    cell.n += 1;
    cell.sum += r.exact;
    byColumn.set(key, cell);
  }
  const columns = RESULT_COLUMN_KEYS.filter((k) => byColumn.has(k)).map((k) => {
    const cell = byColumn.get(k)!;
    return { column: k, label: RESULT_COLUMNS[k].label, nResponses: cell.n, exact: cell.sum / cell.n };
  });
  return {
    nParticipants: new Set(records.map((r) => r.participantId)).size,
    nResponses: records.length,
    exact: records.length ? sum / records.length : null,
    paperAverage: computePaperAverage(Object.fromEntries(columns.map((c) => [c.column, c.exact]))).value,
    columns,
  };
}

/**
 * The participants a study's exclusion policy excludes, sorted by id: the one definition every estimate (the results
 * summary, the condition effect, the paper table, the analysis package and its model) leaves out by default.
 */
export function excludedParticipantIds(
  policy: ExclusionPolicy,
  summaries: readonly ParticipantSignalSummary[],
): string[] {
  return summaries
    .filter((s) => exclusionReasons(policy, s).length > 0)
    .map((s) => s.participantId)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The records of the participants not in `excluded`. */
export function withoutExcluded<T extends { participantId: string }>(
  records: readonly T[],
  excluded: ReadonlySet<string> | readonly string[],
): T[] {
  const set = excluded instanceof Set ? excluded : new Set(excluded as readonly string[]);
  return set.size === 0 ? [...records] : records.filter((r) => !set.has(r.participantId));
}

/**
 * Applies a study's exclusion policy to per-participant signal summaries and reports the results with and without the
 * excluded participants: who each active rule removes (alone and together) and the pooled exact accuracy either way.
 * A participant with answers but no summary (no signals at all) is kept by every rule.
 */
export function applyExclusionPolicy(
  policy: ExclusionPolicy,
  summaries: readonly ParticipantSignalSummary[],
  records: readonly ResponseRecord[],
): ExclusionResults {
  const rules = activeRules(policy);
  const participants: ParticipantIntegrityRow[] = summaries.map((s) => ({
    ...s,
    excludedBy: exclusionReasons(policy, s),
  }));
  const excluded = new Set(excludedParticipantIds(policy, summaries));
  const ruleRows: RuleRow[] = rules.map((rule) => {
    const matched = summaries.filter((s) => ruleExcludes(rule, policy, s));
    return {
      rule,
      description: describeRule(rule, policy),
      nMatched: matched.length,
      nOnlyThisRule: participants.filter((p) => p.excludedBy.length === 1 && p.excludedBy[0] === rule).length,
    };
  });
  const allParticipants = new Set([...records.map((r) => r.participantId), ...summaries.map((s) => s.participantId)]);
  return {
    policy,
    rules: ruleRows,
    nParticipants: allParticipants.size,
    nExcluded: excluded.size,
    nWithoutBrowserSignals: allParticipants.size - summaries.filter((s) => s.nWithSignals > 0).length,
    all: accuracyOf(records),
    kept: accuracyOf(withoutExcluded(records, excluded)),
    participants,
  };
}
