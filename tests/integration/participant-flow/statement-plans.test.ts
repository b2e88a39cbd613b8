// The participant flow's statements on every question and join touch rows of their own participant, never a walk over
// the study: their cost must not grow with the number of participants. These machines run PostgreSQL with autovacuum
// off, so tables are never analysed and a prepared statement's generic plan picks its indexes on no statistics; a
// condition that another index can serve (the study, a status, an item) can then be chosen over the primary key.
// Measured here on a study of 5,000 other active participants with 20 open questions each, 125 of them holding the
// measured participant's current item, in a pool of 1,000 more items of the same task, with each statement's generic
// plan (what a named statement runs after its first five executions). Without its fix, each of these failed:
// the answer's write walked the study's active participants (5,006 rows) and the item's holders (135), the session
// read the task's items (1,010).
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
const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../../helpers/study-fixtures");

const OTHERS = 5_000;

beforeAll(async () => {
  await own.create();
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true });
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  await own.drop();
});

type PlanNode = {
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
/** Rows a node looked at: those it returned and those its filters dropped (EXPLAIN gives both per loop). */
const rowsLookedAt = (n: PlanNode) =>
  (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) *
  n["Actual Loops"];

/** Rows each table's reads looked at in one execution of the statement's generic plan (a write rolled back). */
async function rowsPerTable(c: pg.Client, name: string, params: Array<string | null>): Promise<Record<string, number>> {
  await c.query(`PREPARE measured AS ${statementText(name as Parameters<typeof statementText>[0])}`);
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL plan_cache_mode = force_generic_plan");
    const args = params.map((p) => (p === null ? "NULL" : `'${p.replaceAll("'", "''")}'`)).join(", ");
    const { rows } = await c.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE measured(${args})`,
    );
    const out: Record<string, number> = {};
    for (const n of nodesOf(rows[0]!["QUERY PLAN"][0]!.Plan)) {
      const table = n["Relation Name"];
      if (table) out[table] = (out[table] ?? 0) + rowsLookedAt(n);
    }
    return out;
  } finally {
    await c.query("ROLLBACK");
    await c.query("DEALLOCATE measured");
  }
}

describe("the participant flow's statements look at their participant's rows, not the study's", () => {
  it(`on tables never analysed, with ${OTHERS} other active participants and 1,000 more items`, async () => {
    for (const table of ["Participant", "Assignment", "Item", "Response", "StudyItemCounter"])
      await db.$executeRawUnsafe(`ALTER TABLE "${table}" SET (autovacuum_enabled = false)`);
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 3, answersPerItem: 5 } });
    const id = await joinStudy(study.slug, "measured");
    await recordConsent(id, true, TEST_DEVICE);
    const mine = await db.assignment.findMany({ where: { participantId: id }, orderBy: { position: "asc" } });
    // The others: active and reserved.
    await db.$executeRawUnsafe(
      `INSERT INTO "Participant" (id, "studyId", "externalId", condition, status, "orderSeed", "consentAt", "reservedUntil")
       SELECT 'other-' || g, $1, 'other-' || g, 'static', 'active', 's', now(), now() + interval '1 hour'
       FROM generate_series(1, $2::int) g`,
      study.id,
      OTHERS,
    );
    // 1,000 more active items of the task (another import's); each other participant holds 20 of them, and one in 40
    // holds the measured participant's current item instead of its first: that item's open assignments are a crowd.
    await db.$executeRawUnsafe(
      `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", status, tags, "updatedAt")
       SELECT 'filler-' || g, i.source, i."taskId", i."taskVersion", i.question, i.payload, 'filler-' || g, 'active', i.tags, now()
       FROM "Item" i, generate_series(0, 999) g WHERE i.id = $1`,
      mine[0]!.itemId,
    );
    await db.$executeRawUnsafe(
      `INSERT INTO "Assignment" (id, "participantId", "itemId", position)
       SELECT 'other-' || g || '-' || j, 'other-' || g,
              CASE WHEN j = 0 AND g % 40 = 0 THEN $1 ELSE 'filler-' || ((g + 37 * j) % 1000) END, j
       FROM generate_series(1, $2::int) g, generate_series(0, 19) j`,
      mine[0]!.itemId,
      OTHERS,
    );
    const stats = await db.$queryRawUnsafe<Array<{ relname: string; reltuples: number }>>(
      `SELECT relname, reltuples::float8 AS reltuples FROM pg_class WHERE relname IN ('Participant', 'Assignment', 'Item')`,
    );
    expect(stats.map((s) => s.reltuples)).toEqual([-1, -1, -1]);

    const current = mine[0]!;
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const c = new pg.Client({ connectionString: own.url });
    await c.connect();
    try {
      const measured: Record<string, Record<string, number>> = {
        "enter-read": await rowsPerTable(c, "enter-read", [study.slug, "{}", "PROLIFIC_PID", id]),
        "session-read": await rowsPerTable(c, "session-read", [id, now, "5"]),
        "current-question": await rowsPerTable(c, "current-question", [id, current.id]),
        shown: await rowsPerTable(c, "shown", [id, current.id, now]),
        "grading-context": await rowsPerTable(c, "grading-context", [current.id, id]),
        "submit-read": await rowsPerTable(c, "submit-read", [current.id, id, "no-such-key"]),
        // As the route sends an answer once the process keeps the item (no grading hash or config md5: the plan is
        // the same).
        // prettier-ignore
        "submit-write": await rowsPerTable(c, "submit-write", [
          current.id, id, "r-measured", study.id, current.itemId, "move x 1", "move x 1", "1", "1", "4000", "false",
          now, null, "k-measured", "false", later, JSON.stringify(SIGNALS), "2000", null, null, "true", null,
        ]),
      };
      // The write's plan is the one that stores (not one that found nothing to do): it inserted the response.
      expect(measured["submit-write"]!.Response).toBe(1);
      // A participant's own rows: a few assignments, their items and images, the participant, the study.
      const over = Object.entries(measured).flatMap(([statement, tables]) =>
        Object.entries(tables)
          .filter(([, rows]) => rows > 50)
          .map(([table, rows]) => `${statement}: ${rows} rows of ${table}`),
      );
      expect(over).toEqual([]);
    } finally {
      await c.end();
    }
  }, 120_000);
});
