import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { computeResultsData } from "@/lib/server/dal/results/get-results-page";
import { clearResultsCache } from "@/lib/server/dal/results/results-cache";
import {
  HeavyJobError,
  closeHeavyPool,
  heavyJobsQueued,
  heavyJobsRunning,
  heavyJobsStarted,
  runHeavyJob,
} from "@/lib/server/heavy/pool";
import { createLargeStudy } from "../helpers/large-study";

/**
 * The bootstrap summary that the results cache hands to the pool (the `resultsSummary` job, when the page's data is
 * computed in the server) is its caller's job like every other: it counts against the caller's share of the queue and
 * is dropped when the caller's request is aborted.
 */
vi.hoisted(() => {
  // Every study counts as large here, so the summary of a small one is a pool job.
  process.env.HEAVY_RESULTS_MIN_RECORDS = "1";
  process.env.HEAVY_RESULTS_BUDGET_MS = "600000";
  process.env.HEAVY_WORKERS = "1";
  process.env.HEAVY_USER_QUEUE_MAX = "1";
  process.env.HEAVY_SVG_BUDGET_MS = "600000";
});

const SVG_NS = "http://www.w3.org/2000/svg";
/** Minutes of rasterising: holds the only worker until its own client leaves. */
const BLUR = Buffer.from(
  `<svg xmlns="${SVG_NS}" width="4096" height="4096"><filter id="f"><feGaussianBlur stdDeviation="1500"/></filter>${'<rect width="4096" height="4096" filter="url(#f)"/>'.repeat(8)}</svg>`,
);
const SMALL = Buffer.from(`<svg xmlns="${SVG_NS}" width="8" height="6"><rect width="8" height="6" fill="red"/></svg>`);

let large: Awaited<ReturnType<typeof createLargeStudy>>;

beforeAll(async () => {
  large = await createLargeStudy({ participants: 30, itemCount: 6 });
}, 120_000);

afterAll(async () => {
  await closeHeavyPool();
  await disconnectDb();
});

/** Another user's job that holds the only worker until `stop` is called. */
async function holdTheWorker(): Promise<{ stop: () => Promise<void> }> {
  const controller = new AbortController();
  const held = runHeavyJob("svg", { bytes: BLUR }, { owner: "someone-else", signal: controller.signal }).catch(
    (e: unknown) => e,
  );
  for (let i = 0; i < 6_000 && heavyJobsRunning() === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(heavyJobsRunning()).toBe(1);
  return {
    stop: async () => {
      controller.abort();
      expect(((await held) as HeavyJobError).budget).toBe("aborted");
    },
  };
}

const options = () => ({ studyId: large.study.id, scope: "study" as const, condition: null });

describe("the results summary job belongs to its caller", () => {
  it(
    "is dropped without running when the caller's request is aborted while it waits",
    { timeout: 180_000 },
    async () => {
      clearResultsCache();
      const holder = await holdTheWorker();
      const started = heavyJobsStarted();
      const leaving = new AbortController();
      const computing = computeResultsData(options(), { owner: "researcher", signal: leaving.signal }).catch(
        (e: unknown) => e,
      );
      for (let i = 0; i < 6_000 && heavyJobsQueued() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heavyJobsQueued()).toBe(1);

      leaving.abort();
      const outcome = await computing;
      expect(outcome).toBeInstanceOf(HeavyJobError);
      expect((outcome as HeavyJobError).budget).toBe("aborted");
      expect(heavyJobsQueued()).toBe(0);
      await holder.stop();
      expect(heavyJobsStarted()).toBe(started);
    },
  );

  it("counts against its owner's share of the queue", { timeout: 180_000 }, async () => {
    clearResultsCache();
    const holder = await holdTheWorker();
    // The researcher already has HEAVY_USER_QUEUE_MAX (1) jobs waiting: the summary is refused, not queued.
    const waiting = runHeavyJob("svg", { bytes: SMALL }, { owner: "researcher" });
    const refused = await computeResultsData(options(), { owner: "researcher" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HeavyJobError);
    expect((refused as HeavyJobError).message).toBe(
      "the results computation was refused: you already have 1 heavy jobs waiting (HEAVY_USER_QUEUE_MAX); try again when one has finished",
    );
    // Another researcher's summary still queues, and runs once the worker is free.
    const other = computeResultsData(options(), { owner: "another-researcher" });
    await holder.stop();
    expect(await waiting).toMatchObject({ ok: true, widthPx: 8 });
    expect((await other).page.human.nResponses).toBe(180);
  });
});
