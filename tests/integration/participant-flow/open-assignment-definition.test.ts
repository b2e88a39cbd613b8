// misi_open_assignments is the one definition of which questions are open and which one is current. This file changes
// that definition, and only it, in a database of its own (the migrate step installs a modified copy of the function
// files) and shows that every caller follows: the session read, the answer submit (its read, its write and the replay),
// the content gate, the shown stamp and the start. Each check runs on the real definition first (the control).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// lib/server/db reads DATABASE_URL when first imported: this file's database, not the suite's.
const own = await vi.hoisted(async () => {
  const { ownDatabase } = await import("../../helpers/own-database");
  return ownDatabase("misi_test_open", { forApp: true });
});

const { runMigrationCommand } = await import("../../../scripts/db.mts");
const { FUNCTIONS_DIR } = await import("../../../scripts/db-functions.mts");
const { db, disconnectDb } = await import("@/lib/server/db");
const { getParticipantSession } = await import("@/lib/server/participant-flow/get-session");
const { submitAnswer } = await import("@/lib/server/participant-flow/record-response");
const { findImageForParticipant } = await import("@/lib/server/participant-flow/get-image");
const { markQuestionShown } = await import("@/lib/server/participant-flow/question-clock");
const { acceptConsent, recordConsent } = await import("@/lib/server/participant-flow/record-consent");
const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../../helpers/study-fixtures");

beforeAll(async () => {
  await own.create();
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true });
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  await own.drop();
});

/** Installs the function files with misi_open_assignments changed so that no assignment is ever open. */
async function installDefinitionWithNothingOpen(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-functions-"));
  const source = path.resolve(import.meta.dirname, "../../..", FUNCTIONS_DIR);
  for (const f of fs.readdirSync(source)) fs.copyFileSync(path.join(source, f), path.join(dir, f));
  const file = path.join(dir, "00_open_assignments.sql");
  const text = fs.readFileSync(file, "utf8");
  const changed = text.replace(
    `WHERE a."participantId" = p_participant_id`,
    `WHERE false AND a."participantId" = p_participant_id`,
  );
  expect(changed).not.toBe(text);
  fs.writeFileSync(file, changed);
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true, functionsDir: dir });
  fs.rmSync(dir, { recursive: true });
}

async function started(
  slug: string,
  pid: string,
): Promise<{ id: string; assignments: Array<{ id: string; imageId: string }> }> {
  const id = await joinStudy(slug, pid);
  await recordConsent(id, true, TEST_DEVICE);
  const rows = await db.assignment.findMany({
    where: { participantId: id },
    orderBy: { position: "asc" },
    select: { id: true, item: { select: { images: { select: { id: true } } } } },
  });
  return { id, assignments: rows.map((r) => ({ id: r.id, imageId: r.item.images[0]!.id })) };
}

const answer = (participantId: string, assignmentId: string, key: string) =>
  submitAnswer({ participantId, assignmentId, rawAnswer: "move x 1", idempotencyKey: key });

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
/** Rows a node looked at: those it returned and those its filters dropped (EXPLAIN gives both per loop). */
const rowsLookedAt = (n: PlanNode) =>
  (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) *
  n["Actual Loops"];

// Runs first: the describe below replaces the definition for the rest of this database's life.
describe("misi_open_assignments plans the same without table statistics", () => {
  it("on an item table never analysed, each open row costs one item lookup, not a scan of the active items", async () => {
    // These machines run PostgreSQL with autovacuum off; switched off here too, so no analyse can come in between.
    await db.$executeRawUnsafe(`ALTER TABLE "Item" SET (autovacuum_enabled = false)`);
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    const planner = await started(study.slug, "planner");
    // 500 more active items (another import's): the old join, planned on no statistics, walked the active items by
    // status for each open row instead of looking each one up by its id.
    await db.$executeRawUnsafe(
      `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", status, tags, "updatedAt")
       SELECT 'filler-' || g, i.source, i."taskId", i."taskVersion", i.question, i.payload, 'filler-' || g, 'active', i.tags, now()
       FROM "Item" i, generate_series(1, 500) g WHERE i.id = (SELECT "itemId" FROM "Assignment" WHERE "participantId" = $1 LIMIT 1)`,
      planner.id,
    );
    const [stats] = await db.$queryRawUnsafe<Array<{ reltuples: number }>>(
      `SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'Item'`,
    );
    expect(stats!.reltuples).toBe(-1);

    const c = new pg.Client({ connectionString: own.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM misi_open_assignments($1)`,
        [planner.id],
      );
      const plan = rows[0]!["QUERY PLAN"];
      const open = planner.assignments.length;
      expect(plan[0]!.Plan["Actual Rows"]).toBe(open);
      const itemReads = nodesOf(plan[0]!.Plan).filter((n) => n["Relation Name"] === "Item");
      expect(itemReads.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Scan", "Item_pkey"]]);
      expect(itemReads.reduce((sum, n) => sum + rowsLookedAt(n), 0)).toBeLessThanOrEqual(open);
      // Nothing joined in a way that drops rows after reading them.
      expect(nodesOf(plan[0]!.Plan).some((n) => (n["Rows Removed by Join Filter"] ?? 0) > 0)).toBe(false);
    } finally {
      await c.end();
    }
  });
});

describe("every participant-flow caller uses misi_open_assignments", () => {
  it("with a definition under which nothing is open, each caller changes its behaviour", async () => {
    const untimed = (await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } }))
      .study;
    const timed = (
      await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5, timeLimitSec: 60 } })
    ).study;
    // 8 items × k = 5 = 40 slots, 4 per participant: one address holds at most two participants' worth.
    const shared = (await createTranslationStudy({ itemCount: 8, config: { itemsPerTask: 4, answersPerItem: 5 } }))
      .study;

    // Controls, on the real definition.
    const reader = await started(untimed.slug, "reader");
    const readerBefore = await getParticipantSession(reader.id);
    expect(readerBefore!.participant.status).toBe("active");
    expect(readerBefore!.current!.assignmentId).toBe(reader.assignments[0]!.id);

    const skipper = await started(untimed.slug, "skipper");
    await expect(answer(skipper.id, skipper.assignments[1]!.id, "skip-control")).rejects.toThrow(
      /not your current question/,
    );

    const replayer = await started(untimed.slug, "replayer");
    const first = await answer(replayer.id, replayer.assignments[0]!.id, "replay-key");
    expect(first.update.current!.assignmentId).toBe(replayer.assignments[1]!.id);

    const finisher = await started(untimed.slug, "finisher");

    const viewer = await started(timed.slug, "viewer");
    await markQuestionShown(viewer.id, viewer.assignments[0]!.id);
    expect("sha256" in ((await findImageForParticipant(viewer.assignments[0]!.imageId, viewer.id)) ?? {})).toBe(true);
    const stamper = await started(timed.slug, "stamper");

    const address = "198.51.100.77";
    const starts = [];
    for (const pid of ["addr-1", "addr-2", "addr-3"])
      starts.push(
        (await acceptConsent(await joinStudy(shared.slug, pid), shared.id, address, TEST_DEVICE)).result?.notStarted ??
          "started",
      );
    expect(starts).toEqual(["started", "started", "address_share"]);

    await installDefinitionWithNothingOpen();

    // Session read: an active participant with assignments but nothing open is complete.
    const readerAfter = await getParticipantSession(reader.id);
    expect(readerAfter!.current).toBeNull();
    expect(readerAfter!.participant.status).toBe("completed");

    // Submit read: no open question comes before the second one, so it may be answered first.
    const skipped = await answer(skipper.id, skipper.assignments[1]!.id, "skip-after");
    expect(skipped.result.status).toBe("stored");

    // Submit write: nothing left open after this answer, so the session ends with it.
    const last = await answer(finisher.id, finisher.assignments[0]!.id, "finish-after");
    expect(last.result.ended).toBe("completed");
    expect(last.update.current).toBeNull();

    // Replay: the stored result, and no next question.
    const replay = await answer(replayer.id, replayer.assignments[0]!.id, "replay-key");
    expect(replay.result.status).toBe("duplicate");
    expect(replay.update.current).toBeNull();

    // Content gate: the shown question is no longer current, so its image is refused.
    expect(await findImageForParticipant(viewer.assignments[0]!.imageId, viewer.id)).toMatchObject({
      refused: expect.stringMatching(/not your current one/),
    });

    // Shown stamp: refused as not current.
    await expect(markQuestionShown(stamper.id, stamper.assignments[0]!.id)).rejects.toThrow(
      /not your current question/,
    );

    // Start: the address's participants hold nothing open, so its share has room again.
    const fourth = await acceptConsent(await joinStudy(shared.slug, "addr-4"), shared.id, address, TEST_DEVICE);
    expect(fourth.result?.notStarted ?? "started").toBe("started");
  });
});
