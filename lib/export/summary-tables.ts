import type { ItemStats } from "@/lib/results/item-analysis";
import { INTERVAL_RULE_NOTE, type IntervalMethod } from "@/lib/results/interval-rule";
import type { ColumnSummary, GroupSummary, HumanResultsSummary } from "@/lib/results/summarize";
import type { ConditionEffectSummary } from "@/lib/results/condition-effect";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";
import type { ConditionEffect } from "@/lib/stats/crossed-bootstrap";
import { TASK_IDS } from "@/lib/tasks/types";
import { defineExportTable } from "./columns";
import { participantSignalColumns, type ParticipantSignalCells } from "./signal-columns";

/** Scores are fractions in [0, 1] everywhere in exports (the page shows percent). */
const FRACTION = "fraction in [0, 1]";

const CI_RULE = INTERVAL_RULE_NOTE;
const CI_METHODS = ["participant_bootstrap", "clustered_wilson"] as const;

function ciMethod(method: IntervalMethod | undefined): string | undefined {
  return method === undefined
    ? undefined
    : method === "participant-bootstrap"
      ? "participant_bootstrap"
      : "clustered_wilson";
}

export type SummaryGroupType = "overall" | "condition" | "cohort" | "condition_effect";

/** One line of the per-task summary: a result column (or an average) within a group of responses. */
export interface TaskSummaryRow {
  groupType: SummaryGroupType;
  group: string;
  /** A result column key, or "paper_average" / "all_task_average". */
  column: string;
  taskId: string | null;
  label: string;
  summary: ColumnSummary | null;
  exactMean: number | null;
  partialMean: number | null;
  /** The fair score (lib/tasks/fair-score.ts); F1 only for T4/T9 columns. */
  fairExactMean: number | null;
  fairPartialMean: number | null;
  fairF1Mean: number | null;
  /** Averages only: columns without data, which make the average undefined. */
  missingColumns: string[] | null;
  /** condition_effect rows: interactive − static exact accuracy with its crossed-bootstrap interval. */
  effect?: ConditionEffect;
  seed: string | number;
  replicates: number;
  confidence: number;
}

function rowsOfGroup(
  groupType: SummaryGroupType,
  group: string,
  g: GroupSummary,
  s: HumanResultsSummary,
): TaskSummaryRow[] {
  const meta = { groupType, group, seed: s.seed, replicates: s.replicates, confidence: s.confidence };
  const rows: TaskSummaryRow[] = g.columns.map((c) => ({
    ...meta,
    column: c.column,
    taskId: c.taskId,
    label: c.label,
    summary: c,
    exactMean: c.exact.mean,
    partialMean: c.partial.mean,
    fairExactMean: c.fair.exact.mean,
    fairPartialMean: c.fair.partial.mean,
    fairF1Mean: c.fair.f1?.mean ?? null,
    missingColumns: null,
  }));
  rows.push({
    ...meta,
    column: "paper_average",
    taskId: null,
    label: "Avg (paper: without TransRot and RotRot)",
    summary: null,
    exactMean: g.paperAverage.exact,
    partialMean: g.paperAverage.partial,
    fairExactMean: g.fairPaperAverage.exact,
    fairPartialMean: g.fairPaperAverage.partial,
    fairF1Mean: null,
    missingColumns: g.paperAverage.missing,
  });
  rows.push({
    ...meta,
    column: "all_task_average",
    taskId: null,
    label: "Avg (all 10 columns)",
    summary: null,
    exactMean: g.allTaskAverage.exact,
    partialMean: g.allTaskAverage.partial,
    fairExactMean: g.fairAllTaskAverage.exact,
    fairPartialMean: g.fairAllTaskAverage.partial,
    fairF1Mean: null,
    missingColumns: g.allTaskAverage.missing,
  });
  return rows;
}

function effectRows(group: string, e: ConditionEffectSummary, s: HumanResultsSummary): TaskSummaryRow[] {
  const meta = {
    groupType: "condition_effect" as const,
    group,
    summary: null,
    partialMean: null,
    fairExactMean: null,
    fairPartialMean: null,
    fairF1Mean: null,
    missingColumns: null,
    seed: s.seed,
    replicates: s.replicates,
    confidence: s.confidence,
  };
  return [
    ...e.columns.map((c) => ({
      ...meta,
      column: c.column,
      taskId: RESULT_COLUMNS[c.column].taskId,
      label: c.label,
      exactMean: c.effect.estimate,
      effect: c.effect,
    })),
    {
      ...meta,
      column: "all_tasks",
      taskId: null,
      label: "All tasks (pooled over answers)",
      exactMean: e.overall.estimate,
      effect: e.overall,
    },
  ];
}

/**
 * Flattens a human results summary into task-summary rows: overall, then by condition, then by cohort, then the
 * condition effect (interactive − static); every group without the participants the exclusion policy excludes, then
 * (when it excludes anyone) the overall rows and the effect with them ("all_unexcluded", "interactive_minus_static_unexcluded").
 */
export function toTaskSummaryRows(s: HumanResultsSummary): TaskSummaryRow[] {
  return [
    ...rowsOfGroup("overall", "all", s.overall, s),
    ...Object.entries(s.byCondition).flatMap(([k, g]) => rowsOfGroup("condition", k, g, s)),
    ...Object.entries(s.byCohort).flatMap(([k, g]) => rowsOfGroup("cohort", k, g, s)),
    ...(s.conditionEffect.estimable ? effectRows("interactive_minus_static", s.conditionEffect, s) : []),
    ...(s.unexcluded ? rowsOfGroup("overall", "all_unexcluded", s.unexcluded.overall, s) : []),
    ...(s.unexcluded?.conditionEffect.estimable
      ? effectRows("interactive_minus_static_unexcluded", s.unexcluded.conditionEffect, s)
      : []),
  ];
}

export const TASK_SUMMARY_TABLE = defineExportTable<TaskSummaryRow>({
  id: "task_summary",
  title: "Per-task summary",
  description:
    "Human results per result column (T4 split into Pos./Neg.) for all main-phase responses, then by condition and by cohort; each group ends with the paper's average and the all-task average. " +
    "T5 (translation_rotation) keeps the paper's distractor design, in which every distractor changes the rotation angle: the key is then the odd one out of the four options about two thirds of the time (chance 25 %), so T5 accuracy can be inflated by comparing options rather than solving the task.",
  columns: [
    {
      key: "group_type",
      type: "string",
      values: ["overall", "condition", "cohort", "condition_effect"],
      description:
        "How the responses were grouped; condition_effect: the difference interactive − static in exact accuracy (docs/condition-effect.md).",
      get: (r) => r.groupType,
    },
    {
      key: "group",
      type: "string",
      description:
        "The group's value: 'all', a condition (static, interactive), a cohort, or 'interactive_minus_static' (condition_effect rows). Every group leaves out the participants the study's exclusion policy excludes; 'all_unexcluded' and 'interactive_minus_static_unexcluded' keep them in.",
      get: (r) => r.group,
    },
    {
      key: "result_column",
      type: "string",
      values: [...RESULT_COLUMN_KEYS, "paper_average", "all_task_average", "all_tasks"],
      description:
        "Result column of the paper's tables, or one of the two averages; all_tasks: the condition effect pooled over every answer.",
      get: (r) => r.column,
    },
    {
      key: "task_id",
      type: "string",
      values: TASK_IDS,
      description: "Task of the column; empty on average rows.",
      get: (r) => r.taskId,
    },
    {
      key: "label",
      type: "string",
      description: "Column header as printed in the paper (Trans, Rot, …, ResLig+, ResLig−).",
      get: (r) => r.label,
    },
    { key: "n_items", type: "integer", description: "Distinct items answered.", get: (r) => r.summary?.nItems },
    {
      key: "n_participants",
      type: "integer",
      description: "Distinct participants who answered.",
      get: (r) => r.summary?.nParticipants,
    },
    { key: "n_responses", type: "integer", description: "Responses (main phase).", get: (r) => r.summary?.nResponses },
    {
      key: "exact_mean",
      type: "number",
      unit: FRACTION,
      description:
        "Exact score pooled over responses (Σ exact / n responses). On average rows: the mean of the columns' exact means; empty when a column is missing. On condition_effect rows: exact accuracy interactive − static (a difference of fractions; empty where a condition has no answers).",
      get: (r) => r.exactMean,
    },
    {
      key: "effect_ci_low",
      type: "number",
      unit: "difference of fractions",
      description:
        "condition_effect rows: 95 % crossed (participants × items) bootstrap interval of the difference, lower limit; empty elsewhere.",
      get: (r) => r.effect?.low,
    },
    {
      key: "effect_ci_high",
      type: "number",
      unit: "difference of fractions",
      description: "condition_effect rows: the interval's upper limit; empty elsewhere.",
      get: (r) => r.effect?.high,
    },
    {
      key: "effect_seed",
      type: "integer",
      description:
        "condition_effect rows: Park–Miller seed of the crossed bootstrap (its replicates in effect_replicates); empty elsewhere.",
      get: (r) => r.effect?.seed,
    },
    {
      key: "effect_replicates",
      type: "integer",
      description: "condition_effect rows: crossed-bootstrap replicates.",
      get: (r) => r.effect?.replicates,
    },
    {
      key: "exact_wilson_low",
      type: "number",
      unit: FRACTION,
      description: "Wilson score interval (lower limit) of the exact proportion, responses treated as independent.",
      get: (r) => r.summary?.exact.wilson.low,
    },
    {
      key: "exact_wilson_high",
      type: "number",
      unit: FRACTION,
      description: "Wilson score interval, upper limit.",
      get: (r) => r.summary?.exact.wilson.high,
    },
    {
      key: "exact_bootstrap_low",
      type: "number",
      unit: FRACTION,
      description:
        "Participant-cluster bootstrap percentile interval of the exact mean (participants resampled with replacement), lower limit, as computed (a point where every answer scored the same); exact_ci_low is the interval to report.",
      get: (r) => r.summary?.exact.bootstrap.low,
    },
    {
      key: "exact_bootstrap_high",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the exact mean, upper limit.",
      get: (r) => r.summary?.exact.bootstrap.high,
    },
    {
      key: "exact_ci_low",
      type: "number",
      unit: FRACTION,
      description:
        "Exact mean: the reported 95 % interval (the one the results page, charts and paper tables print), lower limit. " +
        CI_RULE,
      get: (r) => r.summary?.exact.interval.low,
    },
    {
      key: "exact_ci_high",
      type: "number",
      unit: FRACTION,
      description: "Exact mean: the reported 95 % interval, upper limit.",
      get: (r) => r.summary?.exact.interval.high,
    },
    {
      key: "exact_ci_method",
      type: "string",
      values: CI_METHODS,
      description:
        "Exact mean: which rule gave the reported interval: participant_bootstrap, or clustered_wilson where the bootstrap collapses (see exact_ci_low).",
      get: (r) => ciMethod(r.summary?.exact.interval.method),
    },
    {
      key: "partial_mean",
      type: "number",
      unit: FRACTION,
      description: "Partial credit pooled over responses. On average rows: the mean of the columns' partial means.",
      get: (r) => r.partialMean,
    },
    {
      key: "partial_bootstrap_low",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the partial mean, lower limit.",
      get: (r) => r.summary?.partial.bootstrap.low,
    },
    {
      key: "partial_bootstrap_high",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the partial mean, upper limit.",
      get: (r) => r.summary?.partial.bootstrap.high,
    },
    {
      key: "partial_ci_low",
      type: "number",
      unit: FRACTION,
      description:
        "Partial mean: the reported 95 % interval (the one the results page, charts and paper tables print), lower limit. " +
        CI_RULE,
      get: (r) => r.summary?.partial.interval.low,
    },
    {
      key: "partial_ci_high",
      type: "number",
      unit: FRACTION,
      description: "Partial mean: the reported 95 % interval, upper limit.",
      get: (r) => r.summary?.partial.interval.high,
    },
    {
      key: "partial_ci_method",
      type: "string",
      values: CI_METHODS,
      description:
        "Partial mean: which rule gave the reported interval: participant_bootstrap, or clustered_wilson where the bootstrap collapses (see partial_ci_low).",
      get: (r) => ciMethod(r.summary?.partial.interval.method),
    },
    {
      key: "exact_participant_min",
      type: "number",
      unit: FRACTION,
      description: "Lowest participant's own exact mean in this column.",
      get: (r) => r.summary?.exact.participantSpread.min,
    },
    {
      key: "exact_participant_median",
      type: "number",
      unit: FRACTION,
      description: "Median of the participants' exact means.",
      get: (r) => r.summary?.exact.participantSpread.median,
    },
    {
      key: "exact_participant_max",
      type: "number",
      unit: FRACTION,
      description: "Highest participant's exact mean.",
      get: (r) => r.summary?.exact.participantSpread.max,
    },
    {
      key: "partial_participant_min",
      type: "number",
      unit: FRACTION,
      description: "Lowest participant's partial mean.",
      get: (r) => r.summary?.partial.participantSpread.min,
    },
    {
      key: "partial_participant_median",
      type: "number",
      unit: FRACTION,
      description: "Median of the participants' partial means.",
      get: (r) => r.summary?.partial.participantSpread.median,
    },
    {
      key: "partial_participant_max",
      type: "number",
      unit: FRACTION,
      description: "Highest participant's partial mean.",
      get: (r) => r.summary?.partial.participantSpread.max,
    },
    {
      key: "chance_exact",
      type: "number",
      unit: FRACTION,
      description: "Chance level of an exact answer (spec §4); empty for open-ended answers.",
      get: (r) => r.summary?.chance.exact,
    },
    {
      key: "chance_basis",
      type: "string",
      description: "How the chance level was derived.",
      get: (r) => r.summary?.chance.basis,
    },
    {
      key: "missing_columns",
      type: "string",
      description:
        "Average rows only: result columns without data, separated by spaces (the average is empty when any is missing).",
      get: (r) => r.missingColumns?.join(" "),
    },
    {
      key: "confidence",
      type: "number",
      unit: FRACTION,
      description: "Confidence level of every interval in the row (0.95).",
      get: (r) => r.confidence,
    },
    {
      key: "fair_exact_mean",
      type: "number",
      unit: FRACTION,
      description:
        "Fair score, exact (shown after the paper's): on T4/T9 chemically equivalent atom names count as one — ARG NH1/NH2, ASP OD1/OD2, GLU OE1/OE2, C-terminal O/OXT (either way round, on a residue that has an OXT: named in the gold or in the item's pick lists), PHE and TYR CD1/CD2 and CE1/CE2 — as one relabelling per residue (all of a residue's pair names swapped or none), then matched one-to-one; other tasks: equal to exact_mean. Computed at export time from the stored canonical answer and the gold.",
      get: (r) => r.fairExactMean,
    },
    {
      key: "fair_exact_wilson_low",
      type: "number",
      unit: FRACTION,
      description: "Wilson interval of the fair exact proportion, lower limit.",
      get: (r) => r.summary?.fair.exact.wilson.low,
    },
    {
      key: "fair_exact_wilson_high",
      type: "number",
      unit: FRACTION,
      description: "Wilson interval of the fair exact proportion, upper limit.",
      get: (r) => r.summary?.fair.exact.wilson.high,
    },
    {
      key: "fair_exact_bootstrap_low",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the fair exact mean, lower limit.",
      get: (r) => r.summary?.fair.exact.bootstrap.low,
    },
    {
      key: "fair_exact_bootstrap_high",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the fair exact mean, upper limit.",
      get: (r) => r.summary?.fair.exact.bootstrap.high,
    },
    {
      key: "fair_exact_ci_low",
      type: "number",
      unit: FRACTION,
      description:
        "Fair exact mean: the reported 95 % interval (the one the results page, charts and paper tables print), lower limit. " +
        CI_RULE,
      get: (r) => r.summary?.fair.exact.interval.low,
    },
    {
      key: "fair_exact_ci_high",
      type: "number",
      unit: FRACTION,
      description: "Fair exact mean: the reported 95 % interval, upper limit.",
      get: (r) => r.summary?.fair.exact.interval.high,
    },
    {
      key: "fair_exact_ci_method",
      type: "string",
      values: CI_METHODS,
      description:
        "Fair exact mean: which rule gave the reported interval: participant_bootstrap, or clustered_wilson where the bootstrap collapses (see fair_exact_ci_low).",
      get: (r) => ciMethod(r.summary?.fair.exact.interval.method),
    },
    {
      key: "fair_partial_mean",
      type: "number",
      unit: FRACTION,
      description:
        "Fair partial credit as precision (the paper's partial rule: superset cap 0.5, 0 beyond twice the true bonds) with equivalent atom names counted as one; other tasks: equal to partial_mean.",
      get: (r) => r.fairPartialMean,
    },
    {
      key: "fair_partial_bootstrap_low",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the fair partial mean, lower limit.",
      get: (r) => r.summary?.fair.partial.bootstrap.low,
    },
    {
      key: "fair_partial_bootstrap_high",
      type: "number",
      unit: FRACTION,
      description: "Participant-cluster bootstrap interval of the fair partial mean, upper limit.",
      get: (r) => r.summary?.fair.partial.bootstrap.high,
    },
    {
      key: "fair_partial_ci_low",
      type: "number",
      unit: FRACTION,
      description:
        "Fair partial mean: the reported 95 % interval (the one the results page, charts and paper tables print), lower limit. " +
        CI_RULE,
      get: (r) => r.summary?.fair.partial.interval.low,
    },
    {
      key: "fair_partial_ci_high",
      type: "number",
      unit: FRACTION,
      description: "Fair partial mean: the reported 95 % interval, upper limit.",
      get: (r) => r.summary?.fair.partial.interval.high,
    },
    {
      key: "fair_partial_ci_method",
      type: "string",
      values: CI_METHODS,
      description:
        "Fair partial mean: which rule gave the reported interval: participant_bootstrap, or clustered_wilson where the bootstrap collapses (see fair_partial_ci_low).",
      get: (r) => ciMethod(r.summary?.fair.partial.interval.method),
    },
    {
      key: "fair_f1_mean",
      type: "number",
      unit: FRACTION,
      description:
        "T4/T9 only: mean F1 = 2PR/(P+R) of the answered bond set against the gold (equivalent names as one), so listing one of nine bonds earns 0.2, not 1. Empty elsewhere and on average rows.",
      get: (r) => r.fairF1Mean,
    },
    {
      key: "bootstrap_seed",
      type: "string",
      description:
        "Base seed of the bootstrap; each interval derives its own seed from it, the group and the column, so every interval is reproducible.",
      get: (r) => String(r.seed),
    },
    {
      key: "bootstrap_replicates",
      type: "integer",
      description: "Bootstrap replicates per interval.",
      get: (r) => r.replicates,
    },
  ],
});

/** Per-item statistics plus what the item table shows beside them. */
export interface ItemSummaryRow {
  stats: ItemStats;
  externalId: string | null;
  status: string;
  goldAnswer: string | null;
}

export const ITEM_SUMMARY_TABLE = defineExportTable<ItemSummaryRow>({
  id: "item_summary",
  title: "Per-item summary",
  description: "One row per item with at least one main-phase response: human accuracy and the answer distribution.",
  columns: [
    { key: "item_id", type: "string", description: "Item id in this app.", get: (r) => r.stats.itemId },
    {
      key: "item_external_id",
      type: "string",
      description: "Item's external id (VLMEvalKit index, release id); empty when none.",
      get: (r) => r.externalId,
    },
    {
      key: "item_status",
      type: "string",
      values: ["active", "excluded", "flagged"],
      description: "Curation status now (an item flagged after the study still has its responses here).",
      get: (r) => r.status,
    },
    { key: "task_id", type: "string", values: TASK_IDS, description: "MiSI-Bench task.", get: (r) => r.stats.taskId },
    {
      key: "result_column",
      type: "string",
      values: RESULT_COLUMN_KEYS,
      description: "Result column (T4 split into pos/neg by its gold).",
      get: (r) => r.stats.column,
    },
    {
      key: "n_responses",
      type: "integer",
      description: "Main-phase responses to this item.",
      get: (r) => r.stats.nResponses,
    },
    { key: "n_correct", type: "integer", description: "Responses with exact = 1.", get: (r) => r.stats.nCorrect },
    {
      key: "exact_accuracy",
      type: "number",
      unit: FRACTION,
      description: "n_correct / n_responses.",
      get: (r) => r.stats.exactAccuracy,
    },
    {
      key: "partial_mean",
      type: "number",
      unit: FRACTION,
      description: "Mean partial credit of the item's responses.",
      get: (r) => r.stats.partialMean,
    },
    { key: "gold_answer", type: "string", description: "Canonical correct answer.", get: (r) => r.goldAnswer },
    {
      key: "modal_answer",
      type: "string",
      description: "Most frequent canonical answer; empty when none or when the top count is tied.",
      get: (r) => r.stats.modalAnswer,
    },
    {
      key: "answer_distribution",
      type: "json",
      description: "Canonical answers and their counts, most frequent first, as a JSON object {answer: count}.",
      get: (r) => Object.fromEntries(r.stats.answers.map((a) => [a.answer, a.count])),
    },
    {
      key: "n_without_answer",
      type: "integer",
      description: "Responses without a canonical answer (timed out).",
      get: (r) => r.stats.nWithoutAnswer,
    },
  ],
});

/** One participant with counts and scores over their responses, and their integrity signals. */
export interface ParticipantExportRow extends ParticipantSignalCells {
  participantId: string;
  studyId: string;
  studySlug: string;
  externalId: string;
  anonymous: boolean;
  cohort: string;
  condition: string;
  status: string;
  consentAt: Date | null;
  startedAt: Date;
  completedAt: Date | null;
  deviceInfo: unknown;
  attentionFailures: number | null;
  flagged: boolean | null;
  hbondPrimer: boolean | null;
  nMainResponses: number;
  nPracticeResponses: number;
  nAttentionResponses: number;
  exactMean: number | null;
  partialMean: number | null;
  medianRtMs: number | null;
  medianRtClientMs: number | null;
}

function utcOffsetOf(deviceInfo: unknown): number | null {
  const offset =
    deviceInfo && typeof deviceInfo === "object" ? (deviceInfo as { utcOffsetMin?: unknown }).utcOffsetMin : undefined;
  return typeof offset === "number" && Number.isInteger(offset) ? offset : null;
}

export const PARTICIPANTS_TABLE = defineExportTable<ParticipantExportRow>({
  id: "participants",
  title: "Participants",
  description:
    "One row per participant who entered the study (any status), with counts of their responses and their main-phase scores.",
  columns: [
    {
      key: "participant_id",
      type: "string",
      description: "Participant id assigned by the app (pseudonymous).",
      get: (r) => r.participantId,
    },
    { key: "study_id", type: "string", description: "Study id.", get: (r) => r.studyId },
    { key: "study_slug", type: "string", description: "Study slug.", get: (r) => r.studySlug },
    {
      key: "participant_external_id",
      type: "string",
      description: "Recruitment platform id (e.g. PROLIFIC_PID) or generated anonymous id.",
      get: (r) => r.externalId,
    },
    {
      key: "anonymous",
      type: "boolean",
      values: ["0", "1"],
      description: "1 when the id was generated by the app (no platform id given).",
      get: (r) => r.anonymous,
    },
    {
      key: "cohort",
      type: "string",
      description: "Cohort tag at entry; 'unspecified' when none.",
      get: (r) => r.cohort,
    },
    {
      key: "condition",
      type: "string",
      values: ["static", "interactive"],
      description:
        "Condition given at the start (consent), in turn among those who start; empty for a participant who never started (saw no question).",
      // Before consent the row carries only the turn the next start would take, which this participant never saw.
      get: (r) => (r.consentAt === null ? null : r.condition),
    },
    {
      key: "status",
      type: "string",
      values: ["consenting", "active", "completed", "screened_out", "declined"],
      description: "Where the participant is (or ended) in the study flow.",
      get: (r) => r.status,
    },
    {
      key: "consent_at",
      type: "datetime",
      unit: "UTC, YYYY-MM-DD HH:MM:SS.mmm",
      description: "When consent was given; empty when not (yet) given.",
      get: (r) => r.consentAt,
    },
    {
      key: "started_at",
      type: "datetime",
      unit: "UTC, YYYY-MM-DD HH:MM:SS.mmm",
      description: "When the participant first opened the study link.",
      get: (r) => r.startedAt,
    },
    {
      key: "completed_at",
      type: "datetime",
      unit: "UTC, YYYY-MM-DD HH:MM:SS.mmm",
      description: "When the session ended (completed or screened out).",
      get: (r) => r.completedAt,
    },
    {
      key: "device",
      type: "json",
      description: "Device information reported at entry, as JSON.",
      get: (r) => (r.deviceInfo === undefined ? null : (r.deviceInfo as object | null)),
    },
    {
      key: "utc_offset_min",
      type: "integer",
      unit: "minutes east of UTC",
      description:
        "The participant's time-zone offset at entry as the browser reported it (UTC+2 → 120, UTC−5 → −300): local time = a UTC timestamp + this many minutes. Empty for browsers that did not report it.",
      get: (r) => utcOffsetOf(r.deviceInfo),
    },
    {
      key: "attention_failures",
      type: "integer",
      description: "Failed attention checks; empty when none were recorded.",
      get: (r) => r.attentionFailures,
    },
    {
      key: "flagged",
      type: "boolean",
      values: ["0", "1"],
      description: "1 when failed attention checks exceed the study's tolerance.",
      get: (r) => r.flagged,
    },
    {
      key: "hbond_primer",
      type: "boolean",
      values: ["0", "1"],
      description:
        "1 when the participant's study showed the hydrogen-bond primer (recorded at consent); empty before consent.",
      get: (r) => r.hbondPrimer,
    },
    { key: "n_main_responses", type: "integer", description: "Main-phase responses.", get: (r) => r.nMainResponses },
    {
      key: "n_practice_responses",
      type: "integer",
      description: "Practice responses (never scored into results).",
      get: (r) => r.nPracticeResponses,
    },
    {
      key: "n_attention_responses",
      type: "integer",
      description: "Attention-check responses.",
      get: (r) => r.nAttentionResponses,
    },
    {
      key: "exact_mean",
      type: "number",
      unit: FRACTION,
      description: "Mean exact score over the participant's main-phase responses.",
      get: (r) => r.exactMean,
    },
    {
      key: "partial_mean",
      type: "number",
      unit: FRACTION,
      description: "Mean partial credit over main-phase responses.",
      get: (r) => r.partialMean,
    },
    {
      key: "median_rt_server_ms",
      type: "number",
      unit: "ms",
      description:
        "Median response time over main-phase responses, measured by the server (question shown to answer stored; client-measured only for a response without a server time). The browser's own figure is median_rt_browser_ms.",
      get: (r) => r.medianRtMs,
    },
    {
      key: "median_rt_browser_ms",
      type: "number",
      unit: "ms",
      description:
        "Median of the response times the participant's browser reported (main phase); not trusted: a client can send any value.",
      get: (r) => r.medianRtClientMs,
    },
    ...participantSignalColumns<ParticipantExportRow>(),
  ],
});
