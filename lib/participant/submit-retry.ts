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
 * How long a 503 or 429 asks the client to wait (`Retry-After`: delay-seconds or an HTTP date), in ms; null when the
 * status is another one or the header is absent or unreadable. A restarted or saturated server sheds load this way.
 */
export function retryAfterMs(status: number, header: string | null, now: number = Date.now()): number | null {
  if ((status !== 503 && status !== 429) || !header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The wait before retry number `attempt` (1-based): the back-off, or what the server asked for when that is longer,
 * plus up to 20 % so a crowd told the same Retry-After does not return in the same instant.
 */
export function nextRetryDelayMs(
  attempt: number,
  retryAfter: number | null,
  random: () => number = Math.random,
): number {
  const backoff = retryDelayMs(attempt, random);
  if (retryAfter === null || retryAfter <= backoff) return backoff;
  return Math.round(retryAfter * (1 + 0.2 * random()));
}
