import { afterAll, describe, expect, it, vi } from "vitest";
import { HeavyJobError, closeHeavyPool, heavyJobsRunning, runHeavyJob } from "@/lib/server/heavy/pool";

/** The pool's concurrency limit and queue bound, set through the operator's variables: one worker, one waiting job. */
vi.hoisted(() => {
  process.env.HEAVY_WORKERS = "1";
  process.env.HEAVY_QUEUE_MAX = "1";
  process.env.HEAVY_SVG_BUDGET_MS = "3000";
});

afterAll(async () => {
  await closeHeavyPool();
});

const SVG_NS = "http://www.w3.org/2000/svg";
const BLUR = Buffer.from(
  `<svg xmlns="${SVG_NS}" width="4096" height="4096"><filter id="f"><feGaussianBlur stdDeviation="1500"/></filter>${'<rect width="4096" height="4096" filter="url(#f)"/>'.repeat(4)}</svg>`,
);
const SMALL = Buffer.from(`<svg xmlns="${SVG_NS}" width="8" height="6"><rect width="8" height="6" fill="red"/></svg>`);

describe("heavy-work pool limits", () => {
  it(
    "runs one job at a time, queues one, refuses the next at once naming HEAVY_QUEUE_MAX, then runs the queued one",
    { timeout: 120_000 },
    async () => {
      const running = runHeavyJob("svg", { bytes: BLUR }).catch((e: unknown) => e);
      for (let i = 0; i < 3_000 && heavyJobsRunning() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heavyJobsRunning()).toBe(1);
      const queued = runHeavyJob("svg", { bytes: SMALL });
      const refused = await runHeavyJob("svg", { bytes: SMALL }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(HeavyJobError);
      expect((refused as HeavyJobError).message).toBe(
        "SVG check and rasterisation was refused: 1 heavy jobs are already waiting (HEAVY_QUEUE_MAX); try again later",
      );
      // Only one ran at a time: the queued job had not started while the bomb ran.
      expect(heavyJobsRunning()).toBe(1);
      const bomb = await running;
      expect((bomb as HeavyJobError).budget).toBe("time");
      expect(await queued).toMatchObject({ ok: true, widthPx: 8, heightPx: 6 });
    },
  );
});
