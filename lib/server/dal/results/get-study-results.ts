import "server-only";
import type { ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults, type HumanResultsSummary } from "@/lib/results/summarize";
import { DEFAULT_BOOTSTRAP_REPLICATES } from "@/lib/stats/bootstrap";
import { listResponseRecords, type SkippedResponse } from "./list-response-records";
import { resolveResultsScope, type ResultsScope, type ResultsScopeDto } from "./resolve-results-scope";

export interface StudyResultsOptions {
  studyId: string;
  scope?: ResultsScope;
  /** Bootstrap seed; default derived from the study id so the page always shows the same intervals. */
  seed?: string;
  replicates?: number;
}

export interface StudyResultsDto {
  scope: ResultsScopeDto;
  seed: string;
  replicates: number;
  nResponses: number;
  /** Null when there are no main-phase responses yet, or when the records failed validation (see problems). */
  summary: HumanResultsSummary | null;
  /** Validation problems of the records (should not happen with data written by the app). */
  problems: string[];
  skipped: SkippedResponse[];
}

/** The recorded default seed: one per study and scope, so numbers are reproducible from the page alone. */
export function defaultResultsSeed(studyId: string, scope: ResultsScope): string {
  return `results:${scope}:${studyId}`;
}

/** Summarises already loaded records (shared by getStudyResults and the results page). */
export function summarizeScopeRecords(
  scope: ResultsScopeDto,
  records: readonly ResponseRecord[],
  skipped: SkippedResponse[],
  options: Pick<StudyResultsOptions, "seed" | "replicates"> = {},
): StudyResultsDto {
  const seed = options.seed ?? defaultResultsSeed(scope.study.id, scope.scope);
  const replicates = options.replicates ?? DEFAULT_BOOTSTRAP_REPLICATES;
  const base = { scope, seed, replicates, nResponses: records.length, skipped };
  if (records.length === 0) return { ...base, summary: null, problems: [] };
  const summary = summarizeHumanResults(records, { seed, replicates });
  if (!summary.ok) {
    return { ...base, summary: null, problems: summary.issues.map((i) => `record ${i.index}, ${i.field}: ${i.reason}`) };
  }
  return { ...base, summary: summary.value, problems: [] };
}

/**
 * Per-task human results of a study (or all studies on its pool version), computed by
 * lib/results' summarizeHumanResults from the main-phase responses: the numbers the results page shows.
 */
export async function getStudyResults(options: StudyResultsOptions): Promise<StudyResultsDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const { records, skipped } = await listResponseRecords(scope.studyIds);
  return summarizeScopeRecords(scope, records, skipped, options);
}
