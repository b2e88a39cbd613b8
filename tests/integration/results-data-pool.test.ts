import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { clearResultsPageCache, computeResultsData, getResultsData } from "@/lib/server/dal/results/get-results-page";
import { clearResultsCache, studyRevision } from "@/lib/server/dal/results/results-cache";
import { openStudyExport } from "@/lib/server/export/open-study-export";
import { closeHeavyPool, heavyJobsStarted } from "@/lib/server/heavy/pool";
import { createLargeStudy } from "../helpers/large-study";

/**
 * The results page's data (records, summaries, item analysis, integrity, 3D usage) and the computed exports are built
 * in the heavy-work pool, whose worker reads the database itself, and are cached per study revision: a new answer, a
 * changed exclusion policy or a flagged item is a new revision.
 */
vi.hoisted(() => {
  // Every study counts as large here, so a small one exercises the pool path.
  process.env.HEAVY_RESULTS_MIN_RECORDS = "1";
  process.env.HEAVY_RESULTS_BUDGET_MS = "600000";
});

let large: Awaited<ReturnType<typeof createLargeStudy>>;

beforeAll(async () => {
  large = await createLargeStudy({ participants: 30, itemCount: 6 });
}, 120_000);

afterAll(async () => {
  await closeHeavyPool();
  await disconnectDb();
});

describe("results data in the heavy-work pool, per study revision", () => {
  it("is computed by a worker, equals the in-process computation, and is kept until the revision changes", async () => {
    clearResultsCache();
    clearResultsPageCache();
    const options = { studyId: large.study.id, scope: "study" as const, condition: null };
    const started = heavyJobsStarted();
    const pooled = await getResultsData(options);
    expect(heavyJobsStarted()).toBe(started + 1);
    expect(pooled.page.human.nResponses).toBe(180);
    expect(pooled.integrity.nParticipants).toBe(30);

    // Same revision: from the cache, no new job.
    expect(await getResultsData(options)).toBe(pooled);
    expect(heavyJobsStarted()).toBe(started + 1);
    // The same numbers as computed here (whose bootstrap summary is itself a pool job at this threshold).
    expect(pooled).toEqual(await computeResultsData(options));

    // An exclusion setting changes the revision.
    const r0 = (await studyRevision([large.study.id])).key;
    const config = (await db.study.findUniqueOrThrow({ where: { id: large.study.id } })).config as object;
    await db.study.update({
      where: { id: large.study.id },
      data: { config: { ...config, exclusions: { identicalRunAtLeast: 3 } } },
    });
    const r1 = (await studyRevision([large.study.id])).key;
    expect(r1).not.toBe(r0);
    const afterPolicy = heavyJobsStarted();
    await getResultsData(options);
    expect(heavyJobsStarted()).toBe(afterPolicy + 1);

    // So does a changed item of the pool version (a flag).
    await db.item.update({ where: { id: large.itemIds[0]! }, data: { status: "flagged", statusReason: "test" } });
    expect((await studyRevision([large.study.id])).key).not.toBe(r1);
    await getResultsData(options);
    expect(heavyJobsStarted()).toBe(afterPolicy + 2);
  }, 300_000);

  it("builds a computed export in the pool and hands back its bytes", async () => {
    const started = heavyJobsStarted();
    const opened = await openStudyExport({ studyId: large.study.id, kind: "task-summary" });
    const chunks: Buffer[] = [];
    for await (const c of opened.stream) chunks.push(Buffer.from(c as Uint8Array));
    expect(heavyJobsStarted()).toBe(started + 1);
    expect(opened.fileName).toMatch(/-task-summary\.csv$/);
    expect(Buffer.concat(chunks).toString("utf8").split("\n")[0]).toContain("exact_mean");
  }, 300_000);
});
