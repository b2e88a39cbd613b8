import "server-only";
import { compareHumansWithModels, type Comparison } from "@/lib/results/compare";
import type { ModelResponseRecord, ResponseRecord } from "@/lib/results/response-records";
import { RESULT_TASK_IDS, toResultColumnKey, type ResultTaskId } from "@/lib/results/task-columns";
import { db } from "@/lib/server/db";
import { classifyResidueLigandItems } from "./classify-items";
import { loadFairScoreFields, loadFairScoreGolds } from "./list-response-records";
import { loadScopeRecords } from "./results-cache";
import { fairFieldsOf } from "@/lib/tasks/fair-score";
import type { TaskId } from "@/lib/tasks/types";
import { resolveResultsScope, type ResultsScope, type ResultsScopeDto } from "./resolve-results-scope";

export interface ComparedRunDto {
  id: string;
  name: string;
  model: string;
  source: string;
  importedAt: Date;
  /** Predictions on this pool version's items. */
  nPredictions: number;
  nUnparseable: number;
}

export interface ModelComparisonDto {
  runs: ComparedRunDto[];
  /** Human responses were restricted to this condition (null: all conditions). */
  condition: string | null;
  comparison: Comparison | null;
  /** result column → run id → matched items whose prediction was unparseable (counted as wrong). */
  unparseable: Record<string, Record<string, number>>;
  problems: string[];
}

const RESULT_TASKS: ReadonlySet<string> = new Set(RESULT_TASK_IDS);

/**
 * Item-matched comparison of the scope's human responses with every imported model run that
 * answered items of the same pool version (or the runs asked for). Models are keyed by run id.
 */
export async function compareScopeWithModels(options: {
  scope: ResultsScopeDto;
  records: readonly ResponseRecord[];
  runIds?: readonly string[];
  condition?: string | null;
}): Promise<ModelComparisonDto> {
  const poolVersionId = options.scope.poolVersion.id;
  const condition = options.condition ?? null;
  const predictionWhere = {
    item: { poolItems: { some: { poolVersionId } } },
    modelRun: { asReported: false },
    ...(options.runIds ? { modelRunId: { in: [...options.runIds] } } : {}),
  };
  const [counts, unparseableCounts] = await Promise.all([
    db.modelPrediction.groupBy({ by: ["modelRunId"], where: predictionWhere, _count: { _all: true } }),
    db.modelPrediction.groupBy({
      by: ["modelRunId"],
      where: { ...predictionWhere, parseError: { not: null } },
      _count: { _all: true },
    }),
  ]);
  const runRows = await db.modelRun.findMany({
    where: { id: { in: counts.map((c) => c.modelRunId) } },
    select: { id: true, name: true, model: true, source: true, importedAt: true },
    orderBy: { importedAt: "asc" },
  });
  const countOf = (list: typeof counts, id: string) => list.find((c) => c.modelRunId === id)?._count._all ?? 0;
  const runs: ComparedRunDto[] = runRows.map((r) => ({
    ...r,
    nPredictions: countOf(counts, r.id),
    nUnparseable: countOf(unparseableCounts, r.id),
  }));
  const empty = { runs, condition, comparison: null, unparseable: {}, problems: [] };
  if (runs.length === 0 || options.records.length === 0) return empty;

  const predictions = await db.modelPrediction.findMany({
    where: { ...predictionWhere, modelRunId: { in: runs.map((r) => r.id) } },
    select: {
      modelRunId: true,
      itemId: true,
      taskId: true,
      exact: true,
      partial: true,
      canonical: true,
      parseError: true,
    },
  });
  const t4 = await classifyResidueLigandItems(
    predictions.filter((p) => p.taskId === "residue_ligand").map((p) => p.itemId),
  );
  const golds = await loadFairScoreGolds(predictions);
  const itemFields = await loadFairScoreFields(predictions);
  const problems: string[] = [];
  const modelRecords: ModelResponseRecord[] = [];
  const humanItems = new Set(
    options.records.filter((r) => condition === null || r.condition === condition).map((r) => r.itemId),
  );
  const unparseable: Record<string, Record<string, number>> = {};
  for (const p of predictions) {
    if (!RESULT_TASKS.has(p.taskId)) {
      problems.push(`run ${p.modelRunId}, item ${p.itemId}: unknown task '${p.taskId}'`);
      continue;
    }
    const record: ModelResponseRecord = {
      modelId: p.modelRunId,
      itemId: p.itemId,
      taskId: p.taskId as ResultTaskId,
      exact: p.exact === 1 ? 1 : 0,
      partial: p.partial,
    };
    if (p.taskId === "residue_ligand") {
      const polarity = t4.polarity.get(p.itemId);
      if (!polarity) {
        problems.push(
          `item ${p.itemId}: cannot tell Pos./Neg. (${t4.unreadable.get(p.itemId) ?? "no gold"}); its model answers are left out`,
        );
        continue;
      }
      record.t4Polarity = polarity;
    }
    if (p.canonical !== null && p.canonical !== "") record.answer = p.canonical;
    // Fair score (lib/tasks/fair-score.ts) of the model's answer, as for human responses; an unparseable prediction scores 0.
    if (golds.has(p.itemId)) {
      const fair = fairFieldsOf(
        p.taskId as TaskId,
        p.canonical ?? "",
        golds.get(p.itemId),
        record,
        itemFields.get(p.itemId),
      );
      if (!fair.ok) {
        problems.push(`run ${p.modelRunId}, item ${p.itemId}: ${fair.error}; its fair score is the paper's`);
      } else if (fair.fields) Object.assign(record, fair.fields);
    }
    modelRecords.push(record);
    if (p.parseError !== null && humanItems.has(p.itemId)) {
      const column = toResultColumnKey(record.taskId, record.t4Polarity) ?? p.taskId;
      const cell = (unparseable[column] ??= {});
      cell[p.modelRunId] = (cell[p.modelRunId] ?? 0) + 1;
    }
  }
  const compared = compareHumansWithModels(options.records, modelRecords, condition === null ? {} : { condition });
  if (!compared.ok) {
    return {
      ...empty,
      problems: [...problems, ...compared.issues.map((i) => `${i.source} record ${i.index}, ${i.field}: ${i.reason}`)],
    };
  }
  return { runs, condition, comparison: compared.value, unparseable, problems };
}

/** The model comparison for a study (or its pool version's studies). */
export async function getModelComparison(options: {
  studyId: string;
  scope?: ResultsScope;
  runIds?: string[];
  condition?: string | null;
}): Promise<ModelComparisonDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const { records } = await loadScopeRecords(scope.studyIds);
  return compareScopeWithModels({
    scope,
    records,
    ...(options.runIds ? { runIds: options.runIds } : {}),
    condition: options.condition ?? null,
  });
}
