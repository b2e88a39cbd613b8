/**
 * `npm run bench:answer-path [-- --participants 20] [--rounds 3]`
 *
 * The participant flow's data access without the web framework: P participants of a throw-away study run one after
 * another through the whole session in-process (session read, then for every question the shown stamp and the answer
 * submit, whose response carries the next question), on a real PostgreSQL server. Prints per operation the mean time
 * and database round trips, and the answers per second of one sequential client; repeated `--rounds` times on fresh
 * participants (the first round also warms the connections' prepared statements). Needs a PostgreSQL server
 * (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { runMigrationCommand } from "../scripts/db.mts";

const { values: args } = parseArgs({ options: { participants: { type: "string", default: "20" }, rounds: { type: "string", default: "3" } } });
const P = Number(args.participants);
const ROUNDS = Number(args.rounds);
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `misi_answer_path_${randomBytes(4).toString("hex")}`;
const url = new URL(SERVER_URL);
url.pathname = `/${DB_NAME}`;
process.env.DATABASE_URL = url.toString();
// The smallest pool: its backends' CPU (read from /proc) is the database's cost of each operation, whatever else runs.
process.env.DATABASE_POOL_MAX = "2";

/** CPU seconds of a process (utime + stime, /proc/PID/stat). */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

await admin(`CREATE DATABASE ${DB_NAME}`);
try {
  await runMigrationCommand("deploy", { databaseUrl: url.toString(), quiet: true });
  const { disconnectDb, dbPool } = await import("../lib/server/db");
  const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../tests/helpers/study-fixtures");
  const { recordConsent } = await import("../lib/server/dal/participant/record-consent");
  const { getParticipantSession } = await import("../lib/server/dal/participant/get-session");
  const { submitAnswer } = await import("../lib/server/dal/scoring/record-response");
  const { markQuestionShown } = await import("../lib/server/dal/timing/question-clock");
  const ITEMS = 20;
  const { study } = await createTranslationStudy({ itemCount: ITEMS * 3, config: { itemsPerTask: ITEMS, answersPerItem: P * ROUNDS + 1 } });
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
    const pids = (await dbPool().query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")).rows.map((r) => r.pid);
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
    const t0 = performance.now();
    for (const id of ids) {
      let current = (await timed("session", () => getParticipantSession(id)))!.current;
      let n = 0;
      while (current) {
        const assignmentId = current.assignmentId;
        await timed("shown", () => markQuestionShown(id, assignmentId));
        const out = await timed("answer", () => submitAnswer({ participantId: id, assignmentId, rawAnswer: "move x 1", idempotencyKey: `${id}-${n++}` }));
        current = out.update.current;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const line = (Object.keys(totals) as Array<keyof typeof totals>)
      .map(
        (k) =>
          `${k} ${(totals[k].ms / totals[k].n).toFixed(2)} ms / ${(totals[k].trips / totals[k].n).toFixed(1)} round trips (CPU: database ${((1000 * totals[k].dbCpu) / totals[k].n).toFixed(2)} ms, app ${((1000 * totals[k].appCpu) / totals[k].n).toFixed(2)} ms)`,
      )
      .join("; ");
    console.log(`round ${round}: ${line}; answers/s ${(totals.answer.n / seconds).toFixed(1)} (one sequential client)`);
  }
  pg.Client.prototype.query = original;
  await disconnectDb();
} finally {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
}
