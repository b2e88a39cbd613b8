import { computePaperAverage, RESULT_COLUMN_KEYS, type ResultColumnKey } from "./task-columns";

/**
 * Published results of Li et al., "From Macro to Micro: Benchmarking Microscopic Spatial
 * Intelligence on Molecules via Vision-Language Models", arXiv 2512.10867 v2 (Dec 2025),
 * Table 1 (partial credit) and Table 2 (exact match), as restated in the spec §5.
 * Percentages as printed. These rows are "as reported": computed by the authors on their own items,
 * not item-matched to this app's study, so they are context, never an input to a paired test.
 */
export const PAPER_SOURCE = "Li et al., arXiv 2512.10867 v2 (2025), Tables 1–2";

export type PaperMetric = "partial" | "exact";

export interface PaperRow {
  /** Model name as printed, or "Human". */
  model: string;
  kind: "human" | "model";
  metric: PaperMetric;
  /** MiSI-Bench(tiny), 50 items per task, except the fine-tuned model's full-test-set rows. */
  itemSet: "tiny" | "full_test";
  provenance: "as reported";
  /** Avg column as printed (may disagree with its cells; see note). */
  avgPrinted: number;
  /** Every cell in percent, as printed. */
  cells: Readonly<Record<ResultColumnKey, number>>;
  /** Known problem with this row: typo, suspicious cell or a printed Avg its cells do not give. */
  note?: string;
}

/** Notes that apply to the whole table. */
export const PAPER_TABLE_NOTES: readonly string[] = [
  "As reported by the paper on its own MiSI-Bench(tiny) items; not item-matched to this study.",
  "Avg is the mean of Trans, Rot, Zoom, ResLig+, ResLig−, Dock, InterLoc and PocLig (TransRot and RotRot excluded).",
  "In Table 2 (exact), PocLig counts only complexes with bonds.",
  "Some model cells imply fewer than 50 scored items (e.g. 2.08 = 1/48, 14.89 = 7/47): unparseable answers were probably dropped, so n per cell is unknown.",
];

type Cells = readonly [
  trans: number,
  rot: number,
  zoom: number,
  resLigPos: number,
  resLigNeg: number,
  transRot: number,
  rotRot: number,
  dock: number,
  interLoc: number,
  pocLig: number,
];

function defineRow(
  model: string,
  metric: PaperMetric,
  avgPrinted: number,
  cells: Cells,
  extra: { note?: string; itemSet?: "tiny" | "full_test" } = {},
): PaperRow {
  const record = Object.fromEntries(RESULT_COLUMN_KEYS.map((k, i) => [k, cells[i]])) as Record<ResultColumnKey, number>;
  return {
    model,
    kind: model === "Human" ? "human" : "model",
    metric,
    itemSet: extra.itemSet ?? "tiny",
    provenance: "as reported",
    avgPrinted,
    cells: record,
    ...(extra.note === undefined ? {} : { note: extra.note }),
  };
}

const FULL_TEST = { itemSet: "full_test" } as const;

// Column order: Trans, Rot, Zoom, ResLig+, ResLig−, TransRot, RotRot, Dock, InterLoc, PocLig.
export const PAPER_ROWS: readonly PaperRow[] = [
  defineRow("Human", "partial", 81.18, [100, 70.18, 30, 100, 100, 32, 26, 74.54, 92, 82.78], {
    note: "Cells average 81.1875; printed 81.18 (rounding of unrounded cells).",
  }),
  defineRow("Human", "exact", 76.25, [100, 58, 30, 100, 100, 32, 26, 60, 92, 70]),
  defineRow("Claude Sonnet 4.5", "partial", 34.37, [45.71, 44.18, 6, 22.33, 84, 28, 26, 34.12, 38, 0.6]),
  defineRow("o3", "partial", 33.65, [52.29, 43.82, 2, 18.67, 94, 22, 22.44, 20.69, 36, 1.71]),
  defineRow("Claude Opus 4", "partial", 33.13, [57.43, 24.73, 6, 33.67, 74, 12, 26, 34.39, 34, 0.77]),
  defineRow("Claude 3.5 Sonnet", "partial", 31.23, [47.14, 37.11, 10, 27.5, 70, 18, 32, 27.52, 28, 2.55]),
  defineRow("Gemini 2.5 Pro", "partial", 29.94, [50.15, 38.88, 0, 28.67, 52, 30.61, 21.62, 30.38, 38, 1.44]),
  defineRow("GPT-4.1", "partial", 29.2, [29.71, 37.45, 2, 7.33, 80, 33.33, 29.26, 32.9, 36, 0.2], {
    note: "Typo in the paper: printed Avg 29.20, but its cells average 28.20.",
  }),
  defineRow("o4-mini", "partial", 28.55, [39.71, 36.36, 2.08, 12.67, 76, 40, 20, 31.51, 30, 0]),
  defineRow("GPT-5-mini", "partial", 27.71, [47.71, 30.55, 4, 29.33, 34, 28, 22.44, 27.24, 47.82, 1.01]),
  defineRow("Qwen3-VL-235B-A22B-thinking", "partial", 23.34, [46.36, 25.21, 6, 17.03, 25, 20.4, 22, 29.32, 38, 0], {
    note: "Printed Avg 23.34, but its cells average 23.365 (23.37): a small gap, not among the spec's listed typos.",
  }),
  defineRow("Gemini 2.5 Flash-Lite", "partial", 16, [36.29, 22.55, 4, 6.67, 0, 30, 25, 32.25, 26, 0.25]),
  defineRow(
    "Qwen2.5-VL-7B SFT",
    "partial",
    62.96,
    [99.84, 99.71, 27.14, 63.46, 89.52, 88.44, 89.59, 24.94, 88.37, 10.72],
    FULL_TEST,
  ),
  defineRow("Claude Sonnet 4.5", "exact", 20.75, [8, 14, 6, 14, 84, 28, 26, 2, 38, 0]),
  defineRow("o3", "exact", 33.65, [22, 20, 2, 12, 94, 22, 22.44, 0, 36, 0], {
    note: "Typo in the paper: printed Avg 33.65 (the partial-credit value repeated); its cells average 23.25.",
  }),
  defineRow("GPT-5-mini", "exact", 16.23, [10, 10, 4, 22, 34, 28, 22.44, 2.04, 47.82, 0]),
  defineRow("o4-mini", "exact", 13.01, [6, 12, 2.08, 8, 76, 40, 20, 0, 30, 0], {
    note: "Printed Avg 13.01, but its cells average 16.76: a cell or the Avg is wrong in the paper; not among the spec's listed typos.",
  }),
  defineRow("Gemini 2.5 Pro", "exact", 17.54, [14.89, 23.4, 0, 12, 52, 30.61, 21.62, 0, 38, 0]),
  defineRow("Gemini 2.5 Flash-Lite", "exact", 9.04, [36.29, 2, 4, 4, 0, 30, 25, 0, 26, 0], {
    note: "Suspicious: exact Trans 36.29 repeats the partial-credit value (and is not a multiple of 1/50).",
  }),
  defineRow("Claude Opus 4", "exact", 19.54, [14.29, 6, 6, 22, 74, 12, 26, 0, 34, 0]),
  defineRow("Qwen3-VL-235B-A22B-thinking", "exact", 11.8, [14.29, 4.55, 6, 6.52, 25, 20.4, 22, 0, 38, 0]),
  defineRow("GPT-4.1", "exact", 17.5, [4, 16, 2, 2, 80, 33.33, 29.26, 0, 36, 0]),
  defineRow("Claude 3.5 Sonnet", "exact", 18.02, [10, 8.16, 10, 18, 70, 18, 32, 0, 28, 0]),
  defineRow(
    "Qwen2.5-VL-7B SFT",
    "exact",
    57.56,
    [98.88, 97.48, 27.14, 57.52, 89.52, 88.44, 89.59, 0.75, 88.37, 0.78],
    FULL_TEST,
  ),
];

/** The paper's Avg recomputed from a row's own cells (spec §5 convention). */
export function recomputePaperRowAverage(row: PaperRow): number {
  return computePaperAverage(row.cells).value as number;
}
