import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Transient database faults: the connection was dropped (server restart, pg_terminate_backend, network), the pool had
 * no free connection in time, or PostgreSQL broke a deadlock / serialization conflict. An idempotent operation can be
 * run again; anything else is a real error.
 */
const TRANSIENT_SQLSTATES = new Set([
  "57P01", // admin_shutdown (pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up)
  "08000",
  "08001",
  "08003",
  "08004",
  "08006", // connection exceptions
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available (lock_timeout)
  "53300", // too_many_connections
]);
const TRANSIENT_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028", "P2034"]);
const TRANSIENT_KINDS = new Set([
  "ConnectionClosed",
  "DatabaseNotReachable",
  "SocketTimeout",
  "TransactionWriteConflict",
  "TooManyConnections",
]);
const TRANSIENT_MESSAGE =
  /Connection terminated|not queryable|ECONNRESET|ECONNREFUSED|EPIPE|terminating connection|Server has closed the connection|Can't reach database server|Timed out fetching a new connection|timeout exceeded when trying to connect|Transaction already closed|Transaction not found|Unable to start a transaction|deadlock detected|could not serialize|lock timeout/i;

export function isTransientDbError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as {
    code?: unknown;
    message?: unknown;
    meta?: Record<string, unknown>;
    cause?: unknown;
    kind?: unknown;
  };
  if (typeof e.code === "string" && (TRANSIENT_SQLSTATES.has(e.code) || TRANSIENT_PRISMA_CODES.has(e.code)))
    return true;
  if (typeof e.kind === "string" && TRANSIENT_KINDS.has(e.kind)) return true;
  if (e.kind === "postgres" && typeof e.code === "string" && TRANSIENT_SQLSTATES.has(e.code)) return true;
  const meta = e.meta;
  if (meta) {
    if (typeof meta.code === "string" && TRANSIENT_SQLSTATES.has(meta.code)) return true;
    if (isTransientDbError(meta.driverAdapterError, depth + 1)) return true;
  }
  if (typeof e.message === "string") {
    if (TRANSIENT_MESSAGE.test(e.message)) return true;
    // Prisma reports a driver error it does not map as "Database error. Code: `57P01`. Message: …".
    const code = /Code: `([0-9A-Z]{5})`/.exec(e.message)?.[1];
    if (code && TRANSIENT_SQLSTATES.has(code)) return true;
  }
  return isTransientDbError(e.cause, depth + 1);
}

/** Delays between attempts: a dropped connection is replaced at once, a restarting server takes a moment. */
const RETRY_DELAYS_MS = [25, 100, 250, 500, 1000];

/** Set while an outer withDbRetry runs: it owns the retrying, so the calls inside it run once each. */
const retryScope = new AsyncLocalStorage<true>();

/**
 * Runs an idempotent database operation, retrying it on a transient fault (at most `RETRY_DELAYS_MS.length` more
 * times). Only for operations that are safe to repeat: reads, and writes whose effect is decided by a key or a
 * conditional update (an answer with its idempotency key, a consent that only moves `consenting` on).
 * Nested calls do not retry on their own: the outermost one re-runs its whole operation, so a database that stays
 * away costs one back-off sequence per request, not one per level (6 × 6 attempts).
 */
export async function withDbRetry<T>(operation: () => Promise<T>): Promise<T> {
  if (retryScope.getStore()) return operation();
  return retryScope.run(true, async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await operation();
      } catch (err) {
        if (attempt >= RETRY_DELAYS_MS.length || !isTransientDbError(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]! * (0.5 + Math.random())));
      }
    }
  });
}
