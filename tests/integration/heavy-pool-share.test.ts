import { afterAll, describe, expect, it, vi } from "vitest";
import {
  HeavyJobError,
  closeHeavyPool,
  heavyJobsQueued,
  heavyJobsRunning,
  heavyJobsStarted,
  runHeavyJob,
} from "@/lib/server/heavy/pool";

/**
 * One worker shared by two researchers: one of them cannot fill the queue (HEAVY_USER_QUEUE_MAX), the other's job runs
 * next rather than behind all of the first one's, and a waiting job whose client has left is dropped without running.
 */
vi.hoisted(() => {
  process.env.HEAVY_WORKERS = "1";
  process.env.HEAVY_USER_QUEUE_MAX = "2";
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

describe("heavy-work pool shares", () => {
  it(
    "gives each user a share of the queue, serves the other user next, and drops a job whose client left",
    { timeout: 120_000 },
    async () => {
      const started = heavyJobsStarted();
      const finished: string[] = [];
      const job = (name: string, owner: string, bytes: Buffer, signal?: AbortSignal) =>
        runHeavyJob("svg", { bytes }, { owner, ...(signal ? { signal } : {}) }).then(
          (r) => {
            finished.push(name);
            return r;
          },
          (e: unknown) => {
            finished.push(name);
            return e;
          },
        );

      // Researcher A's bomb holds the only worker.
      const bomb = job("a-bomb", "a", BLUR);
      for (let i = 0; i < 3_000 && heavyJobsRunning() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heavyJobsRunning()).toBe(1);

      // A may keep two more waiting; a third is refused at once, naming the variable.
      const a1 = job("a1", "a", SMALL);
      const a2 = job("a2", "a", SMALL);
      const refused = await runHeavyJob("svg", { bytes: SMALL }, { owner: "a" }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(HeavyJobError);
      expect((refused as HeavyJobError).message).toBe(
        "SVG check and rasterisation was refused: you already have 2 heavy jobs waiting (HEAVY_USER_QUEUE_MAX); try again when one has finished",
      );

      // B still gets into the queue, and a job of B's whose client leaves is dropped before it runs.
      const b1 = job("b1", "b", SMALL);
      const leaving = new AbortController();
      const gone = job("b-gone", "b", SMALL, leaving.signal);
      expect(heavyJobsQueued()).toBe(4);
      leaving.abort();
      const dropped = await gone;
      expect(dropped).toBeInstanceOf(HeavyJobError);
      expect((dropped as HeavyJobError).budget).toBe("aborted");
      expect(heavyJobsQueued()).toBe(3);

      expect(((await bomb) as HeavyJobError).budget).toBe("time");
      for (const r of await Promise.all([a1, a2, b1])) expect(r).toMatchObject({ ok: true, widthPx: 8 });
      // B was served right after A's running job, before A's queued ones; the dropped job never started.
      expect(finished).toEqual(["b-gone", "a-bomb", "b1", "a1", "a2"]);
      expect(heavyJobsStarted()).toBe(started + 4);
    },
  );
});
