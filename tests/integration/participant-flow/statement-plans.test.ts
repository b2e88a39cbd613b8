// The participant flow's statements on every question and join, and those a session runs once (the capacity check, a
// wrong attention check, a screen-out and its release), touch rows of their own participant, never a walk over the
// study or the pool: their cost must not grow with the number of participants or items. PostgreSQL may run with
// autovacuum off (these machines' shared server does; here it is switched off per table), so tables are never analysed
// and a prepared statement's generic plan picks its indexes on no statistics; a condition that another index can serve (the study, a status, an item, a task) can then
// be chosen over the primary key. A pooled connection plans a named statement once and keeps the plan: one made while
// a study was small (a launch's first minutes) is still run when it is large.
//
// Measured here on a study of 5,000 other active participants with 20 questions each (half answered, with their
// responses), 125 of them holding the measured participant's current item, in a pool of 1,000 more items of the same
// task: first with nothing answered, then with half of everyone's questions answered and the measured participant at
// their second. Each statement runs in a transaction rolled back, its generic plan made on a connection that planned it
// while the study held only the measured participant, and on connections made at each later size. What it read is
// counted by PostgreSQL itself, per table: rows fetched through indexes (bitmap scans included) and read by sequential
// scans, and entries read from the table's indexes (index-only scans included); the reads of the functions it calls too.
// Without its fix, each failed: the answer's write walked the study's active participants (5,006 rows) and the item's
// holders, the session read the task's items, the join's lookups the study's participants, and the screen-out's
// release the study's counters.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SIGNALS } from "../../../bench/browser-signals.mts";

// lib/server/db reads DATABASE_URL when first imported: this file's database, not the suite's.
const own = await vi.hoisted(async () => {
  const { ownDatabase } = await import("../../helpers/own-database");
  return ownDatabase("misi_test_plans", { forApp: true });
});

const { runMigrationCommand } = await import("../../../scripts/db.mts");
const { db, disconnectDb } = await import("@/lib/server/db");
const { statementText } = await import("@/lib/server/participant-flow/flow-sql");
const { recordConsent } = await import("@/lib/server/participant-flow/record-consent");
const { submitAnswer } = await import("@/lib/server/participant-flow/record-response");
const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../../helpers/study-fixtures");

type Statement = Parameters<typeof statementText>[0];
const OTHERS = 5_000;
const BOUND = 50;

beforeAll(async () => {
  await own.create();
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true });
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  await own.drop();
});

/**
 * What this backend has read, counted but not yet reported (counts of earlier transactions not yet flushed included:
 * only differences mean anything): per table, rows fetched and read, and, apart, entries read from its indexes.
 */
async function rowsRead(c: pg.Client): Promise<Map<string, number>> {
  const { rows } = await c.query<{ relname: string; rows: string; entries: string }>(
    `SELECT t.relname, (coalesce(t.idx_tup_fetch, 0) + coalesce(t.seq_tup_read, 0))::text AS rows,
            (SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(i.indexrelid)), 0) FROM pg_index i
             WHERE i.indrelid = t.relid)::text AS entries
     FROM pg_stat_xact_user_tables t`,
  );
  return new Map(
    rows.flatMap((r) => [
      [`rows of ${r.relname}`, Number(r.rows)],
      [`index entries of ${r.relname}`, Number(r.entries)],
    ]),
  );
}

/** Runs a prepared statement in a transaction rolled back: the rows it read per table, and its result. */
async function measure(
  c: pg.Client,
  name: Statement,
  params: Array<string | null>,
): Promise<{ read: Map<string, number>; result: Array<Record<string, unknown>> }> {
  await c.query("BEGIN");
  try {
    const before = await rowsRead(c);
    const result = await c.query({ name: `plans_${name}`, text: statementText(name), values: params });
    const after = await rowsRead(c);
    return {
      read: new Map([...after].map(([table, n]) => [table, n - (before.get(table) ?? 0)])),
      result: result.rows,
    };
  } finally {
    await c.query("ROLLBACK");
  }
}

async function connect(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: own.url });
  await c.connect();
  // A named statement's plan from its first execution on: what the app's connections run after their first five.
  await c.query("SET plan_cache_mode = force_generic_plan");
  return c;
}

type Step = [label: string, name: Statement, params: Array<string | null>];

/** Every statement of a join and a question, for a participant whose current question is `current`. */
function steps(
  study: { id: string; slug: string },
  id: string,
  starter: string,
  current: { id: string; itemId: string },
  answered: { id: string } | null,
): Step[] {
  const now = new Date().toISOString();
  const later = new Date(Date.now() + 3_600_000).toISOString();
  return [
    ["join by cookie", "enter-read", [study.slug, "{}", "PROLIFIC_PID", id]],
    [
      "join by external id",
      "enter-read",
      [study.slug, JSON.stringify({ PROLIFIC_PID: "other-7" }), "PROLIFIC_PID", null],
    ],
    ["session read", "session-read", [id, now, "5"]],
    ["content gate", "current-question", [id, current.id]],
    ["shown stamp", "shown", [id, current.id, now]],
    ["primer seen", "primer-seen", [id, now]],
    ["grading context", "grading-context", [current.id, id]],
    ["submit read", "submit-read", [current.id, id, "no-such-key"]],
    ["replay's progress", "submit-update", [id]],
    ...(answered
      ? ([["replay's signals", "store-signals", [answered.id, id, JSON.stringify(SIGNALS), "2000"]]] as Step[])
      : []),
    // As the route sends an answer once the process keeps the item (no grading hash or config md5: the plan is the
    // same).
    // prettier-ignore
    ["answer write", "submit-write", [
      current.id, id, "r-measured", study.id, current.itemId, "move x 1", "move x 1", "1", "1", "4000", "false",
      now, null, "k-measured", "false", later, JSON.stringify(SIGNALS), "2000", null, null, "true", null,
    ]],
    // Once per session, not per question: the capacity check before a start, a wrong attention check, a device the
    // study does not take, and the screen-out's release of the unanswered questions.
    ["capacity check", "has-capacity", [study.id, "{translation}", "5", "{}", null]],
    ["attention failure", "attention-failure", [id, "{}", "false", now]],
    // The measured participant is active, so this one changes nothing: it reads what it would change.
    ["device screen-out", "screen-out-device", [id, now, null, "device"]],
    ["screen-out release", "release-unanswered", [id, study.id]],
    // A start: another participant's, who has joined and not yet consented, from an address of its own.
    // prettier-ignore
    ["start", "start", [
      starter, study.id, "{translation}", "3", "5", null, "{}", "seed", "{1,1,1}", "{1,2,3}", "{NULL,NULL,NULL}",
      "{main,main,main}", later, now, null, "false", "addr-starter", "0.25", "{static}",
    ]],
  ];
}

/**
 * Each step on each connection: what read more than BOUND rows or index entries of a table. Each step must also do its
 * work: the join finds the participant (by external id once the others exist), the session read the current question,
 * the write stores the answer.
 */
async function overBound(
  connections: Array<[string, pg.Client]>,
  list: Step[],
  expected: { participantId: string; current: { id: string }; byExternal: string | null },
) {
  const over: string[] = [];
  for (const [connection, c] of connections) {
    for (const [label, name, params] of list) {
      const { read, result } = await measure(c, name, params);
      for (const [table, rows] of read) if (rows > BOUND) over.push(`${label} (${connection}): ${rows} ${table}`);
      if (label === "join by cookie") expect(result[0]!.by_cookie).toBe(expected.participantId);
      if (label === "join by external id") expect(result[0]!.by_external).toBe(expected.byExternal);
      if (name === "session-read") expect(result[0]!.nextId).toBe(expected.current.id);
      if (name === "submit-write") expect(result[0]!.responseId).toBe("r-measured");
      if (name === "has-capacity") expect(result[0]!.capacity).toBe(true);
      if (name === "release-unanswered") expect(result[0]!.released).toBeGreaterThan(0);
      if (name === "start") expect(result[0]).toMatchObject({ outcome: "started", main_assigned: 3 });
    }
  }
  return over;
}

describe("the participant flow's statements look at their participant's rows, not the study's", () => {
  it(`on tables never analysed, planned small and measured with ${OTHERS} other participants`, async () => {
    for (const table of ["Participant", "Assignment", "Item", "Response", "StudyItemCounter", "AnswerSignals"])
      await db.$executeRawUnsafe(`ALTER TABLE "${table}" SET (autovacuum_enabled = false)`);
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    const id = await joinStudy(study.slug, "measured");
    const starter = await joinStudy(study.slug, "starter");
    await recordConsent(id, true, TEST_DEVICE);
    const mine = await db.assignment.findMany({ where: { participantId: id }, orderBy: { position: "asc" } });
    const [first, second] = [mine[0]!, mine[1]!];

    const connections: Array<[string, pg.Client]> = [];
    try {
      // Planned while the study holds the measured participant alone.
      connections.push(["planned small", await connect()]);
      await overBound(connections, steps(study, id, starter, first, null), {
        participantId: id,
        current: first,
        byExternal: null,
      });

      // The study grows: 5,000 more active participants, each with 20 open questions, over a pool of 1,000 more
      // active items of the task (another import's); one in 40 holds the measured participant's current item instead
      // of its first, so that item's open assignments are a crowd.
      await db.$executeRawUnsafe(
        `INSERT INTO "Participant" (id, "studyId", "externalId", condition, status, "orderSeed", "consentAt", "reservedUntil", "addressKey")
         SELECT 'other-' || g, $1, 'other-' || g, 'static', 'active', 's', now(), now() + interval '1 hour', 'addr-' || (g % 50)
         FROM generate_series(1, $2::int) g`,
        study.id,
        OTHERS,
      );
      await db.$executeRawUnsafe(
        `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", status, tags, "updatedAt")
         SELECT 'filler-' || g, i.source, i."taskId", i."taskVersion", i.question, i.payload, 'filler-' || g, 'active', i.tags, now()
         FROM "Item" i, generate_series(0, 999) g WHERE i.id = $1`,
        first.itemId,
      );
      // The study's pool is those items too: a counter each, full (k = 5) but for the last ten written.
      await db.$executeRawUnsafe(
        `INSERT INTO "StudyItemCounter" ("studyId", "itemId", "taskId", reserved)
         SELECT $1, 'filler-' || g, 'translation', CASE WHEN g >= 990 THEN 0 ELSE 5 END FROM generate_series(0, 999) g`,
        study.id,
      );
      const crowd = (itemId: string, position: number) =>
        db.$executeRawUnsafe(
          `INSERT INTO "Assignment" (id, "participantId", "itemId", position)
           SELECT 'other-' || g || '-' || j, 'other-' || g,
                  CASE WHEN j = $3::int AND g % 40 = 0 THEN $1 ELSE 'filler-' || ((g + 37 * j) % 1000) END, j
           FROM generate_series(1, $2::int) g, generate_series(0, 19) j
           ON CONFLICT DO NOTHING`,
          itemId,
          OTHERS,
          position,
        );
      await crowd(first.itemId, 0);
      // Never analysed (reltuples -1), whatever the server's autovacuum setting.
      const stats = await db.$queryRawUnsafe<Array<{ relname: string; reltuples: number }>>(
        `SELECT relname, reltuples::float8 AS reltuples FROM pg_class
         WHERE relname IN ('Participant', 'Assignment', 'Item', 'Response', 'StudyItemCounter', 'AnswerSignals')
         ORDER BY relname`,
      );
      expect(stats.map((s) => [s.relname, s.reltuples])).toEqual(
        ["AnswerSignals", "Assignment", "Item", "Participant", "Response", "StudyItemCounter"].map((t) => [t, -1]),
      );
      connections.push(["planned large", await connect()]);
      const expected = { participantId: id, current: first, byExternal: "other-7" };
      const over = await overBound(connections, steps(study, id, starter, first, null), expected);

      // Later: half of everyone's questions answered, with their responses; the measured participant has answered
      // the first and is at the second, which a crowd holds too.
      await db.$executeRawUnsafe(
        `UPDATE "Assignment" SET "itemId" = $1 WHERE "participantId" LIKE 'other-%' AND position = 1
           AND substr("participantId", 7)::int % 40 = 0`,
        second.itemId,
      );
      await db.$executeRawUnsafe(
        `UPDATE "Assignment" SET status = 'answered' WHERE "participantId" LIKE 'other-%' AND position >= 10`,
      );
      await db.$executeRawUnsafe(
        `INSERT INTO "Response" (id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", condition,
                                 "rawAnswer", "canonicalAnswer", exact, partial, "idempotencyKey")
         SELECT 'r-' || a.id, a.id, a."participantId", $1, a."itemId", 'translation', 1, 'static', 'move x 1', 'move x 1', 1, 1, 'k-' || a.id
         FROM "Assignment" a WHERE a.status = 'answered' AND a.id LIKE 'other-%'`,
        study.id,
      );
      await submitAnswer({
        participantId: id,
        assignmentId: first.id,
        rawAnswer: "move x 1",
        idempotencyKey: "first",
        signals: SIGNALS,
      });
      connections.push(["planned later", await connect()]);
      over.push(
        ...(await overBound(connections, steps(study, id, starter, second, first), { ...expected, current: second })),
      );
      expect(over).toEqual([]);
    } finally {
      for (const [, c] of connections) await c.end();
    }
  }, 120_000);
});
