import "server-only";
import { analyzeScopeRecords, type ItemAnalysisDto } from "./get-item-analysis";
import { summarizeScopeRecords, type StudyResultsDto } from "./get-study-results";
import { compareScopeWithModels, type ModelComparisonDto } from "./compare-with-models";
import { listResponseRecords } from "./list-response-records";
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
}

/** Everything the results page shows, from one read of the responses. */
export async function getResultsPage(options: ResultsPageOptions): Promise<ResultsPageDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const { records, skipped } = await listResponseRecords(scope.studyIds);
  const human = summarizeScopeRecords(scope, records, skipped, options.seed === undefined ? {} : { seed: options.seed });
  const [items, models] = await Promise.all([
    analyzeScopeRecords(records, options.minResponses),
    compareScopeWithModels({ scope, records, condition: options.condition ?? null }),
  ]);
  return { human, items, models };
}
