import { LATE_ANSWER_GRACE_MS } from "@/lib/question-clock";
import { RESULT_COLUMN_KEYS } from "@/lib/results/task-columns";
import { TASK_IDS } from "@/lib/tasks/types";
import { AnswerSignalsSchema, type AnswerSignals } from "@/lib/participant/integrity";
import { defineExportTable } from "./columns";
import { responseSignalColumns } from "./signal-columns";

/** Cohort of a participant who entered a study without a cohort tag (results group them under this name). */
export const UNSPECIFIED_COHORT = "unspecified";

/** One stored response with what a researcher needs beside it (read from Response, Participant, Item, AnswerKey). */
export interface ResponseExportRow {
  responseId: string;
  studyId: string;
  studySlug: string;
  participantId: string;
  participantExternalId: string;
  /** Already resolved: the participant's cohort, or UNSPECIFIED_COHORT. */
  cohort: string;
  condition: string;
  itemId: string;
  itemExternalId: string | null;
  taskId: string;
  taskVersion: number;
  /** Result column (T4 split into pos/neg by its gold); null when the gold could not be classified. */
  resultColumn: string | null;
  phase: string;
  rawAnswer: string;
  canonicalAnswer: string;
  goldAnswer: string | null;
  exact: number;
  partial: number;
  rtClientMs: number | null;
  rtServerMs: number | null;
  shownAt: Date | null;
  submittedAt: Date;
  deviceInfo: unknown;
  /** Stored after the time limit plus the grace (scored 0 like a time-out). */
  late: boolean;
  /** The browser's integrity signals of this answer (null: none were sent). */
  signals: AnswerSignals | null;
  /** Main phase: identical canonical answers in a row up to this one (lib/participant/integrity.ts); null otherwise. */
  identicalRun: number | null;
}

/** A response as stored (Response joined with Participant, Item, AnswerKey), before the export derives its columns. */
export interface StoredResponseRow extends Omit<
  ResponseExportRow,
  "cohort" | "resultColumn" | "signals" | "identicalRun"
> {
  /** The participant's cohort tag as stored; null or blank when the study had none. */
  cohort: string | null;
  /** AnswerSignals.signals as stored (validated here), null when the answer carried none. */
  signals: unknown;
}

/** A stored response as the export's row, given its result column (derived from the item's gold). */
export function toResponseExportRow(
  row: StoredResponseRow,
  resultColumn: string | null,
  identicalRun: number | null = null,
): ResponseExportRow {
  const signals = row.signals === null || row.signals === undefined ? null : AnswerSignalsSchema.safeParse(row.signals);
  return {
    ...row,
    cohort: row.cohort && row.cohort.trim() !== "" ? row.cohort : UNSPECIFIED_COHORT,
    resultColumn,
    signals: signals?.success ? signals.data : null,
    identicalRun,
  };
}

/**
 * Response time used in analyses: client-measured when present (first display to submit, without
 * network and image-loading time), else server-measured.
 */
export function chooseResponseTimeMs(row: Pick<ResponseExportRow, "rtClientMs" | "rtServerMs">): number | null {
  return row.rtClientMs ?? row.rtServerMs;
}

export const RESPONSES_TABLE = defineExportTable<ResponseExportRow>({
  id: "responses",
  title: "Responses (long format)",
  description:
    "One row per stored answer, every phase (practice, main, attention), ordered by submission time. Only phase = main enters the results. Contains the gold answer: for researchers only.",
  columns: [
    { key: "response_id", type: "string", description: "Response id (stable, unique).", get: (r) => r.responseId },
    { key: "study_id", type: "string", description: "Study id.", get: (r) => r.studyId },
    {
      key: "study_slug",
      type: "string",
      description: "Study slug, as in the participant link /s/<slug>.",
      get: (r) => r.studySlug,
    },
    {
      key: "participant_id",
      type: "string",
      description: "Participant id assigned by the app (pseudonymous).",
      get: (r) => r.participantId,
    },
    {
      key: "participant_external_id",
      type: "string",
      description:
        "External participant id: the recruitment platform's id (e.g. PROLIFIC_PID) or a generated anonymous id.",
      get: (r) => r.participantExternalId,
    },
    {
      key: "cohort",
      type: "string",
      description: `Participant cohort from the study's cohort tag when they entered (e.g. expert, crowd); '${UNSPECIFIED_COHORT}' when the study had none.`,
      get: (r) => r.cohort,
    },
    {
      key: "condition",
      type: "string",
      values: ["static", "interactive"],
      description: "Study condition the participant was assigned.",
      get: (r) => r.condition,
    },
    { key: "item_id", type: "string", description: "Item id in this app.", get: (r) => r.itemId },
    {
      key: "item_external_id",
      type: "string",
      description: "Item's external id (VLMEvalKit index, MiSI release id or bundle id); empty when none.",
      get: (r) => r.itemExternalId,
    },
    {
      key: "task_id",
      type: "string",
      values: TASK_IDS,
      description: "MiSI-Bench task (spec §3, T1..T9 in order).",
      get: (r) => r.taskId,
    },
    {
      key: "task_version",
      type: "integer",
      description: "Version of the task's grammar and scoring when the answer was scored.",
      get: (r) => r.taskVersion,
    },
    {
      key: "result_column",
      type: "string",
      values: RESULT_COLUMN_KEYS,
      description:
        "Column of the paper's result tables: the task id, except residue_ligand split into residue_ligand_pos (item has bonds) and residue_ligand_neg (no bonds).",
      get: (r) => r.resultColumn,
    },
    {
      key: "phase",
      type: "string",
      values: ["practice", "main", "attention"],
      description: "Block the item was served in; only main counts in results.",
      get: (r) => r.phase,
    },
    {
      key: "raw_answer",
      type: "string",
      description:
        "Answer text exactly as submitted (empty when the time limit ran out). Cells a spreadsheet would read as a formula start with an apostrophe.",
      get: (r) => r.rawAnswer,
    },
    {
      key: "canonical_answer",
      type: "string",
      description: "The answer in the task grammar's canonical form (empty when timed out).",
      get: (r) => r.canonicalAnswer,
    },
    {
      key: "gold_answer",
      type: "string",
      description: "Canonical text of the correct answer (AnswerKey.canonical).",
      get: (r) => r.goldAnswer,
    },
    {
      key: "exact",
      type: "integer",
      values: ["0", "1"],
      description:
        "1 when the canonical answer equals the gold answer (spec §4, the paper's Table 2); 0 for a late answer (see late).",
      get: (r) => r.exact,
    },
    {
      key: "partial",
      type: "number",
      unit: "fraction in [0, 1]",
      description:
        "Partial credit (spec §4, the paper's Table 1); equals exact for multiple-choice tasks and zooming; 0 for a late answer (see late).",
      get: (r) => r.partial,
    },
    {
      key: "rt_ms",
      type: "integer",
      unit: "ms",
      description:
        "Response time used in analyses, from two clocks: rt_browser_ms (the browser's clock) when present, else rt_server_ms (the server's clock).",
      get: (r) => chooseResponseTimeMs(r),
    },
    {
      key: "rt_browser_ms",
      type: "integer",
      unit: "ms",
      description:
        "Client-measured time from first display to submit (in a timed study the question's text appears a moment before its images, which load after shown_at is stamped).",
      get: (r) => r.rtClientMs,
    },
    {
      key: "rt_server_ms",
      type: "integer",
      unit: "ms",
      description:
        "Time from shown_at to storing the answer, on the server's clock. In a timed study shown_at is the server's stamp; in an untimed one it is placed by the browser's rt_browser_ms, bounded by when the question was first served, so it can be shorter than the server saw (a reload restarts the browser's clock; see sig_reloads) but never longer.",
      get: (r) => r.rtServerMs,
    },
    {
      key: "shown_at",
      type: "datetime",
      unit: "UTC, YYYY-MM-DD HH:MM:SS.mmm",
      description:
        "When the question itself was first displayed: in a timed study the server's stamp (after the instructions screen); in an untimed study (no stamp round trip) the answer's storing time minus rt_browser_ms, never before the question was first served; first served when the browser reported neither. In a timed study the question's images and 3D view are served only from this stamp on, so the time limit and rt_server_ms include the time they take to load.",
      get: (r) => r.shownAt,
    },
    {
      key: "submitted_at",
      type: "datetime",
      unit: "UTC, YYYY-MM-DD HH:MM:SS.mmm",
      description: "When the answer was stored (server time).",
      get: (r) => r.submittedAt,
    },
    {
      key: "device",
      type: "json",
      description:
        "Device information the participant's browser reported at entry (screen size, user agent…), as JSON.",
      get: (r) => (r.deviceInfo === undefined ? null : (r.deviceInfo as object | string | number | boolean | null)),
    },
    {
      key: "late",
      type: "boolean",
      values: ["0", "1"],
      description: `1 when an answer (not a time-out) of a timed study reached the server more than ${LATE_ANSWER_GRACE_MS / 1000} s after the question's time limit ran out (server clock, from shown_at). It is kept (raw and canonical answer) but scored like a time-out: exact and partial are 0, so it counts as wrong in the results; re-score from canonical_answer to count it.`,
      get: (r) => r.late,
    },
    ...responseSignalColumns<ResponseExportRow>(),
  ],
});
