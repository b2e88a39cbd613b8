import { describe, expect, it } from "vitest";
import {
  ATTEMPT_TIMEOUT_MS,
  isRetryableStatus,
  nextRetryDelayMs,
  RETRY_BUDGET_MS,
  retryAfterMs,
  retryDelayMs,
  withinBudget,
} from "@/lib/participant/submit-retry";

describe("the browser's submit retry rules", () => {
  it("keep retrying for at least three minutes, backing off to at most ~12 s between attempts", () => {
    // Simulate a server that never answers: each attempt times out, then the client waits the back-off delay.
    const start = 0;
    let now = start;
    let attempts = 0;
    for (;;) {
      attempts++;
      now += ATTEMPT_TIMEOUT_MS;
      const delay = retryDelayMs(attempts, () => 1);
      if (!withinBudget(start, now, delay)) break;
      now += delay;
    }
    expect(now - start).toBeGreaterThanOrEqual(RETRY_BUDGET_MS - 12_000 - ATTEMPT_TIMEOUT_MS);
    expect(RETRY_BUDGET_MS).toBeGreaterThanOrEqual(180_000);
    // A server that fails fast (connection refused while restarting): many quick attempts over the same budget.
    now = 0;
    attempts = 0;
    while (
      withinBudget(
        0,
        now,
        retryDelayMs(attempts + 1, () => 1),
      )
    )
      now += retryDelayMs(++attempts, () => 1);
    expect(now).toBeGreaterThan(170_000);
    expect(attempts).toBeGreaterThan(15);
  });

  it("back off with jitter and a ceiling", () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(300);
    expect(retryDelayMs(2, () => 0.5)).toBeGreaterThan(retryDelayMs(1, () => 0.5));
    expect(retryDelayMs(50, () => 1)).toBe(12_000);
    expect(retryDelayMs(50, () => 0)).toBe(8_000);
  });

  it("retry what may succeed later, not the server's final answers", () => {
    for (const s of [500, 502, 503, 504, 408, 429]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 410, 422]) expect(isRetryableStatus(s)).toBe(false);
  });

  it("read Retry-After of a 503 or 429 (seconds or an HTTP date), nothing else", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(retryAfterMs(503, "5", now)).toBe(5000);
    expect(retryAfterMs(429, " 120 ", now)).toBe(120_000);
    expect(retryAfterMs(503, "Tue, 01 Dec 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs(503, "Tue, 01 Dec 2026 11:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs(503, null, now)).toBeNull();
    expect(retryAfterMs(503, "soon", now)).toBeNull();
    expect(retryAfterMs(500, "5", now)).toBeNull();
    expect(retryAfterMs(502, "5", now)).toBeNull();
  });

  it("wait at least as long as the server asked, spread by up to 20 %; the back-off when it asked for less", () => {
    expect(nextRetryDelayMs(1, 5000, () => 0)).toBe(5000);
    expect(nextRetryDelayMs(1, 5000, () => 1)).toBe(6000);
    expect(nextRetryDelayMs(1, null, () => 0.5)).toBe(300);
    expect(nextRetryDelayMs(6, 1000, () => 0.5)).toBe(retryDelayMs(6, () => 0.5));
  });
});
