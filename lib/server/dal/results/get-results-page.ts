import "server-only";
import { summarizePilot, type PilotColumnStats } from "@/lib/results/sample-size-plan";
import { StudyConfigSchema } from "@/lib/study-config";
import { db } from "@/lib/server/db";
import { analyzeScopeRecords, type ItemAnalysisDto } from "./get-item-analysis";
import { summarizeScopeRecords, type StudyResultsDto } from "./get-study-results";
import { compareScopeWithModels, type ModelComparisonDto } from "./compare-with-models";
import { loadScopeRecords } from "./results-cache";
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

/** Everything the results page shows, from one read of the responses. */
export async function getResultsPage(options: ResultsPageOptions): Promise<ResultsPageDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const loaded = await loadScopeRecords(scope.studyIds);
  const { records } = loaded;
  const human = await summarizeScopeRecords(scope, loaded, options.seed === undefined ? {} : { seed: options.seed });
  const [items, models, study] = await Promise.all([
    analyzeScopeRecords(records, options.minResponses),
    compareScopeWithModels({ scope, records, condition: options.condition ?? null }),
    db.study.findUnique({ where: { id: options.studyId }, select: { config: true } }),
  ]);
  const config = StudyConfigSchema.safeParse(study?.config ?? {});
  const design = config.success ? config.data : StudyConfigSchema.parse({});
  const planning = {
    tasks: [...design.tasks],
    itemsPerTask: design.itemsPerTask,
    answersPerItem: design.answersPerItem,
    pilot: human.problems.length === 0 ? summarizePilot(records) : [],
  };
  return { human, items, models, planning };
}
