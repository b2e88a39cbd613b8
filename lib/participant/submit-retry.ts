/**
 * The browser's retry rules for saving an answer (and consent), shared with the load benchmark so it behaves like
 * the real client. A submit is retried — with the same idempotency key, so it is stored once — on a network error,
 * a request that got no answer within `ATTEMPT_TIMEOUT_MS`, 408, 429 and any 5xx, for at least `RETRY_BUDGET_MS`
 * (a server restart or a database failover takes tens of seconds; the slowest acknowledged answer in the outside
 * load test needed 31 s). Other 4xx are final answers from the server and are not retried.
 */
export const RETRY_BUDGET_MS = 180_000;
export const ATTEMPT_TIMEOUT_MS = 20_000;

const BACKOFF_MS = [300, 600, 1200, 2500, 5000, 10_000];

/** Delay before retry number `attempt` (1-based), with ±20 % jitter so a crowd of clients does not retry in step. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1]!;
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Whether an HTTP status is worth retrying (the request may not have been processed, or may succeed later). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Whether another attempt fits in the budget, counted from the first attempt. */
export function withinBudget(startedAt: number, now: number, nextDelayMs: number): boolean {
  return now + nextDelayMs - startedAt <= RETRY_BUDGET_MS;
}

/**
 * The delay before retry number `attempt` when the server said when to come back (`Retry-After` in seconds, as a
 * shedding or rate-limited server sends it): at least that long, plus up to 50 % jitter so the shed crowd does not
 * return in step; otherwise the back-off above. Capped at the longest back-off step.
 */
export function retryDelayAfterMs(attempt: number, retryAfter: string | null | undefined, random: () => number = Math.random): number {
  const seconds = retryAfter && /^\d{1,6}$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : NaN;
  if (!Number.isFinite(seconds)) return retryDelayMs(attempt, random);
  return Math.min(BACKOFF_MS.at(-1)!, Math.round(Math.max(seconds * 1000, 250) * (1 + 0.5 * random())));
}
