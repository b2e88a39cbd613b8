/** Prediction-file formats the importer reads. */
export const PREDICTION_FORMATS = [
  "vlmevalkit-tsv",
  "vlmevalkit-xlsx",
  "vlmevalkit-csv",
  "lmms-eval-jsonl",
  "plain-csv",
] as const;
export type PredictionFormat = (typeof PREDICTION_FORMATS)[number];

/** One model answer read from a file, before it is matched to an item. */
export interface PredictionRow {
  /** Where it came from: 1-based line (text files) or sheet row (xlsx); the header is line 1. */
  line: number;
  /** The item identifier as written in the file (VLMEvalKit index, lmms-eval doc id field, item_id). */
  key: string;
  /** Which field the key came from, e.g. "index", "doc.item_id", "doc_id". */
  keyField: string;
  /** The model's raw output text ("" when the file has none for this row). */
  prediction: string;
  /** The file's own correct answer (VLMEvalKit `answer`, lmms-eval `target`), used only as a cross-check. */
  reference?: string;
  /** VLMEvalKit `category`, when present. */
  category?: string;
}

/** A located problem: which file, which line, which field, and why. */
export interface FileIssue {
  file: string;
  /** 1-based line or sheet row; null for whole-file problems. */
  line: number | null;
  field: string | null;
  problem: string;
}

export type PredictionFileResult =
  | { ok: true; format: PredictionFormat; rows: PredictionRow[]; skipped: FileIssue[]; warnings: FileIssue[] }
  | { ok: false; format: PredictionFormat | null; errors: FileIssue[] };

/** Above this many located problems a report lists the first ones and a count. */
export const MAX_REPORTED_FILE_ISSUES = 100;

export function capIssues(issues: readonly FileIssue[], limit = MAX_REPORTED_FILE_ISSUES): FileIssue[] {
  if (issues.length <= limit) return [...issues];
  const first = issues[0] as FileIssue;
  return [
    ...issues.slice(0, limit),
    { file: first.file, line: null, field: null, problem: `${issues.length - limit} more problems not shown` },
  ];
}
