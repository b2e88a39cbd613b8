/**
 * `npm run bench:plans [-- --participants 5000] [--per-participant 20]`
 *
 * Query plans of the participant flow's lookups on a study with many open assignments of other participants, as
 * PostgreSQL runs them here: autovacuum off (so never analyzed unless a person runs ANALYZE, and dead rows stay), plans
 * generic as a prepared statement's become. A throw-away database gets N participants × M open assignments; the
 * participant measured has answered half of theirs, each answer leaving a dead row version behind, and so does every
 * other participant's first answer. Then EXPLAIN (ANALYZE, BUFFERS) of:
 * - the open-assignment lookup without the partial index (the predicate the statements used before
 *   misi_open_assignments, with the indexes the schema had) and through misi_open_assignments with its index;
 * - the session read, submit read and content gate statements (sql/statements) of the measured participant;
 * - the rate-limit count (misi_rate_limit_count's count) over a SignInAttempt table of other keys' events, as a join
 *   over the unnested rules and as a per-rule index range.
 * Prints, per plan, the index used, shared buffers hit/read and execution time. Needs a PostgreSQL server
 * (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { runMigrationCommand } from "../scripts/db.mts";
import { onTestServer } from "../tests/helpers/own-database";
import { statementText } from "../lib/server/participant-flow/flow-sql";

const { values: args } = parseArgs({
  options: {
    participants: { type: "string", default: "5000" },
    "per-participant": { type: "string", default: "20" },
    "sign-in-events": { type: "string", default: "200000" },
    // Also print the whole plan (EXPLAIN's text form) of the statements whose label contains this.
    show: { type: "string" },
  },
});
const N = Number(args.participants);
const M = Number(args["per-participant"]);
const EVENTS = Number(args["sign-in-events"]);
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `misi_plans_${randomBytes(4).toString("hex")}`;
const dbUrl = (() => {
  const u = new URL(SERVER_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();
const log = (m: string) => process.stdout.write(`${m}\n`);

async function seed(c: pg.Client): Promise<string> {
  const items = M * 100;
  await c.query("BEGIN");
  await c.query(`INSERT INTO "Pool" (id, name) VALUES ('pool', 'plans')`);
  await c.query(`INSERT INTO "PoolVersion" (id, "poolId", version, recipe) VALUES ('pv', 'pool', 1, '{}')`);
  await c.query(
    `INSERT INTO "Study" (id, slug, name, status, "poolVersionId", config) VALUES ('study', 'plans', 'Plans', 'open', 'pv', '{}')`,
  );
  await c.query(
    `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", "updatedAt")
     SELECT 'item-' || g, 'generated', 'translation', 1, 'q', '{}', 'h-' || g, now() FROM generate_series(0, $1::int - 1) g`,
    [items],
  );
  await c.query(
    `INSERT INTO "Participant" (id, "studyId", "externalId", condition, status, "orderSeed", "consentAt", "reservedUntil")
     SELECT 'p-' || g, 'study', 'x-' || g, 'static', 'active', 's', now(), now() + interval '1 hour'
     FROM generate_series(0, $1::int) g`,
    [N],
  );
  // Participant p holds items (p + 100 j) mod items at positions j: distinct within a participant.
  await c.query(
    `INSERT INTO "Assignment" (id, "participantId", "itemId", position)
     SELECT 'a-' || p || '-' || j, 'p-' || p, 'item-' || ((p + 100 * j) % $2::int), j
     FROM generate_series(0, $1::int) p, generate_series(0, $3::int - 1) j`,
    [N, items, M],
  );
  // What the answer's write grades against and counts in (submit-write.sql).
  await c.query(`INSERT INTO "AnswerKey" ("itemId", gold, canonical) SELECT id, '{}', 'move x 1' FROM "Item"`);
  await c.query(
    `INSERT INTO "StudyItemCounter" ("studyId", "itemId", "taskId", reserved) SELECT 'study', id, 'translation', 1 FROM "Item"`,
  );
  await c.query("COMMIT");
  // Answers leave dead row versions (no vacuum runs): everyone's first, and half of the measured participant's.
  await c.query(`UPDATE "Assignment" SET status = 'answered' WHERE position = 0`);
  await c.query(`UPDATE "Assignment" SET status = 'answered' WHERE "participantId" = 'p-0' AND position < $1::int`, [
    M / 2,
  ]);
  await c.query(
    `INSERT INTO "SignInAttempt" ("key", "at") SELECT 'join:addr-' || (g % 5000), now() - (g % 3000) * interval '1 minute' FROM generate_series(1, $1::int) g`,
    [EVENTS],
  );
  await c.query(
    `INSERT INTO "SignInAttempt" ("key", "at") SELECT 'consent:addr-measured', now() - g * interval '1 minute' FROM generate_series(1, 5) g`,
  );
  return "p-0";
}

interface PlanFigures {
  indexes: string[];
  hit: number;
  read: number;
  rows: number;
  ms: number;
}

function figures(plan: Record<string, unknown>): PlanFigures {
  const indexes = new Set<string>();
  let rows = 0;
  const walk = (node: Record<string, unknown>) => {
    if (typeof node["Index Name"] === "string") indexes.add(`${node["Node Type"]} ${node["Index Name"]}`);
    if (node["Node Type"] === "Seq Scan") indexes.add(`Seq Scan ${node["Relation Name"]}`);
    if (typeof node["Relation Name"] === "string")
      rows +=
        Number(node["Actual Rows"] ?? 0) * Number(node["Actual Loops"] ?? 1) +
        Number(node["Rows Removed by Filter"] ?? 0);
    for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
  };
  const top = plan.Plan as Record<string, unknown>;
  walk(top);
  return {
    indexes: [...indexes],
    hit: Number(top["Shared Hit Blocks"] ?? 0),
    read: Number(top["Shared Read Blocks"] ?? 0),
    rows,
    ms: Number(plan["Execution Time"]),
  };
}

const showsPlan = (label: string) => args.show !== undefined && label.includes(args.show);

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a prepared statement's generic plan (what a named statement runs after 5 calls). A
 * statement that writes (`writes`) runs each time in a transaction rolled back, so both runs write the same rows.
 */
async function explain(
  c: pg.Client,
  label: string,
  sql: string,
  params: Array<string | null>,
  writes = false,
): Promise<void> {
  const name = `plan_${Math.random().toString(36).slice(2, 8)}`;
  const args = params.map((p) => (p === null ? "NULL" : `'${p}'`)).join(", ");
  await c.query(`PREPARE ${name} AS ${sql}`);
  await c.query(`SET plan_cache_mode = force_generic_plan`);
  // Twice: the first run also marks the dead index entries it meets (what a running system has done long ago).
  if (writes) await c.query("BEGIN");
  await c.query(`EXECUTE ${name}(${args})`);
  if (writes) await c.query("ROLLBACK; BEGIN");
  const { rows } = await c.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${name}(${args})`);
  if (showsPlan(label)) {
    if (writes) await c.query("ROLLBACK; BEGIN");
    const text = await c.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE ${name}(${args})`);
    log(text.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
  }
  if (writes) await c.query("ROLLBACK");
  await c.query(`DEALLOCATE ${name}`);
  await c.query(`RESET plan_cache_mode`);
  const f = figures((rows[0]["QUERY PLAN"] as Array<Record<string, unknown>>)[0]!);
  log(
    `${label}: ${f.indexes.join(", ")}; buffers hit ${f.hit} read ${f.read}; table rows visited ${f.rows}; ${f.ms.toFixed(3)} ms`,
  );
}

const OLD_OPEN = `SELECT x.id, x.position FROM "Assignment" x JOIN "Item" xi ON xi.id = x."itemId"
  WHERE x."participantId" = $1 AND x.status = 'assigned' AND xi.status = 'active' ORDER BY x.position LIMIT 1`;
const NEW_OPEN = `SELECT o.id, o.position FROM misi_open_assignments($1) o ORDER BY o.position LIMIT 1`;
const OLD_OPEN_ALL = `SELECT count(*) FROM "Assignment" x JOIN "Item" xi ON xi.id = x."itemId"
  WHERE x."participantId" = $1 AND x.status = 'assigned' AND xi.status = 'active'`;
const NEW_OPEN_ALL = `SELECT count(*) FROM misi_open_assignments($1)`;
// The rules arrive as array parameters, as misi_rate_limit_count gets them.
const RULES = `unnest($1::text[], $2::timestamp(3)[]) WITH ORDINALITY AS r(k, since, ord)`;
const OLD_COUNT = `SELECT r.ord, count(s.id)::int, min(s."at") FROM ${RULES} LEFT JOIN "SignInAttempt" s ON s."key" = r.k AND s."at" > r.since GROUP BY r.ord`;
const NEW_COUNT = `SELECT r.ord, n.cnt, n.oldest FROM ${RULES} CROSS JOIN LATERAL (
  SELECT count(*)::int AS cnt, min(s."at") AS oldest FROM "SignInAttempt" s WHERE s."key" = r.k AND s."at" > r.since) n`;
const hourAgo = new Date(Date.now() - 3600_000).toISOString().replace("T", " ").replace("Z", "");
const RULE_PARAMS = ["{consent:addr-measured,consent:study}", `{"${hourAgo}","${hourAgo}"}`];

async function main() {
  log(
    `bench:plans: ${N} other participants × ${M} assignments (first of each answered), the measured one with ${M / 2} answered; ${EVENTS} sign-in events; database ${DB_NAME}`,
  );
  await onTestServer(`CREATE DATABASE ${DB_NAME}`);
  const c = new pg.Client({ connectionString: dbUrl });
  try {
    await runMigrationCommand("deploy", { databaseUrl: dbUrl, quiet: true });
    await c.connect();
    const t0 = performance.now();
    const participant = await seed(c);
    log(
      `seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; open assignments study-wide ${(await c.query(`SELECT count(*)::int AS n FROM "Assignment" WHERE status = 'assigned'`)).rows[0].n}`,
    );
    await c.query("BEGIN");
    await c.query(`DROP INDEX "Assignment_open_participantId_position_idx"`);
    await explain(c, "before: current question (old predicate, no partial index)", OLD_OPEN, [participant]);
    await explain(c, "before: open assignments (old predicate, no partial index)", OLD_OPEN_ALL, [participant]);
    await c.query("ROLLBACK");
    await explain(c, "after:  current question (misi_open_assignments)", NEW_OPEN, [participant]);
    await explain(c, "after:  open assignments (misi_open_assignments)", NEW_OPEN_ALL, [participant]);
    // The participant flow's statements as the app runs them (sql/statements), for the measured participant.
    const now = new Date().toISOString();
    await explain(c, "after:  session read statement", statementText("session-read"), [participant, now, "5"]);
    await explain(c, "after:  submit read statement", statementText("submit-read"), [
      `a-0-${M - 1}`,
      participant,
      "no-such-key",
    ]);
    await explain(c, "after:  content gate statement", statementText("current-question"), [
      participant,
      `a-0-${M - 1}`,
    ]);
    await explain(c, "after:  join statement (by cookie)", statementText("enter-read"), [
      "plans",
      "{}",
      "PROLIFIC_PID",
      participant,
    ]);
    await explain(c, "after:  join statement (by external id)", statementText("enter-read"), [
      "plans",
      JSON.stringify({ PROLIFIC_PID: "x-0" }),
      "PROLIFIC_PID",
      null,
    ]);
    await explain(c, "after:  grading context statement", statementText("grading-context"), [
      `a-0-${M / 2}`,
      participant,
    ]);
    await explain(c, "after:  shown statement", statementText("shown"), [participant, `a-0-${M / 2}`, now], true);
    // The answer's write for the measured participant's current question (position M/2), as the route sends it once the
    // process keeps the item (decision 12), without the grading hash and config md5 (the values do not change the plan).
    const current = M / 2;
    const items = M * 100;
    const later = new Date(Date.now() + 3600_000).toISOString();
    // prettier-ignore
    await explain(c, "after:  answer write statement", statementText("submit-write"), [
      `a-0-${current}`, participant, "r-measured", "study", `item-${(100 * current) % items}`, "move x 1", "move x 1",
      "1", "1", "4000", "false", now, null, "k-measured", "false", later,
      JSON.stringify({ hiddenMs: 0, blurMs: 0, blurCount: 0, pasteCount: 0, copyCount: 0, webdriver: false, device: {} }),
      "2000", null, null, "true", null,
    ], true);
    await explain(c, "before: rate-limit count (join over the rules)", OLD_COUNT, RULE_PARAMS);
    await explain(c, "after:  rate-limit count (per-rule index range)", NEW_COUNT, RULE_PARAMS);
  } finally {
    await c.end().catch(() => {});
    await onTestServer(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

await main();
