import { describe, expect, it } from "vitest";
import { ATTEMPT_TIMEOUT_MS, isRetryableStatus, RETRY_BUDGET_MS, retryDelayMs, withinBudget } from "@/lib/participant/submit-retry";

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
    while (withinBudget(0, now, retryDelayMs(attempts + 1, () => 1))) now += retryDelayMs(++attempts, () => 1);
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
});

describe("Retry-After", () => {
  it("waits at least what the server asked, with jitter up to half again, else the usual back-off", async () => {
    const { retryDelayAfterMs } = await import("@/lib/participant/submit-retry");
    expect(retryDelayAfterMs(1, "2", () => 0)).toBe(2000);
    expect(retryDelayAfterMs(1, "2", () => 1)).toBe(3000);
    expect(retryDelayAfterMs(1, "0", () => 0)).toBe(250);
    expect(retryDelayAfterMs(1, "3600", () => 0)).toBe(10_000);
    expect(retryDelayAfterMs(1, null, () => 0.5)).toBe(retryDelayMs(1, () => 0.5));
    expect(retryDelayAfterMs(2, "soon", () => 0.5)).toBe(retryDelayMs(2, () => 0.5));
  });
});
