// The heavy jobs themselves, run inside a worker process of the heavy-work pool (heavy-child.ts → pool.ts). Each is a
// pure function of its input: no database, no request state, so a job killed half-way leaves nothing behind.
import { rasterizeForeignSvg, type RasterizeResult } from "@/lib/import/foreign-svg";
import { parsePredictionFile, type PredictionFile } from "@/lib/model-import/parse-prediction-file";
import type { PredictionFileResult } from "@/lib/model-import/types";
import { summarizeHumanResults, type SummarizeOptions } from "@/lib/results/summarize";

export interface HeavyJobs {
  /** XML check, then resvg: foreign SVG bytes to PNG, or why not. */
  svg: { input: { bytes: Uint8Array }; output: RasterizeResult };
  /** A model's prediction file (xlsx through exceljs, tsv, csv, jsonl) read into rows. */
  predictionFile: { input: PredictionFile; output: PredictionFileResult };
  /** The human summary with bootstrap intervals (lib/results/summarize.ts). */
  resultsSummary: {
    input: { records: unknown; options: SummarizeOptions };
    output: ReturnType<typeof summarizeHumanResults>;
  };
}

export type HeavyJobKind = keyof HeavyJobs;

export const HEAVY_JOBS: {
  [K in HeavyJobKind]: (input: HeavyJobs[K]["input"]) => HeavyJobs[K]["output"] | Promise<HeavyJobs[K]["output"]>;
} = {
  svg: ({ bytes }) => rasterizeForeignSvg(bytes),
  predictionFile: (input) => parsePredictionFile(input),
  resultsSummary: ({ records, options }) => summarizeHumanResults(records, options),
};
