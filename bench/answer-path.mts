/**
 * `npm run bench:answer-path [-- --participants 20] [--rounds 3]`
 *
 * The participant flow's data access without the web framework: P participants of a throw-away study run one after
 * another through the whole session in-process (session read, then for every question the shown stamp and the answer
 * submit with the browser's integrity signals, whose response carries the next question), on a real PostgreSQL server. Prints per operation the mean time
 * and database round trips, and the answers per second of one sequential client; repeated `--rounds` times on fresh
 * participants (the first round also warms the connections' prepared statements). Needs a PostgreSQL server
 * (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres).
 *
 * `--start`: instead, the cost of a start (consent accepted: items reserved, assignments written) as the pool grows.
 * Each scenario runs in a child process on a fresh database: a study over 2,000 and over 20,000 items, never analysed
 * (autovacuum is switched off for the database's tables, so no statistics appear meanwhile), and over 20,000 items
 * analysed; then the answers of a few participants of the analysed study. PostgreSQL CPU is read from /proc for the
 * app's backends (a separate monitoring connection is not counted).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { runMigrationCommand } from "../scripts/db.mts";
import { onTestServer } from "../tests/helpers/own-database";
import { SIGNALS } from "./browser-signals.mts";

const { values: args } = parseArgs({
  options: {
    participants: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    start: { type: "boolean", default: false },
    scenario: { type: "string" },
  },
});
const P = Number(args.participants);
const ROUNDS = Number(args.rounds);
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `misi_answer_path_${randomBytes(4).toString("hex")}`;
const url = new URL(SERVER_URL);
url.pathname = `/${DB_NAME}`;
process.env.DATABASE_URL = url.toString();
// The smallest pool: its backends' CPU (read from /proc) is the database's cost of each operation, whatever else runs.
process.env.DATABASE_POOL_MAX = "2";

/** CPU seconds of a process: its run time in nanoseconds from /proc/PID/schedstat (utime + stime of /proc/PID/stat count whole clock ticks). */
function cpuSecondsOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
}

async function answerPath(): Promise<void> {
  await onTestServer(`CREATE DATABASE ${DB_NAME}`);
  try {
    await runMigrationCommand("deploy", { databaseUrl: url.toString(), quiet: true });
    const { disconnectDb, dbPool } = await import("../lib/server/db");
    const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../tests/helpers/study-fixtures");
    const { recordConsent } = await import("../lib/server/participant-flow/record-consent");
    const { getParticipantSession } = await import("../lib/server/participant-flow/get-session");
    const { submitAnswer } = await import("../lib/server/participant-flow/record-response");
    const { markQuestionShown } = await import("../lib/server/participant-flow/question-clock");
    const ITEMS = 20;
    const { study } = await createTranslationStudy({
      itemCount: ITEMS * 3,
      config: { itemsPerTask: ITEMS, answersPerItem: P * ROUNDS + 1 },
    });
    let trips = 0;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
      trips++;
      return (original as (...x: unknown[]) => unknown).apply(this, a);
    } as typeof original;
    for (let round = 1; round <= ROUNDS; round++) {
      const ids: string[] = [];
      for (let i = 0; i < P; i++) {
        const id = await joinStudy(study.slug, `r${round}-p${i}`);
        await recordConsent(id, true, TEST_DEVICE);
        ids.push(id);
      }
      const pids = (
        await dbPool().query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
      ).rows.map((r) => r.pid);
      const dbCpuNow = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
      const zero = () => ({ ms: 0, trips: 0, n: 0, dbCpu: 0, appCpu: 0 });
      const totals = { session: zero(), shown: zero(), answer: zero() };
      const timed = async <T,>(kind: keyof typeof totals, run: () => Promise<T>): Promise<T> => {
        const t0 = performance.now();
        const before = trips;
        const db0 = dbCpuNow();
        const app0 = process.cpuUsage();
        const out = await run();
        totals[kind].ms += performance.now() - t0;
        totals[kind].trips += trips - before;
        totals[kind].dbCpu += dbCpuNow() - db0;
        const app = process.cpuUsage(app0);
        totals[kind].appCpu += (app.user + app.system) / 1e6;
        totals[kind].n++;
        return out;
      };
      // WAL written by the whole server meanwhile (the shared box's other databases included, so an upper bound for
      // this client's); from the insert position, which counts at once (pg_stat_wal's counters lag by seconds).
      const walNow = async () =>
        (await dbPool().query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn")).rows[0]!.lsn;
      const wal0 = await walNow();
      const t0 = performance.now();
      for (const id of ids) {
        let current = (await timed("session", () => getParticipantSession(id)))!.current;
        let n = 0;
        while (current) {
          const assignmentId = current.assignmentId;
          const itemId = current.item.id;
          await timed("shown", () => markQuestionShown(id, assignmentId));
          const out = await timed("answer", () =>
            submitAnswer({
              participantId: id,
              // As the answer route passes them (the token's study, the item the browser names).
              studyId: study.id,
              itemId,
              assignmentId,
              rawAnswer: "move x 1",
              idempotencyKey: `${id}-${n++}`,
              signals: SIGNALS,
            }),
          );
          current = out.update.current;
        }
      }
      const seconds = (performance.now() - t0) / 1000;
      const wal1 = await walNow();
      const walBytes = (
        await dbPool().query<{ d: string }>("SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text AS d", [wal1, wal0])
      ).rows[0]!.d;
      const line = (Object.keys(totals) as Array<keyof typeof totals>)
        .map(
          (k) =>
            `${k} ${(totals[k].ms / totals[k].n).toFixed(2)} ms / ${(totals[k].trips / totals[k].n).toFixed(1)} round trips (CPU: database ${((1000 * totals[k].dbCpu) / totals[k].n).toFixed(2)} ms, app ${((1000 * totals[k].appCpu) / totals[k].n).toFixed(2)} ms)`,
        )
        .join("; ");
      console.log(
        `round ${round}: ${line}; answers/s ${(totals.answer.n / seconds).toFixed(1)} (one sequential client); WAL ${Math.round(Number(walBytes) / totals.answer.n)} bytes per answer (whole server; session reads and shown stamps included)`,
      );
    }
    pg.Client.prototype.query = original;
    // Whether PostgreSQL plans each execution again (custom) or reuses one plan (generic), on one pooled connection.
    const plans = await dbPool().query<{ name: string; generic_plans: string; custom_plans: string }>(
      "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name",
    );
    console.log(
      `plans on one connection: ${plans.rows.map((r) => `${r.name} generic ${r.generic_plans} custom ${r.custom_plans}`).join("; ")}`,
    );
    // Row versions written: an update that is not HOT adds an entry to every index of its table.
    // An idle backend adds its table counters to the view within 10 s (PGSTAT_IDLE_INTERVAL): wait that out.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const tables = await dbPool().query<{ relname: string; ins: string; upd: string; hot: string }>(
      `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables
       WHERE n_tup_ins + n_tup_upd > 0 ORDER BY relname`,
    );
    console.log(
      `rows written: ${tables.rows.map((r) => `${r.relname} inserted ${r.ins}, updated ${r.upd} (HOT ${r.hot})`).join("; ")}`,
    );
    await disconnectDb();
  } finally {
    await onTestServer(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

/** The app's backends of this database, read on a connection of its own (its own pid is left out). */
async function backendPids(monitor: pg.Client): Promise<number[]> {
  const rows = await monitor.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
  );
  return rows.rows.map((r) => r.pid);
}

const START_SCENARIOS = [
  { items: 2000, analyse: false },
  { items: 20000, analyse: false },
  { items: 20000, analyse: true },
] as const;

async function runStartScenarios(): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  const results: Array<{ startMs: number; answerMs: number | null }> = [];
  for (const s of START_SCENARIOS) {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, "--scenario", `${s.items}:${s.analyse ? "analysed" : "never"}`],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const last = out.trim().split("\n").at(-1)!;
    console.log(`  ${s.items} items, ${s.analyse ? "analysed" : "never analysed"}: ${last}`);
    results.push(JSON.parse(last) as { startMs: number; answerMs: number | null });
  }
  const [s1, s2, s3] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]];
  console.log(
    `start: postgres CPU per start ${s1.startMs.toFixed(2)} ms at 2000 items, ${s2.startMs.toFixed(2)} ms at 20000 items (never analysed), ${s3.startMs.toFixed(2)} ms at 20000 items (analysed); answer: postgres CPU per answer ${(s3.answerMs ?? NaN).toFixed(2)} ms`,
  );
}

/**
 * One start scenario ("ITEMS:never" or "ITEMS:analysed") on a fresh database: the items are copied in bulk from one
 * made by the test fixture, the study's counters created, then WARM starts (their statements planned) and MEASURED
 * starts, each a join (not measured) and the consent accepted; the analysed one also answers every question of
 * ANSWERING participants. Prints one JSON line: mean PostgreSQL CPU per start and per answer, ms.
 */
async function startScenario(spec: string): Promise<void> {
  const [itemsText, mode] = spec.split(":");
  const items = Number(itemsText);
  const analyse = mode === "analysed";
  const WARM = 5;
  const MEASURED = 40;
  const ANSWERING = 5;
  await onTestServer(`CREATE DATABASE ${DB_NAME}`);
  const monitor = new pg.Client({ connectionString: url.toString() });
  try {
    await runMigrationCommand("deploy", { databaseUrl: url.toString(), quiet: true });
    await monitor.connect();
    if (!analyse) {
      // Never analysed, whatever the server's autovacuum setting: the bench wants the statistics-free plans.
      const tables = await monitor.query<{ t: string }>(
        "SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public'",
      );
      for (const { t } of tables.rows) await monitor.query(`ALTER TABLE ${t} SET (autovacuum_enabled = off)`);
    }
    const { disconnectDb, db } = await import("../lib/server/db");
    const { createTranslationItem, joinStudy, TEST_DEVICE } = await import("../tests/helpers/study-fixtures");
    const { recordConsent } = await import("../lib/server/participant-flow/record-consent");
    const { ensureStudyCounters } = await import("../lib/server/participant-flow/assign-items");
    const { getParticipantSession } = await import("../lib/server/participant-flow/get-session");
    const { submitAnswer } = await import("../lib/server/participant-flow/record-response");
    const { markQuestionShown } = await import("../lib/server/participant-flow/question-clock");
    const { StudyConfigSchema } = await import("../lib/study-config");
    const template = await createTranslationItem("template");
    await monitor.query(
      `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", "updatedAt")
       SELECT 'bench-' || g, source, "taskId", "taskVersion", question || ' ' || g, payload, "contentHash" || '-' || g, now() FROM "Item" t, generate_series(1, $2::int) g WHERE t.id = $1`,
      [template.id, items],
    );
    await monitor.query(
      `INSERT INTO "AnswerKey" ("itemId", gold, canonical) SELECT 'bench-' || g, gold, canonical FROM "AnswerKey" t, generate_series(1, $2::int) g WHERE t."itemId" = $1`,
      [template.id, items],
    );
    await monitor.query(
      `INSERT INTO "ItemImage" (id, "itemId", position, caption, "mimeType", sha256, data)
       SELECT 'bench-img-' || g, 'bench-' || g, position, caption, "mimeType", sha256, data FROM "ItemImage" t, generate_series(1, $2::int) g WHERE t."itemId" = $1`,
      [template.id, items],
    );
    const config = StudyConfigSchema.parse({ tasks: ["translation"], itemsPerTask: 20, answersPerItem: 3 });
    const pool = await db.pool.create({
      data: { name: "bench", versions: { create: { version: 1, recipe: {}, frozenAt: new Date() } } },
      select: { versions: { select: { id: true } } },
    });
    const poolVersionId = pool.versions[0]!.id;
    await monitor.query(
      `INSERT INTO "PoolItem" ("poolVersionId", "itemId", "taskId") SELECT $1, 'bench-' || g, 'translation' FROM generate_series(1, $2::int) g`,
      [poolVersionId, items],
    );
    const study = await db.study.create({
      data: { slug: "bench-start", name: "bench start", status: "open", poolVersionId, config },
      select: { id: true, slug: true },
    });
    await ensureStudyCounters(study.id, poolVersionId, config.tasks, []);
    if (analyse) await monitor.query("ANALYZE");
    let startCpu = 0;
    const started: string[] = [];
    for (let i = 0; i < WARM + MEASURED; i++) {
      const id = await joinStudy(study.slug, `start-${i}`);
      const pids = await backendPids(monitor);
      const before = pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
      const result = await recordConsent(id, true, TEST_DEVICE);
      const after = (await backendPids(monitor)).reduce(
        (sum, pid) => sum + (pids.includes(pid) ? cpuSecondsOf(pid) : 0),
        0,
      );
      if (!result || result.mainAssigned !== config.itemsPerTask)
        throw new Error(`start ${i}: ${JSON.stringify(result)}`);
      if (i >= WARM) startCpu += after - before;
      started.push(id);
    }
    let answerMs: number | null = null;
    if (analyse) {
      let answerCpu = 0;
      let answers = 0;
      for (const id of started.slice(0, ANSWERING)) {
        let current = (await getParticipantSession(id))!.current;
        let n = 0;
        while (current) {
          const assignmentId = current.assignmentId;
          await markQuestionShown(id, assignmentId);
          const pids = await backendPids(monitor);
          const before = pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
          const out = await submitAnswer({
            participantId: id,
            assignmentId,
            rawAnswer: "move x 1",
            idempotencyKey: `${id}-${n++}`,
          });
          const after = (await backendPids(monitor)).reduce(
            (sum, pid) => sum + (pids.includes(pid) ? cpuSecondsOf(pid) : 0),
            0,
          );
          // The first participant's answers plan the statements.
          if (id !== started[0]) {
            answerCpu += after - before;
            answers++;
          }
          current = out.update.current;
        }
      }
      answerMs = (1000 * answerCpu) / answers;
    }
    await disconnectDb();
    console.log(JSON.stringify({ startMs: (1000 * startCpu) / MEASURED, answerMs }));
  } finally {
    await monitor.end().catch(() => undefined);
    await onTestServer(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

if (args.start && !args.scenario) await runStartScenarios();
else if (args.scenario) await startScenario(args.scenario);
else await answerPath();
