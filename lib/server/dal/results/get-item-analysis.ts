import "server-only";
import {
  analyzeItems,
  computeMultipleChoiceAgreement,
  listMostMissed,
  type ItemStats,
  type MultipleChoiceAgreement,
} from "@/lib/results/item-analysis";
import type { ResponseRecord } from "@/lib/results/response-records";
import { db } from "@/lib/server/db";
import { computeAnswerAgreement, type AnswerAgreement } from "./answer-agreement";
import { loadScopeRecords } from "./results-cache";
import { resolveResultsScope, type ResultsScope } from "./resolve-results-scope";

/** Fewer responses than this are not evidence that an item is hard (or its gold wrong). */
export const DEFAULT_MOST_MISSED_MIN_RESPONSES = 3;
export const MOST_MISSED_LIMIT = 25;
/** "Most humans miss": exact accuracy below one half. */
export const MOST_MISSED_MAX_ACCURACY = 0.5;

export interface ItemRowDto extends ItemStats {
  externalId: string | null;
  status: string;
  statusReason: string | null;
  /** Canonical gold (researcher/admin pages only). */
  goldAnswer: string | null;
}

export interface ItemAnalysisDto {
  items: ItemRowDto[];
  /** Items most humans miss (accuracy below MOST_MISSED_MAX_ACCURACY), lowest first, among items with at least minResponses answers. */
  mostMissed: ItemRowDto[];
  minResponses: number;
  /** Accuracy below which an item counts as "most humans miss". */
  maxAccuracy: number;
  multipleChoiceAgreement: MultipleChoiceAgreement[];
  answerAgreement: AnswerAgreement[];
  problems: string[];
}

/** Item analysis of already loaded records: per-item accuracy and answers, most-missed list, agreement. */
export async function analyzeScopeRecords(
  records: readonly ResponseRecord[],
  minResponses = DEFAULT_MOST_MISSED_MIN_RESPONSES,
): Promise<ItemAnalysisDto> {
  const empty: ItemAnalysisDto = {
    items: [],
    mostMissed: [],
    minResponses,
    maxAccuracy: MOST_MISSED_MAX_ACCURACY,
    multipleChoiceAgreement: [],
    answerAgreement: [],
    problems: [],
  };
  if (records.length === 0) return empty;
  const stats = analyzeItems(records);
  const mc = computeMultipleChoiceAgreement(records);
  if (!stats.ok || !mc.ok) {
    const issues = !stats.ok ? stats.issues : !mc.ok ? mc.issues : [];
    return { ...empty, problems: issues.map((i) => `record ${i.index}, ${i.field}: ${i.reason}`) };
  }
  const ids = stats.value.map((s) => s.itemId);
  const meta = await db.item.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      externalId: true,
      status: true,
      statusReason: true,
      answerKey: { select: { canonical: true } },
    },
  });
  const metaById = new Map(meta.map((m) => [m.id, m]));
  const items: ItemRowDto[] = stats.value.map((s) => {
    const m = metaById.get(s.itemId);
    return {
      ...s,
      externalId: m?.externalId ?? null,
      status: m?.status ?? "unknown",
      statusReason: m?.statusReason ?? null,
      goldAnswer: m?.answerKey?.canonical ?? null,
    };
  });
  const byId = new Map(items.map((i) => [i.itemId, i]));
  const mostMissed = listMostMissed(stats.value, { minResponses })
    .filter((s) => s.exactAccuracy < MOST_MISSED_MAX_ACCURACY)
    .slice(0, MOST_MISSED_LIMIT)
    .map((s) => byId.get(s.itemId) as ItemRowDto);
  return {
    items,
    mostMissed,
    minResponses,
    maxAccuracy: MOST_MISSED_MAX_ACCURACY,
    multipleChoiceAgreement: mc.value,
    answerAgreement: computeAnswerAgreement(records),
    problems: [],
  };
}

/** Item analysis for a study (or its pool version's studies). */
export async function getItemAnalysis(options: {
  studyId: string;
  scope?: ResultsScope;
  minResponses?: number;
}): Promise<ItemAnalysisDto> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const { records } = await loadScopeRecords(scope.studyIds);
  return analyzeScopeRecords(records, options.minResponses);
}
