// The study's capacity rules each have one definition (sql/functions/05_capacity.sql):
// an item has a free slot (misi_slot_free), the study is full (misi_study_full), a reservation has expired
// (misi_reservation_expired) and reservations are released (misi_release_reservations). Each test here changes one
// definition, and only it, in a database of its own (the migrate step installs a modified copy of the function files),
// shows that every caller follows, and puts the real definition back. Each check runs on the real definition first
// (the control).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// lib/server/db reads DATABASE_URL when first imported: this file's database, not the suite's.
const own = await vi.hoisted(async () => {
  const { ownDatabase } = await import("../../helpers/own-database");
  return ownDatabase("misi_test_capacity", { forApp: true });
});

const { runMigrationCommand } = await import("../../../scripts/db.mts");
const { FUNCTIONS_DIR } = await import("../../../scripts/db-functions.mts");
const { db, disconnectDb } = await import("@/lib/server/db");
const { enterStudy } = await import("@/lib/server/participant-flow/enter-study");
const { acceptConsent, recordConsent } = await import("@/lib/server/participant-flow/record-consent");
const { ensureStudyCounters, hasCapacity, reclaimExpiredAssignments } =
  await import("@/lib/server/participant-flow/assign-items");
const { flowQuery } = await import("@/lib/server/participant-flow/flow-sql");
const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../../helpers/study-fixtures");
const { reservedTotal } = await import("./helpers");

beforeAll(async () => {
  await own.create();
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true });
}, 120_000);

// The real definitions again: the migrate step installs the files whose text changed since the last install.
afterEach(async () => {
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true });
});

afterAll(async () => {
  await disconnectDb();
  await own.drop();
});

/** Installs the function files with one text of `file` (05_capacity.sql unless said) replaced. */
async function installChangedDefinition(from: string, to: string, file = "05_capacity.sql"): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-functions-"));
  const source = path.resolve(import.meta.dirname, "../../..", FUNCTIONS_DIR);
  for (const f of fs.readdirSync(source)) fs.copyFileSync(path.join(source, f), path.join(dir, f));
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const changed = text.replace(from, to);
  expect(changed).not.toBe(text);
  fs.writeFileSync(path.join(dir, file), changed);
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true, functionsDir: dir });
  fs.rmSync(dir, { recursive: true });
}

async function consent(slug: string, pid: string) {
  return recordConsent(await joinStudy(slug, pid), true, TEST_DEVICE);
}

describe("every caller uses the capacity rules", () => {
  it("misi_slot_free: with no slot ever free, the capacity check and the start change", async () => {
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    expect(await hasCapacity(study.id)).toBe(true);
    expect((await consent(study.slug, "free-control"))!.mainAssigned).toBe(3);
    const waiting = await joinStudy(study.slug, "free-after");

    await installChangedDefinition("SELECT p_reserved < p_k AND", "SELECT false AND p_reserved < p_k AND");

    expect(await hasCapacity(study.id)).toBe(false);
    expect(await recordConsent(waiting, true, TEST_DEVICE)).toMatchObject({ mainAssigned: 0, notStarted: "no_items" });
  });

  it("misi_study_full: with every study full, the join, the capacity check and the start change", async () => {
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    expect((await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "full-control" } })).kind).toBe("ok");
    expect(await hasCapacity(study.id)).toBe(true);
    const waiting = await joinStudy(study.slug, "full-waiting");

    await installChangedDefinition(
      "SELECT p_max_participants IS NOT NULL AND coalesce(p_started, 0) >= p_max_participants",
      "SELECT true OR p_max_participants IS NOT NULL AND coalesce(p_started, 0) >= p_max_participants",
    );

    expect((await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "full-after" } })).kind).toBe("full");
    expect(await hasCapacity(study.id)).toBe(false);
    expect(await recordConsent(waiting, true, TEST_DEVICE)).toMatchObject({ mainAssigned: 0, notStarted: "full" });
  });

  it("misi_reservation_expired: with every reservation expired, the address share and the reclaim change", async () => {
    // 8 items × k = 5 = 40 slots, 4 per participant: one address holds at most two participants' worth.
    const shared = (await createTranslationStudy({ itemCount: 8, config: { itemsPerTask: 4, answersPerItem: 5 } }))
      .study;
    const address = "198.51.100.78";
    const starts = [];
    for (const pid of ["addr-1", "addr-2", "addr-3"])
      starts.push(
        (await acceptConsent(await joinStudy(shared.slug, pid), shared.id, address, TEST_DEVICE)).result?.notStarted ??
          "started",
      );
    expect(starts).toEqual(["started", "started", "address_share"]);
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    await consent(study.slug, "reclaim-1");
    expect(await reclaimExpiredAssignments(study.id)).toBe(0);

    await installChangedDefinition("SELECT p_reserved_until IS NULL OR", "SELECT true OR p_reserved_until IS NULL OR");

    // The address's participants hold nothing unexpired, so its share has room again.
    const fourth = await acceptConsent(await joinStudy(shared.slug, "addr-4"), shared.id, address, TEST_DEVICE);
    expect(fourth.result?.notStarted ?? "started").toBe("started");
    expect(await reclaimExpiredAssignments(study.id)).toBe(3);
    expect(await reservedTotal(study.id)).toBe(0);
  });

  it("misi_release_reservations: with a release that gives nothing back, the screen-out release and the reclaim change", async () => {
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    for (const pid of ["rel-1", "rel-2", "rel-3", "rel-4"]) await consent(study.slug, pid);
    const [one, two, three, four] = await db.participant.findMany({
      where: { studyId: study.id },
      orderBy: { externalId: "asc" },
      select: { id: true },
    });
    expect(await reservedTotal(study.id)).toBe(12);
    // Controls: a screen-out release and a reclaim each give their 3 slots back.
    await flowQuery("release-unanswered", [one!.id, study.id]);
    expect(await reservedTotal(study.id)).toBe(9);
    await db.participant.update({ where: { id: two!.id }, data: { reservedUntil: new Date(Date.now() - 60_000) } });
    expect(await reclaimExpiredAssignments(study.id)).toBe(3);
    expect(await reservedTotal(study.id)).toBe(6);

    await installChangedDefinition(
      "SET reserved = GREATEST(0, reserved - v_item.n)",
      "SET reserved = reserved + 0 * v_item.n",
    );

    await flowQuery("release-unanswered", [three!.id, study.id]);
    expect(await reservedTotal(study.id)).toBe(6);
    await db.participant.update({ where: { id: four!.id }, data: { reservedUntil: new Date(Date.now() - 60_000) } });
    expect(await reclaimExpiredAssignments(study.id)).toBe(3);
    expect(await reservedTotal(study.id)).toBe(6);
  });
});

describe("misi_release_reservations", () => {
  it("two releases of the same items at once, given in opposite orders, never deadlock and release each slot once", async () => {
    const { study } = await createTranslationStudy({ itemCount: 30, config: { itemsPerTask: 3, answersPerItem: 100 } });
    await consent(study.slug, "release-race");
    const items = (
      await db.studyItemCounter.findMany({
        where: { studyId: study.id },
        orderBy: { itemId: "asc" },
        select: { itemId: true },
      })
    ).map((c) => c.itemId);
    expect(items).toHaveLength(30);
    const connect = async () => {
      const c = new pg.Client({ connectionString: own.url });
      await c.connect();
      return c;
    };
    /**
     * A third transaction holds the middle item while the two releases start, so both are under way (each holds what
     * it locked before reaching that item) when it lets go: releases that lock in the order they were given now hold
     * each other's next item. Returns the releases' outcomes.
     */
    const race = async (): Promise<string[]> => {
      await db.studyItemCounter.updateMany({ where: { studyId: study.id }, data: { reserved: 2 } });
      const [holder, a, b, watcher] = await Promise.all([connect(), connect(), connect(), connect()]);
      try {
        await holder.query("BEGIN");
        await holder.query(`SELECT 1 FROM "StudyItemCounter" WHERE "studyId" = $1 AND "itemId" = $2 FOR UPDATE`, [
          study.id,
          items[15],
        ]);
        const release = async (client: pg.Client, order: string[]) => {
          try {
            await client.query("BEGIN");
            await client.query("SELECT misi_release_reservations($1, $2::text[])", [study.id, order]);
            await client.query("COMMIT");
            return "released";
          } catch (err) {
            await client.query("ROLLBACK");
            return (err as { code?: string }).code === "40P01" ? "deadlock" : String(err);
          }
        };
        const outcomes = Promise.all([release(a, items), release(b, [...items].reverse())]);
        const pids = [a, b].map((c) => (c as unknown as { processID: number }).processID);
        for (;;) {
          const waiting = await watcher.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1) AND wait_event_type = 'Lock'`,
            [pids],
          );
          if (waiting.rows[0].n === 2) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        await holder.query("COMMIT");
        return await outcomes;
      } finally {
        await Promise.all([holder, a, b, watcher].map((c) => c.end()));
      }
    };

    expect(await race()).toEqual(["released", "released"]);
    const counters = await db.studyItemCounter.findMany({ where: { studyId: study.id }, select: { reserved: true } });
    expect(counters.map((c) => c.reserved)).toEqual(Array(30).fill(0));

    // The control: the same race against a release that locks in the order it was given deadlocks.
    await installChangedDefinition(
      'FROM unnest(p_item_ids) AS x(item) GROUP BY x.item ORDER BY x.item COLLATE "default"',
      "FROM unnest(p_item_ids) WITH ORDINALITY AS x(item, ord) GROUP BY x.item ORDER BY min(x.ord)",
    );
    expect((await race()).sort()).toEqual(["deadlock", "released"]);
  });
});

describe("the start's waiting loop", () => {
  it("re-checks the free slot on each row it waited for: items filled meanwhile are replaced, none goes beyond k", async () => {
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 1 } });
    // The counters exist before anyone consents (the first consent creates them otherwise), so they can be held.
    const { poolVersionId } = await db.study.findUniqueOrThrow({
      where: { id: study.id },
      select: { poolVersionId: true },
    });
    await ensureStudyCounters(study.id, poolVersionId, ["translation"], []);
    const holder = new pg.Client({ connectionString: own.url });
    await holder.connect();
    /**
     * Another transaction holds every counter of the study while a participant consents: the rounds that skip held
     * rows find none, so the start waits, on the three items it picked (least reserved, then by rank). The holder
     * fills those three (k = 1) and commits. Returns the items the participant was given and every counter.
     */
    const startWhileHeld = async (pid: string) => {
      await db.studyItemCounter.updateMany({ where: { studyId: study.id }, data: { reserved: 0 } });
      const picked = (
        await db.studyItemCounter.findMany({
          where: { studyId: study.id },
          orderBy: [{ reserved: "asc" }, { rank: "asc" }],
          take: 3,
          select: { itemId: true },
        })
      ).map((c) => c.itemId);
      const participant = await joinStudy(study.slug, pid);
      await holder.query("BEGIN");
      const held = await holder.query(`SELECT 1 FROM "StudyItemCounter" WHERE "studyId" = $1 FOR UPDATE`, [study.id]);
      expect(held.rowCount).toBe(6);
      const started = recordConsent(participant, true, TEST_DEVICE);
      let settled = false;
      void started.finally(() => (settled = true)).catch(() => undefined);
      for (;;) {
        // Not on the holder's connection: a transaction keeps the activity view it first read.
        const rows = await db.$queryRawUnsafe<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%misi_start_participant%'`,
        );
        if (rows[0]!.n > 0) break;
        if (settled) throw new Error(`the start ended without waiting: ${JSON.stringify(await started)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await holder.query(`UPDATE "StudyItemCounter" SET reserved = 1 WHERE "studyId" = $1 AND "itemId" = ANY($2)`, [
        study.id,
        picked,
      ]);
      await holder.query("COMMIT");
      const result = await started;
      const given = await db.assignment.findMany({ where: { participantId: participant }, select: { itemId: true } });
      const counters = await db.studyItemCounter.findMany({ where: { studyId: study.id }, select: { reserved: true } });
      return { result, picked, given: given.map((a) => a.itemId), reserved: counters.map((c) => c.reserved) };
    };
    try {
      const control = await startWhileHeld("wait-control");
      expect(control.result!.mainAssigned).toBe(3);
      expect(control.given.filter((item) => control.picked.includes(item))).toEqual([]);
      expect(control.reserved).toEqual(Array(6).fill(1));

      await installChangedDefinition(
        "THEN true ELSE false END;",
        "THEN true ELSE true END;",
        "40_start_participant.sql",
      );
      const unchecked = await startWhileHeld("wait-unchecked");
      expect(unchecked.given.sort()).toEqual([...unchecked.picked].sort());
      expect(Math.max(...unchecked.reserved)).toBe(2);
    } finally {
      await holder.end();
    }
  });
});
