import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { getStudyResults } from "@/lib/server/dal/results/get-study-results";
import { clearResultsCache, studyRevision } from "@/lib/server/dal/results/results-cache";
import { buildStudyPaperTables } from "@/lib/server/export/paper-table-export";
import { closeHeavyPool, heavyJobsRunning, heavyJobsStarted } from "@/lib/server/heavy/pool";
import { createLargeStudy } from "../helpers/large-study";
import { createTranslationStudy, joinStudy } from "../helpers/study-fixtures";

/**
 * A 200,000-response study: its paper table (bootstrap intervals, 27.7 s in the server before, a participant waiting
 * 18 s behind it) is computed in the heavy-work pool and cached until a new answer arrives.
 */
vi.hoisted(() => {
  // The loaded test machine may be slow; the budget is not what this test is about.
  process.env.HEAVY_RESULTS_BUDGET_MS = "1200000";
});

let large: Awaited<ReturnType<typeof createLargeStudy>>;
let participantId: string;

beforeAll(async () => {
  large = await createLargeStudy({ participants: 4_000, itemCount: 50 });
  const small = await createTranslationStudy({ itemCount: 2 });
  participantId = await joinStudy(small.study.slug, `results-${randomBytes(4).toString("hex")}`);
}, 600_000);

afterAll(async () => {
  await closeHeavyPool();
  await disconnectDb();
});

/** One more answered response in the large study (a new participant answering its first item). */
async function addResponse(suffix: string) {
  const pid = `${large.study.id}-extra-${suffix}`;
  await db.participant.create({
    data: { id: pid, studyId: large.study.id, externalId: pid, condition: "static", status: "active", orderSeed: "s" },
  });
  const assignment = await db.assignment.create({
    data: { participantId: pid, itemId: large.itemIds[0]!, position: 1, status: "answered" },
    select: { id: true },
  });
  return db.response.create({
    data: {
      assignmentId: assignment.id,
      participantId: pid,
      studyId: large.study.id,
      itemId: large.itemIds[0]!,
      taskId: "translation",
      taskVersion: 1,
      condition: "static",
      rawAnswer: "move x 3",
      canonicalAnswer: "move x 3",
      exact: 1,
      partial: 1,
      idempotencyKey: `extra-${suffix}`,
    },
    select: { id: true },
  });
}

describe("results of a 200,000-response study", () => {
  it(
    "the paper table is computed in the pool while a participant's session is answered",
    { timeout: 1_200_000 },
    async () => {
      expect(await db.response.count({ where: { studyId: large.study.id } })).toBe(200_000);
      clearResultsCache();
      let done = false;
      const building = buildStudyPaperTables({ studyId: large.study.id }).finally(() => {
        done = true;
      });
      for (let i = 0; i < 60_000 && heavyJobsRunning() === 0 && !done; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heavyJobsRunning()).toBe(1);
      expect(await getParticipantSession(participantId)).not.toBeNull();
      // Answered while the summary was still being computed.
      expect(heavyJobsRunning()).toBe(1);
      expect(done).toBe(false);
      const { tables } = await building;
      expect(tables.map((t) => t.metric)).toEqual(["partial", "exact"]);
    },
  );

  it("is cached until a new answer arrives, then recomputed with it", { timeout: 1_200_000 }, async () => {
    // Fewer bootstrap replicates than the page's 2,000: what is tested here is when a summary is recomputed.
    const results = () => getStudyResults({ studyId: large.study.id, replicates: 200 });
    const first = await results();
    expect(first.nResponses).toBe(200_000);
    const started = heavyJobsStarted();

    // Same responses: no new job, the same numbers.
    const again = await results();
    expect(heavyJobsStarted()).toBe(started);
    expect(again.summary).toEqual(first.summary);

    // A new answer changes the fingerprint: read and computed again, with it.
    const before = (await studyRevision([large.study.id])).key;
    const added = await addResponse("a");
    expect((await studyRevision([large.study.id])).key).not.toBe(before);
    const after = await results();
    expect(after.nResponses).toBe(200_001);
    expect(heavyJobsStarted()).toBe(started + 1);

    // One answer removed and another added (same count): still a new fingerprint, still recomputed.
    const sameCount = (await studyRevision([large.study.id])).key;
    await db.response.delete({ where: { id: added.id } });
    await addResponse("b");
    expect(await db.response.count({ where: { studyId: large.study.id } })).toBe(200_001);
    expect((await studyRevision([large.study.id])).key).not.toBe(sameCount);
    await results();
    expect(heavyJobsStarted()).toBe(started + 2);
  });
});
