import {
  answersForDifference,
  answersForPrecision,
  designEffect,
  estimateIcc,
  participantsPerConditionForEffect,
  planClustered,
  type ClusteredPlan,
} from "@/lib/stats/sample-size";
import { PAPER_ROWS } from "./paper-reference";
import type { ResponseRecord } from "./response-records";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS, toResultColumnKey, type ResultColumnKey } from "./task-columns";

/*
 * The study-level sample-size planner: per result column (T4 as Pos. and Neg.) the expected exact
 * accuracy (the paper's human row, or a pilot's observed accuracy), the between-participant
 * clustering (an assumed ICC, or the pilot's estimate) and the study's items per participant, turned
 * into answers, participants and items by lib/stats/sample-size. The study needs the largest
 * participant count over its columns, since every participant answers every chosen task.
 */

/** Exact-match accuracy of the paper's human row (Table 2), as a fraction. */
export const PAPER_HUMAN_EXACT: Readonly<Record<ResultColumnKey, number>> = Object.fromEntries(
  RESULT_COLUMN_KEYS.map((k) => [
    k,
    (PAPER_ROWS.find((r) => r.kind === "human" && r.metric === "exact")?.cells[k] ?? 50) / 100,
  ]),
) as Record<ResultColumnKey, number>;

/** The best exact-match model cell of the paper's Table 2 per column (tiny split only), as a fraction. */
export const PAPER_BEST_MODEL_EXACT: Readonly<Record<ResultColumnKey, { model: string; accuracy: number }>> =
  Object.fromEntries(
    RESULT_COLUMN_KEYS.map((k) => {
      const rows = PAPER_ROWS.filter((r) => r.kind === "model" && r.metric === "exact" && r.itemSet === "tiny");
      const best = rows.reduce((a, b) => (b.cells[k] > a.cells[k] ? b : a));
      return [k, { model: best.model, accuracy: best.cells[k] / 100 }];
    }),
  ) as Record<ResultColumnKey, { model: string; accuracy: number }>;

export interface PilotColumnStats {
  column: ResultColumnKey;
  accuracy: number;
  nParticipants: number;
  nAnswers: number;
  /** Null when the pilot cannot estimate it (one participant, one answer each). */
  icc: number | null;
}

/** Observed exact accuracy and participant ICC per column from pilot answers (main phase). */
export function summarizePilot(records: readonly ResponseRecord[]): PilotColumnStats[] {
  const byColumn = new Map<ResultColumnKey, Map<string, number[]>>();
  for (const r of records) {
    const column = toResultColumnKey(r.taskId, r.t4Polarity);
    if (column === null) continue;
    const people = byColumn.get(column) ?? new Map<string, number[]>();
    const list = people.get(r.participantId) ?? [];
    list.push(r.exact);
    people.set(r.participantId, list);
    byColumn.set(column, people);
  }
  return RESULT_COLUMN_KEYS.filter((k) => byColumn.has(k)).map((column) => {
    const clusters = [...(byColumn.get(column) as Map<string, number[]>).values()];
    const all = clusters.flat();
    return {
      column,
      accuracy: all.reduce((a, b) => a + b, 0) / all.length,
      nParticipants: clusters.length,
      nAnswers: all.length,
      icc: estimateIcc(clusters)?.icc ?? null,
    };
  });
}

export type PlanTarget =
  | { kind: "precision"; /** 95 % interval half-width, as a fraction (0.1 = ±10 points). */ halfWidth: number }
  | {
      kind: "difference";
      /** Smallest human − model difference to detect, as a fraction. */
      difference: number;
      power?: number;
      alpha?: number;
      /** Model accuracy per column; default the paper's best model (Table 2). */
      modelAccuracy?: Partial<Record<ResultColumnKey, number>>;
    }
  | {
      /** Interactive − static: the smallest condition effect to detect (participants split evenly between the two). */
      kind: "condition";
      /** As a fraction; the static condition's accuracy is the expected accuracy, the interactive one that plus the difference. */
      difference: number;
      power?: number;
      alpha?: number;
    };

export interface PlanOptions {
  target: PlanTarget;
  /** Columns to plan (default all ten). */
  columns?: readonly ResultColumnKey[];
  itemsPerTask: number;
  answersPerItem: number;
  /** Between-participant ICC assumed where the pilot gives none. */
  assumedIcc: number;
  /** Pilot statistics; used for expected accuracy and ICC where present. */
  pilot?: readonly PilotColumnStats[];
  confidence?: number;
}

export interface ColumnPlan extends ClusteredPlan {
  column: ResultColumnKey;
  label: string;
  expectedAccuracy: number;
  expectedFrom: "paper" | "pilot";
  icc: number;
  iccFrom: "assumed" | "pilot";
  /** Answers per participant in this column (T4's items are split between Pos. and Neg.). */
  answersPerParticipant: number;
  /** Difference target only: the model's accuracy and the human accuracy of the alternative. */
  modelAccuracy?: number;
  alternativeAccuracy?: number;
  /**
   * Condition target only: what each condition needs for the page's Welch interval on participants to reach the
   * power (lib/stats/sample-size participantsPerConditionForEffect); the plan's answers and
   * participants are the two conditions together. alternativeAccuracy is then the interactive condition's.
   */
  perCondition?: {
    /** Participants × m / DE, rounded down: the independent answers they are worth. */
    effectiveAnswers: number;
    answers: number;
    participants: number;
    /** The power the results page's interval (lib/stats/condition-effect-interval) has with these participants. */
    power: number;
  };
}

export interface StudyPlan {
  columns: ColumnPlan[];
  /** Participants for the whole study (the largest column need). */
  participants: number;
  /** Items per task the pool needs (T4: Pos. + Neg.). */
  itemsPerTask: Partial<Record<string, number>>;
  problems: string[];
}

/** Participants and items for a study, per column and overall. */
export function planStudy(options: PlanOptions): StudyPlan {
  const pilot = new Map((options.pilot ?? []).map((p) => [p.column, p]));
  const columns: ColumnPlan[] = [];
  const problems: string[] = [];
  for (const column of options.columns ?? RESULT_COLUMN_KEYS) {
    const def = RESULT_COLUMNS[column];
    const p = pilot.get(column);
    const expected = p ? p.accuracy : PAPER_HUMAN_EXACT[column];
    const icc = p?.icc ?? options.assumedIcc;
    const m = def.t4Polarity ? Math.max(1, Math.ceil(options.itemsPerTask / 2)) : options.itemsPerTask;
    try {
      if (options.target.kind === "condition") {
        const t = options.target;
        // The alternative lies the difference above the static accuracy, or below it where that would pass 100 %.
        const p2 = expected + t.difference <= 1 ? expected + t.difference : expected - t.difference;
        const need = participantsPerConditionForEffect({
          p1: expected,
          p2,
          answersPerParticipant: m,
          icc,
          power: t.power ?? 0.8,
          alpha: t.alpha ?? 0.05,
        });
        const de = designEffect(m, icc);
        const perCondition = {
          participants: need.participants,
          answers: need.participants * m,
          effectiveAnswers: Math.floor((need.participants * m) / de + 1e-9),
          power: need.power,
        };
        const participants = 2 * perCondition.participants;
        columns.push({
          column,
          label: def.label,
          expectedAccuracy: expected,
          expectedFrom: p ? "pilot" : "paper",
          icc,
          iccFrom: p?.icc == null ? "assumed" : "pilot",
          answersPerParticipant: m,
          effectiveAnswers: 2 * perCondition.effectiveAnswers,
          designEffect: de,
          answers: 2 * perCondition.answers,
          participants,
          items: Math.max(m, Math.ceil((participants * m) / options.answersPerItem)),
          alternativeAccuracy: p2,
          perCondition,
        });
        continue;
      }
      let effective: number;
      const extra: Pick<ColumnPlan, "modelAccuracy" | "alternativeAccuracy"> = {};
      if (options.target.kind === "precision") {
        effective = answersForPrecision({
          p: expected,
          halfWidth: options.target.halfWidth,
          confidence: options.confidence ?? 0.95,
        });
      } else {
        const t = options.target;
        const p0 = t.modelAccuracy?.[column] ?? PAPER_BEST_MODEL_EXACT[column].accuracy;
        // The alternative lies the chosen difference from the model, on the side the humans are expected to be.
        const p1 = Math.min(1, Math.max(0, expected >= p0 ? p0 + t.difference : p0 - t.difference));
        effective = answersForDifference({ p0, p1, power: t.power ?? 0.8, alpha: t.alpha ?? 0.05 });
        extra.modelAccuracy = p0;
        extra.alternativeAccuracy = p1;
      }
      const plan = planClustered({
        effectiveAnswers: effective,
        answersPerParticipant: m,
        icc,
        answersPerItem: options.answersPerItem,
      });
      columns.push({
        column,
        label: def.label,
        expectedAccuracy: expected,
        expectedFrom: p ? "pilot" : "paper",
        icc,
        iccFrom: p?.icc == null ? "assumed" : "pilot",
        answersPerParticipant: m,
        ...plan,
        ...extra,
      });
    } catch (err) {
      problems.push(`${def.label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const itemsPerTask: Partial<Record<string, number>> = {};
  for (const c of columns) {
    const task = RESULT_COLUMNS[c.column].taskId;
    itemsPerTask[task] = (itemsPerTask[task] ?? 0) + c.items;
  }
  return { columns, participants: columns.reduce((m, c) => Math.max(m, c.participants), 0), itemsPerTask, problems };
}
