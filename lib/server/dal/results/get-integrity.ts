import "server-only";
import {
  AnswerSignalsSchema,
  summarizeParticipantSignals,
  type ExclusionPolicy,
  type SignalledAnswer,
} from "@/lib/participant/integrity";
import { applyExclusionPolicy, excludedParticipantIds, type ExclusionResults } from "@/lib/results/exclusions";
import { StudyConfigSchema } from "@/lib/study-config";
import { db } from "@/lib/server/db";
import { Prisma } from "@/prisma/generated/client";
import { loadScopeRecords, signalSummaryCache, type ScopeRecords } from "./results-cache";
import { resolveResultsScope, type ResultsScope, type ResultsScopeDto } from "./resolve-results-scope";

interface SignalRow {
  participantId: string;
  taskId: string;
  canonicalAnswer: string;
  rtClientMs: number | null;
  rtServerMs: number | null;
  signals: unknown;
}

/**
 * The main answers of the given studies (or of the given participants) with their browser signals, per participant in
 * submission order.
 */
export async function listSignalledAnswers(
  of: { studyIds: readonly string[] } | { participantIds: readonly string[] },
): Promise<SignalledAnswer[]> {
  const where =
    "studyIds" in of
      ? Prisma.sql`r."studyId" = ANY(${[...of.studyIds]}::text[])`
      : Prisma.sql`r."participantId" = ANY(${[...of.participantIds]}::text[])`;
  const rows = await db.$queryRaw<SignalRow[]>`
    SELECT r."participantId", r."taskId", r."canonicalAnswer", r."rtClientMs", r."rtServerMs", s.signals
    FROM "Response" r LEFT JOIN "AnswerSignals" s ON s."assignmentId" = r."assignmentId"
    WHERE ${where} AND r.phase = 'main'
    ORDER BY r."participantId", r."submittedAt", r.id`;
  return rows.map((r) => {
    const signals = AnswerSignalsSchema.safeParse(r.signals);
    return {
      participantId: r.participantId,
      taskId: r.taskId,
      canonicalAnswer: r.canonicalAnswer,
      rtClientMs: r.rtClientMs,
      rtServerMs: r.rtServerMs,
      signals: signals.success ? signals.data : null,
    };
  });
}

/** A study's exclusion policy (study config `exclusions`; the default, no rule, when the config does not parse). */
export async function readExclusionPolicy(studyId: string): Promise<ExclusionPolicy> {
  const study = await db.study.findUnique({ where: { id: studyId }, select: { config: true } });
  const config = StudyConfigSchema.safeParse(study?.config ?? {});
  return (config.success ? config.data : StudyConfigSchema.parse({})).exclusions;
}

/** summarizeParticipantSignals of the scope's main answers, read once per revision of the scope. */
function loadScopeSignalSummaries(
  loaded: ScopeRecords,
  studyIds: readonly string[],
): Promise<ReturnType<typeof summarizeParticipantSignals>> {
  return signalSummaryCache.get(loaded.revision, async () =>
    summarizeParticipantSignals(await listSignalledAnswers({ studyIds })),
  );
}

/**
 * The participants every estimate of a results view leaves out: the viewed study's exclusion policy applied to every
 * participant of the scope (as the integrity section does), sorted by id.
 */
export async function listExcludedParticipantIds(scope: ResultsScopeDto, loaded: ScopeRecords): Promise<string[]> {
  const [summaries, policy] = await Promise.all([
    loadScopeSignalSummaries(loaded, scope.studyIds),
    readExclusionPolicy(scope.study.id),
  ]);
  return excludedParticipantIds(policy, summaries);
}

/**
 * The results page's integrity section: the viewed study's exclusion policy applied to every participant of the scope
 * (lib/results/exclusions.ts), with accuracy over the same main-phase records the page's other sections use.
 */
export async function getIntegrityResults(options: {
  studyId: string;
  scope?: ResultsScope;
}): Promise<ExclusionResults> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const loaded = await loadScopeRecords(scope.studyIds);
  const [summaries, policy] = await Promise.all([
    loadScopeSignalSummaries(loaded, scope.studyIds),
    readExclusionPolicy(options.studyId),
  ]);
  return applyExclusionPolicy(policy, summaries, loaded.records);
}
