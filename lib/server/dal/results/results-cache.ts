import "server-only";
import type { ParticipantSignalSummary } from "@/lib/participant/integrity";
import type { HumanResultsSummary, SummarizeOptions } from "@/lib/results/summarize";
import { summarizeHumanResults } from "@/lib/results/summarize";
import type { RecordsOutcome } from "@/lib/results/response-records";
import { db } from "@/lib/server/db";
import { heavyBudgets } from "@/lib/server/heavy/budgets";
import { insideHeavyWorker } from "@/lib/server/heavy/in-worker";
import { runHeavyJob, type HeavyCaller } from "@/lib/server/heavy/pool";
import { listResponseRecords, type ResponseRecordsDto } from "./list-response-records";

/**
 * Results of large studies without re-reading and re-computing on every request: the scope's main-phase records, their
 * summaries and the results page's data are kept in memory, keyed by the scope's revision (studyRevision below), until
 * anything they are computed from changes.
 */

/** Record sets kept (a 200,000-response scope is about 60 MB of records). */
const RECORD_SETS_KEPT = 2;
/** Summaries kept (one per scope × seed × replicates). */
const SUMMARIES_KEPT = 16;

export interface ScopeRecords extends ResponseRecordsDto {
  /** The scope's revision these records were read at (studyRevision). */
  revision: string;
}

/**
 * A small LRU of promises: concurrent requests for one key share one computation; a failure is not kept. A caller may
 * pass its request's signal: the computation's own signal aborts only when every caller that joined it has left (a
 * caller without a signal keeps it alive), so one researcher closing a tab never fails another's page.
 */
export class PromiseCache<T> {
  private readonly entries = new Map<
    string,
    { value: Promise<T>; controller: AbortController; waiting: number; pinned: boolean }
  >();
  constructor(private readonly limit: number) {}

  get(key: string, compute: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      const controller = new AbortController();
      const value = compute(controller.signal);
      entry = { value, controller, waiting: 0, pinned: false };
      this.entries.set(key, entry);
      const created = entry;
      value.catch(() => {
        if (this.entries.get(key) === created) this.entries.delete(key);
      });
      while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    }
    const joined = entry;
    if (!signal) joined.pinned = true;
    else {
      joined.waiting++;
      signal.addEventListener(
        "abort",
        () => {
          joined.waiting--;
          if (joined.waiting === 0 && !joined.pinned) joined.controller.abort();
        },
        { once: true },
      );
    }
    return joined.value;
  }

  clear(): void {
    this.entries.clear();
  }
}

const recordSets = new PromiseCache<ScopeRecords>(RECORD_SETS_KEPT);
const summaries = new PromiseCache<RecordsOutcome<HumanResultsSummary>>(SUMMARIES_KEPT);
/** Per-participant integrity-signal summaries of a scope, keyed by the same revision. */
export const signalSummaryCache = new PromiseCache<ParticipantSignalSummary[]>(RECORD_SETS_KEPT);

/**
 * The revision of a results scope: one string that changes whenever anything a results view is computed from
 * changes, and the one key every results cache uses (records, summaries, signal summaries, the page data, the
 * exports). One round trip of indexed aggregates:
 * - the scope's main-phase responses: count, latest submittedAt and sum of hashtext(id) (a new answer changes the
 *   count; a removed participant changes count and sum; a deletion plus an insertion changes the sum; stored
 *   responses are never updated in place);
 * - their browser signals (written just after the answer): count and latest recordedAt;
 * - the studies' configuration (the exclusion policy, design) and cohort tags: an md5 of them;
 * - the pool version's items: count and latest updatedAt (a flagged item, an edited payload);
 * - the imported model runs (the model comparison): count and latest importedAt.
 * Item golds are frozen with their pool version.
 */
export async function studyRevision(studyIds: readonly string[]): Promise<{ key: string; nResponses: number }> {
  if (studyIds.length === 0) return { key: "none", nResponses: 0 };
  const ids = [...studyIds].sort();
  const [row] = await db.$queryRaw<
    Array<{ n: bigint; responses: string; signals: string; studies: string; items: string; models: string }>
  >`
    SELECT
      (SELECT count(*) FROM "Response" WHERE "studyId" = ANY(${ids}::text[]) AND phase = 'main') AS n,
      (SELECT count(*) || ':' || coalesce(max("submittedAt")::text, '-') || ':' || coalesce(sum(hashtext(id)::bigint), 0)
         FROM "Response" WHERE "studyId" = ANY(${ids}::text[]) AND phase = 'main') AS responses,
      (SELECT count(*) || ':' || coalesce(max("recordedAt")::text, '-')
         FROM "AnswerSignals" WHERE "studyId" = ANY(${ids}::text[])) AS signals,
      (SELECT md5(string_agg(id || ':' || config::text || ':' || coalesce("cohortTag", ''), ',' ORDER BY id))
         FROM "Study" WHERE id = ANY(${ids}::text[])) AS studies,
      (SELECT count(*) || ':' || coalesce(max(i."updatedAt")::text, '-')
         FROM "PoolItem" pi JOIN "Item" i ON i.id = pi."itemId"
         WHERE pi."poolVersionId" IN (SELECT "poolVersionId" FROM "Study" WHERE id = ANY(${ids}::text[]))) AS items,
      (SELECT count(*) || ':' || coalesce(max("importedAt")::text, '-') FROM "ModelRun") AS models`;
  return {
    key: [ids.join(","), row?.responses, row?.signals, row?.studies, row?.items, row?.models].join("|"),
    nResponses: Number(row?.n ?? 0),
  };
}

/** listResponseRecords of the scope, read once per revision. */
export async function loadScopeRecords(studyIds: readonly string[]): Promise<ScopeRecords> {
  const revision = (await studyRevision(studyIds)).key;
  return recordSets.get(revision, async () => ({ ...(await listResponseRecords(studyIds)), revision }));
}

/**
 * summarizeHumanResults (bootstrap intervals: the costly part, 27 s for 200,000 responses) of a scope's records,
 * computed once per revision, seed and replicate count; in the heavy-work pool from HEAVY_RESULTS_MIN_RECORDS
 * records on, so a large study's results never hold up a participant's request. Same function either way.
 */
export function summarizeScopeRecordsCached(
  loaded: ScopeRecords,
  options: SummarizeOptions,
  caller: HeavyCaller = {},
): Promise<RecordsOutcome<HumanResultsSummary>> {
  const excluded = options.excludedParticipantIds ?? [];
  const key = `${loaded.revision}|${options.seed ?? ""}|${options.replicates ?? ""}|${options.confidence ?? ""}|${excluded.length}:${excluded.join(",")}`;
  // The caller's job like any other (its owner's share, dropped when every request waiting for it has left).
  return summaries.get(
    key,
    async (jobSignal) =>
      loaded.records.length >= heavyBudgets.HEAVY_RESULTS_MIN_RECORDS && !insideHeavyWorker()
        ? runHeavyJob(
            "resultsSummary",
            { records: loaded.records, options },
            { ...(caller.owner ? { owner: caller.owner } : {}), signal: jobSignal },
          )
        : summarizeHumanResults(loaded.records, options),
    caller.signal,
  );
}

/** Forgets every cached record set and summary (tests). */
export function clearResultsCache(): void {
  recordSets.clear();
  summaries.clear();
  signalSummaryCache.clear();
}
