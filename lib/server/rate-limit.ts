import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";

/**
 * Rate limits on the SignInAttempt table (one row per counted event, keyed; despite its name it also holds the
 * participant join/consent events). Counting is atomic: the keys' transaction-scoped advisory locks are taken (in a
 * fixed order, so two callers cannot deadlock) before counting and inserting, so N parallel requests see each
 * other's rows (a plain count-then-insert let 29 of 31 parallel sign-ins through a limit of 5).
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
  for (const key of [...new Set(keys)].sort())
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`ratelimit:${key}`}))`;
}

/** Counts each key's events since `now - windowMs` (call inside the transaction that locked the keys). */
export async function countKeys(
  tx: Tx,
  rules: ReadonlyArray<{ key: string; windowMs: number }>,
  now: Date,
): Promise<Map<string, KeyCount>> {
  const out = new Map<string, KeyCount>();
  for (const { key, windowMs } of rules) {
    const since = new Date(now.getTime() - windowMs);
    const agg = await tx.signInAttempt.aggregate({
      where: { key, at: { gt: since } },
      _count: { _all: true },
      _max: { at: true },
      _min: { at: true },
    });
    out.set(key, { count: agg._count._all, last: agg._max.at, first: agg._min.at });
  }
  return out;
}

/** Records one event per key; returns the row ids (so a caller can take an event back). */
export async function recordKeys(tx: Tx, keys: readonly string[], now: Date): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (const key of keys)
    ids.push((await tx.signInAttempt.create({ data: { key, at: now }, select: { id: true } })).id);
  return ids;
}

export type RateLimitDecision = { ok: true } | { ok: false; retryAfterSec: number; key: string };

/**
 * Atomically: if every rule has room, counts one event for each and returns ok; else counts nothing. One statement
 * (database functions misi_rate_limit_lock / _count, sql/functions/10_rate_limit.sql): the
 * keys' locks are held inside the database for the count and insert only, so a launch's joins no longer queue on the study-wide key while its holder
 * waits for a busy app to send the next query.
 */
export async function consumeRateLimit(
  rules: readonly RateLimitRule[],
  now: Date = new Date(),
): Promise<RateLimitDecision> {
  const { keys, limits, sinces } = rateLimitArgs(rules, now);
  const counted = await db.$queryRaw<Array<{ rule_index: number; event_count: number; first_at: Date | null }>>`
    SELECT rule_index, event_count, first_at FROM misi_rate_limit_count(
      ${keys}::text[], ${limits}::int[], ${sinces}::text[]::timestamp(3)[], ${now.toISOString()}::timestamp(3), misi_rate_limit_lock(${keys}::text[]))`;
  const decision = rateLimitDecision(
    rules,
    counted.map((r) => r.event_count),
    counted.map((r) => r.first_at),
    now,
  );
  // Old events are pruned now and then (1 call in 100), so the table stays small without a job.
  if (decision.ok && Math.random() < 0.01)
    await db.signInAttempt.deleteMany({ where: { at: { lt: new Date(now.getTime() - 2 * 24 * 3600_000) } } });
  return decision;
}

/**
 * The arguments of misi_rate_limit_count for these rules (also passed on by misi_consent_context). timestamp(3)
 * columns hold UTC wall time; an ISO string cast to timestamp drops the "Z" and keeps that time.
 */
export function rateLimitArgs(
  rules: readonly RateLimitRule[],
  now: Date,
): { keys: string[]; limits: number[]; sinces: string[] } {
  return {
    keys: rules.map((r) => r.key),
    limits: rules.map((r) => r.limit),
    sinces: rules.map((r) => new Date(now.getTime() - r.windowMs).toISOString()),
  };
}

/** The decision from misi_rate_limit_count's per-rule counts (before this event) and oldest events, in rule order. */
export function rateLimitDecision(
  rules: readonly RateLimitRule[],
  counts: readonly number[],
  firsts: ReadonlyArray<Date | number | null>,
  now: Date,
): RateLimitDecision {
  for (const [i, rule] of rules.entries()) {
    if ((counts[i] ?? 0) >= rule.limit) {
      const first = firsts[i];
      const retryMs =
        (first ? new Date(first).getTime() + rule.windowMs : now.getTime() + rule.windowMs) - now.getTime();
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(retryMs / 1000)), key: rule.key };
    }
  }
  return { ok: true };
}
