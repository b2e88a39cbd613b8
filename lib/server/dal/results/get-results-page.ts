import "server-only";
import type { ExclusionResults } from "@/lib/results/exclusions";
import { summarizePilot, type PilotColumnStats } from "@/lib/results/sample-size-plan";
import { StudyConfigSchema } from "@/lib/study-config";
import { db } from "@/lib/server/db";
import { heavyBudgets } from "@/lib/server/heavy/budgets";
import { insideHeavyWorker } from "@/lib/server/heavy/in-worker";
import { runHeavyJob, type HeavyCaller } from "@/lib/server/heavy/pool";
import { analyzeScopeRecords, type ItemAnalysisDto } from "./get-item-analysis";
import { getIntegrityResults } from "./get-integrity";
import { summarizeScopeRecords, type StudyResultsDto } from "./get-study-results";
import { getThreeDUsage, type ThreeDUsageDto } from "./get-three-d-usage";
import { compareScopeWithModels, type ModelComparisonDto } from "./compare-with-models";
import { loadScopeRecords, PromiseCache, studyRevision } from "./results-cache";
import { resolveResultsScope, type ResultsScope } from "./resolve-results-scope";

export interface ResultsPageOptions {
  studyId: string;
  scope?: ResultsScope;
  seed?: string;
  /** Human condition for the model comparison (null: all). */
  condition?: string | null;
  minResponses?: number;
}

export interface ResultsPageDto {
  human: StudyResultsDto;
  items: ItemAnalysisDto;
  models: ModelComparisonDto;
  /** Inputs of the sample-size planner: the study's design and its answers as a pilot. */
  planning: { tasks: string[]; itemsPerTask: number; answersPerItem: number; pilot: PilotColumnStats[] };
}

/** Everything the results page shows that is computed from the responses. */
export interface ResultsDataDto {
  page: ResultsPageDto;
  integrity: ExclusionResults;
  threeD: ThreeDUsageDto;
}

/** Page data of this many scopes × options are kept (a 200,000-response page is a few MB). */
const PAGES_KEPT = 8;
const pages = new PromiseCache<ResultsDataDto>(PAGES_KEPT);

/**
 * Computes the results page's data in this process, from one read of the responses: records, summaries with bootstrap
 * intervals, item analysis, model comparison, integrity signals and exclusions, 3D-view usage. In a heavy-work worker
 * for large studies (getResultsData); here for small ones.
 */
export async function computeResultsData(
  options: ResultsPageOptions,
  caller: HeavyCaller = {},
): Promise<ResultsDataDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const loaded = await loadScopeRecords(scope.studyIds);
  const { records } = loaded;
  const human = await summarizeScopeRecords(
    scope,
    loaded,
    options.seed === undefined ? {} : { seed: options.seed },
    caller,
  );
  const [items, models, study, integrity, threeD] = await Promise.all([
    analyzeScopeRecords(records, options.minResponses),
    compareScopeWithModels({ scope, records, condition: options.condition ?? null }),
    db.study.findUnique({ where: { id: options.studyId }, select: { config: true } }),
    getIntegrityResults({ studyId: options.studyId, scope: scope.scope }),
    getThreeDUsage(scope.studyIds),
  ]);
  const config = StudyConfigSchema.safeParse(study?.config ?? {});
  const design = config.success ? config.data : StudyConfigSchema.parse({});
  const planning = {
    tasks: [...design.tasks],
    itemsPerTask: design.itemsPerTask,
    answersPerItem: design.answersPerItem,
    pilot: human.problems.length === 0 ? summarizePilot(records) : [],
  };
  return { page: { human, items, models, planning }, integrity, threeD };
}

/**
 * The results page's data, computed once per scope revision (studyRevision) and options. From
 * HEAVY_RESULTS_MIN_RECORDS responses on it is computed in the heavy-work pool, whose worker reads the database
 * itself: the server's thread only resolves the scope, reads the revision (one aggregate) and receives the result.
 * The work is the caller's (its share of the pool) and is dropped when every request waiting for it has gone.
 */
export async function getResultsData(options: ResultsPageOptions & HeavyCaller): Promise<ResultsDataDto> {
  const { owner, signal, ...input } = options;
  const scope = await resolveResultsScope(input.studyId, input.scope ?? "study");
  const revision = await studyRevision(scope.studyIds);
  const key = JSON.stringify([
    revision.key,
    input.studyId,
    scope.scope,
    input.seed ?? null,
    input.condition ?? null,
    input.minResponses ?? null,
  ]);
  const offThread = revision.nResponses >= heavyBudgets.HEAVY_RESULTS_MIN_RECORDS && !insideHeavyWorker();
  return pages.get(
    key,
    (jobSignal) =>
      offThread
        ? runHeavyJob(
            "resultsData",
            { ...input, scope: scope.scope },
            { ...(owner ? { owner } : {}), signal: jobSignal },
          )
        : computeResultsData(input, { ...(owner ? { owner } : {}), signal: jobSignal }),
    signal,
  );
}

/** Everything the results page shows, from one read of the responses. */
export async function getResultsPage(options: ResultsPageOptions & HeavyCaller): Promise<ResultsPageDto> {
  return (await getResultsData(options)).page;
}

/** Forgets the cached page data (tests). */
export function clearResultsPageCache(): void {
  pages.clear();
}
