import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";

/**
 * Rate limits on the SignInAttempt table (one row per counted event, keyed; despite its name it also holds the
 * participant join/consent events). Counting is atomic: the keys' transaction-scoped advisory locks are taken (in a
 * fixed order, so two callers cannot deadlock) before counting and inserting, so N parallel requests see each
 * other's rows. The old count-then-insert let 29 of 31 parallel sign-ins through a limit of 5.
 */

export interface RateLimitRule {
  key: string;
  /** Events allowed within `windowMs`; the next one is refused until the oldest leaves the window. */
  limit: number;
  windowMs: number;
}

export interface KeyCount {
  count: number;
  /** Time of the newest counted event, or null. */
  last: Date | null;
  /** Time of the oldest counted event in the window, or null. */
  first: Date | null;
}

type Tx = Prisma.TransactionClient;

/** Locks the keys for this transaction, in sorted order. */
export async function lockKeys(tx: Tx, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`ratelimit:${key}`}))`;
}

/** Counts each key's events since `now - windowMs` (call inside the transaction that locked the keys). */
export async function countKeys(tx: Tx, rules: ReadonlyArray<{ key: string; windowMs: number }>, now: Date): Promise<Map<string, KeyCount>> {
  const out = new Map<string, KeyCount>();
  for (const { key, windowMs } of rules) {
    const since = new Date(now.getTime() - windowMs);
    const agg = await tx.signInAttempt.aggregate({ where: { key, at: { gt: since } }, _count: { _all: true }, _max: { at: true }, _min: { at: true } });
    out.set(key, { count: agg._count._all, last: agg._max.at, first: agg._min.at });
  }
  return out;
}

/** Records one event per key; returns the row ids (so a caller can take an event back). */
export async function recordKeys(tx: Tx, keys: readonly string[], now: Date): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (const key of keys) ids.push((await tx.signInAttempt.create({ data: { key, at: now }, select: { id: true } })).id);
  return ids;
}

export type RateLimitDecision = { ok: true } | { ok: false; retryAfterSec: number; key: string };

/**
 * Atomically: if every rule has room, counts one event for each and returns ok; else counts nothing. Two statements
 * under the keys' locks (take the locks; then count and conditionally insert in one statement, whose snapshot is
 * taken after the locks are held, so it sees every earlier holder's rows): a study-wide key is held for two round
 * trips, not six, and a launch's joins queue on it that much less.
 */
export async function consumeRateLimit(rules: readonly RateLimitRule[], now: Date = new Date()): Promise<RateLimitDecision> {
  const keys = [...new Set(rules.map((r) => r.key))].sort();
  const ruleKeys = rules.map((r) => r.key);
  const limits = rules.map((r) => r.limit);
  // timestamp(3) columns hold UTC wall time; an ISO string cast to timestamp drops the "Z" and keeps that time.
  const sinces = rules.map((r) => new Date(now.getTime() - r.windowMs).toISOString());
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT count(pg_advisory_xact_lock(hashtext('ratelimit:' || k)))::int AS n FROM unnest(${keys}::text[]) AS k`;
    const counted = await tx.$queryRaw<Array<{ i: number; n: number; first: Date | null }>>`
      WITH r AS (SELECT * FROM unnest(${ruleKeys}::text[], ${limits}::int[], ${sinces}::text[]) WITH ORDINALITY AS r(key, lim, since, i)),
      c AS (
        SELECT r.i, r.key, r.lim, count(s.id)::int AS n, min(s.at) AS first
        FROM r LEFT JOIN "SignInAttempt" s ON s.key = r.key AND s.at > r.since::timestamp(3)
        GROUP BY r.i, r.key, r.lim
      ),
      ins AS (
        INSERT INTO "SignInAttempt" (key, at) SELECT key, ${now.toISOString()}::timestamp(3) FROM c WHERE NOT EXISTS (SELECT 1 FROM c WHERE n >= lim)
        RETURNING id
      )
      SELECT i::int AS i, n, first FROM c ORDER BY i`;
    for (const row of counted) {
      const rule = rules[row.i - 1]!;
      if (row.n >= rule.limit) {
        const retryMs = (row.first ? new Date(row.first).getTime() + rule.windowMs : now.getTime() + rule.windowMs) - now.getTime();
        return { ok: false, retryAfterSec: Math.max(1, Math.ceil(retryMs / 1000)), key: rule.key };
      }
    }
    // Old events are pruned now and then (1 call in 100), so the table stays small without a job.
    if (Math.random() < 0.01) await tx.signInAttempt.deleteMany({ where: { at: { lt: new Date(now.getTime() - 2 * 24 * 3600_000) } } });
    return { ok: true };
  }, { maxWait: 30_000, timeout: 30_000 }); // a burst queues on the key locks, each holding a pooled connection
}
