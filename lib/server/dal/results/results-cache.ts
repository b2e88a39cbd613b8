import "server-only";
import type { ParticipantSignalSummary } from "@/lib/participant/integrity";
import type { HumanResultsSummary, SummarizeOptions } from "@/lib/results/summarize";
import { summarizeHumanResults } from "@/lib/results/summarize";
import type { RecordsOutcome } from "@/lib/results/response-records";
import { db } from "@/lib/server/db";
import { heavyBudgets } from "@/lib/server/heavy/budgets";
import { runHeavyJob } from "@/lib/server/heavy/pool";
import { Prisma } from "@/prisma/generated/client";
import { listResponseRecords, type ResponseRecordsDto } from "./list-response-records";

/**
 * Results of large studies without re-reading and re-computing on every request: the scope's main-phase records and
 * their summaries are kept in memory, keyed by a fingerprint of the scope's responses, until a new answer arrives.
 *
 * The fingerprint is one indexed aggregate over the scope's responses: their count, the latest submittedAt, and the
 * sum of hashtext(id). A new answer changes the count; a deleted participant's answers change count and sum; a
 * deletion followed by an insertion (same count) changes the sum. Stored responses are never updated in place (a retried
 * submit is idempotent), so nothing else a record is made of can change under the same fingerprint. Item golds are
 * frozen with their pool version.
 */

/** Record sets kept (a 200,000-response scope is about 60 MB of records). */
const RECORD_SETS_KEPT = 2;
/** Summaries kept (one per scope × seed × replicates). */
const SUMMARIES_KEPT = 16;

export interface ScopeRecords extends ResponseRecordsDto {
  /** Identifies the responses these records were read from (see above). */
  fingerprint: string;
}

/** A small LRU of promises: concurrent requests for one key share one computation; a failure is not kept. */
export class PromiseCache<T> {
  private readonly entries = new Map<string, Promise<T>>();
  constructor(private readonly limit: number) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.entries.set(key, value);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

const recordSets = new PromiseCache<ScopeRecords>(RECORD_SETS_KEPT);
const summaries = new PromiseCache<RecordsOutcome<HumanResultsSummary>>(SUMMARIES_KEPT);
/** Per-participant integrity-signal summaries of a scope, keyed by the same fingerprint (signals are stored with their answer). */
export const signalSummaryCache = new PromiseCache<ParticipantSignalSummary[]>(RECORD_SETS_KEPT);

/** The fingerprint of the main-phase responses of the given studies (see the module comment). */
export async function responsesFingerprint(studyIds: readonly string[]): Promise<string> {
  if (studyIds.length === 0) return "none";
  const [row] = await db.$queryRaw<Array<{ n: bigint; last: Date | null; h: bigint | null }>>`
    SELECT count(*) AS n, max("submittedAt") AS last, sum(hashtext(id)::bigint)::bigint AS h
    FROM "Response" WHERE "studyId" IN (${Prisma.join([...studyIds])}) AND phase = 'main'`;
  return [
    [...studyIds].sort().join(","),
    String(row?.n ?? 0),
    row?.last?.toISOString() ?? "-",
    String(row?.h ?? 0),
  ].join("|");
}

/** listResponseRecords of the scope, read once per fingerprint. */
export async function loadScopeRecords(studyIds: readonly string[]): Promise<ScopeRecords> {
  const fingerprint = await responsesFingerprint(studyIds);
  return recordSets.get(fingerprint, async () => ({ ...(await listResponseRecords(studyIds)), fingerprint }));
}

/**
 * summarizeHumanResults (bootstrap intervals: the costly part, 27 s for 200,000 responses) of a scope's records,
 * computed once per fingerprint, seed and replicate count; in the heavy-work pool from HEAVY_RESULTS_MIN_RECORDS
 * records on, so a large study's results never hold up a participant's request. Same function either way.
 */
export function summarizeScopeRecordsCached(
  loaded: ScopeRecords,
  options: SummarizeOptions,
): Promise<RecordsOutcome<HumanResultsSummary>> {
  const excluded = options.excludedParticipantIds ?? [];
  const key = `${loaded.fingerprint}|${options.seed ?? ""}|${options.replicates ?? ""}|${options.confidence ?? ""}|${excluded.length}:${excluded.join(",")}`;
  return summaries.get(key, async () =>
    loaded.records.length >= heavyBudgets.HEAVY_RESULTS_MIN_RECORDS
      ? runHeavyJob("resultsSummary", { records: loaded.records, options })
      : summarizeHumanResults(loaded.records, options),
  );
}

/** Forgets every cached record set and summary (tests). */
export function clearResultsCache(): void {
  recordSets.clear();
  summaries.clear();
  signalSummaryCache.clear();
}
