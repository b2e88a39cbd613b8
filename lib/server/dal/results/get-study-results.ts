import "server-only";
import type { HumanResultsSummary } from "@/lib/results/summarize";
import type { HeavyCaller } from "@/lib/server/heavy/pool";
import { DEFAULT_BOOTSTRAP_REPLICATES } from "@/lib/stats/bootstrap";
import type { SkippedResponse } from "./list-response-records";
import { listExcludedParticipantIds } from "./get-integrity";
import { loadScopeRecords, summarizeScopeRecordsCached, type ScopeRecords } from "./results-cache";
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

/**
 * Summarises already loaded records (shared by getStudyResults, the results page and the exports), leaving out the
 * participants the viewed study's exclusion policy excludes; cached per revision of the scope.
 */
export async function summarizeScopeRecords(
  scope: ResultsScopeDto,
  loaded: ScopeRecords,
  options: Pick<StudyResultsOptions, "seed" | "replicates"> = {},
  caller: HeavyCaller = {},
): Promise<StudyResultsDto> {
  const seed = options.seed ?? defaultResultsSeed(scope.study.id, scope.scope);
  const replicates = options.replicates ?? DEFAULT_BOOTSTRAP_REPLICATES;
  const { records, skipped } = loaded;
  const base = { scope, seed, replicates, nResponses: records.length, skipped };
  if (records.length === 0) return { ...base, summary: null, problems: [] };
  // The study's exclusion policy applies to every estimate (the unexcluded overall figures come beside them).
  const excludedParticipantIds = await listExcludedParticipantIds(scope, loaded);

  const summary = await summarizeScopeRecordsCached(loaded, { seed, replicates, excludedParticipantIds }, caller);
  if (!summary.ok) {
    return {
      ...base,
      summary: null,
      problems: summary.issues.map((i) => `record ${i.index}, ${i.field}: ${i.reason}`),
    };
  }
  return { ...base, summary: summary.value, problems: [] };
}

/**
 * Per-task human results of a study (or all studies on its pool version), computed by
 * lib/results' summarizeHumanResults from the main-phase responses: the numbers the results page shows.
 */
export async function getStudyResults(options: StudyResultsOptions): Promise<StudyResultsDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  return summarizeScopeRecords(scope, await loadScopeRecords(scope.studyIds), options);
}
