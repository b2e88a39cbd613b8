// The heavy jobs themselves, run inside a worker process of the heavy-work pool (heavy-child.ts → pool.ts). None holds
// request state or writes anything, so a job killed half-way leaves nothing behind. The results jobs read the database
// themselves (their own connection pool in the worker): reading 200,000 records there costs the server nothing, where
// handing them over would cost it a structured clone of tens of MB.
import { rasterizeForeignSvg, type RasterizeResult } from "@/lib/import/foreign-svg";
import { parsePredictionFile, type PredictionFile } from "@/lib/model-import/parse-prediction-file";
import type { PredictionFileResult } from "@/lib/model-import/types";
import { summarizeHumanResults, type SummarizeOptions } from "@/lib/results/summarize";
import {
  computeResultsData,
  type ResultsDataDto,
  type ResultsPageOptions,
} from "@/lib/server/dal/results/get-results-page";
import { collectStudyExport, type CollectedExport, type HeavyExportOptions } from "@/lib/server/export/heavy-export";

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
  /** The results page's data (records, summaries, item analysis, models, integrity, 3D usage), read from the database. */
  resultsData: { input: ResultsPageOptions; output: ResultsDataDto };
  /** A computed export (summaries, item summary, paper tables, analysis package), read from the database, as bytes. */
  studyExport: { input: HeavyExportOptions; output: CollectedExport };
}

export type HeavyJobKind = keyof HeavyJobs;

export const HEAVY_JOBS: {
  [K in HeavyJobKind]: (input: HeavyJobs[K]["input"]) => HeavyJobs[K]["output"] | Promise<HeavyJobs[K]["output"]>;
} = {
  svg: ({ bytes }) => rasterizeForeignSvg(bytes),
  predictionFile: (input) => parsePredictionFile(input),
  resultsSummary: ({ records, options }) => summarizeHumanResults(records, options),
  resultsData: (input) => computeResultsData(input),
  studyExport: (input) => collectStudyExport(input),
};
