// Benchmark (not a test): stream the long-format responses export of 1,000,000 responses.
//   npm run bench:export [-- --rows 1000000 --keep]
// Creates a scratch database misi_bench_<random> on TEST_DATABASE_URL's server (default: local
// PostgreSQL), migrates it, fills it with INSERT … SELECT generate_series, streams the export to
// /dev/null through the same code as the route handler (in a fresh child process per run, so the
// fill does not count), prints rows/s and peak memory, and drops the database (unless --keep).
// Target: peak RSS under 300 MB with default flags (the worker-thread path).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { runMigrationCommand } from "../scripts/db.mts";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const ITEMS = 500;
const RSS_SAMPLE_MS = 50;
const TARGET_RSS_MB = 300;
const MB = 1024 * 1024;
/** Old-generation cap of the second run, MB: far above what one page of rows needs. */
const CAPPED_OLD_SPACE_MB = 128;
const TASKS = ["translation", "rotation", "zooming", "residue_ligand", "translation_rotation", "rotation_rotation", "docking", "interaction_location", "pocket_ligand"];

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    keep: { type: "boolean", default: false },
    // Internal: run only the export against an existing database (the measured child process).
    "stream-only": { type: "string" },
  },
});

interface RunFigures {
  rows: number;
  bytes: number;
  seconds: number;
  baselineRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  maxRssMb: number;
}

/** Streams the export to /dev/null in this process and prints one JSON line of figures. */
async function streamOnly(databaseUrl: string): Promise<void> {
  // lib/server/db reads DATABASE_URL when first imported, so the import waits until now.
  process.env.DATABASE_URL = databaseUrl;
  const { openStudyExport } = await import("@/lib/server/export/open-study-export");
  const { db, disconnectDb } = await import("@/lib/server/db");
  await db.$queryRaw`SELECT 1`;
  const baselineRssMb = process.memoryUsage().rss / MB;
  let peakRssMb = baselineRssMb;
  let peakHeapMb = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRssMb = Math.max(peakRssMb, m.rss / MB);
    peakHeapMb = Math.max(peakHeapMb, m.heapUsed / MB);
  }, RSS_SAMPLE_MS);
  let lines = 0;
  let bytes = 0;
  const t0 = performance.now();
  const opened = await openStudyExport({ studyId: "bench-study", kind: "responses" });
  opened.stream.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  });
  await pipeline(opened.stream, fs.createWriteStream("/dev/null"));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / MB);
  await disconnectDb();
  const figures: RunFigures = { rows: lines - 1, bytes, seconds, baselineRssMb, peakRssMb, peakHeapMb, maxRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

async function fill(databaseUrl: string, rows: number, participants: number): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const t0 = performance.now();
  await client.query(`INSERT INTO "Pool" (id, name) VALUES ('bench-pool', 'bench')`);
  await client.query(`INSERT INTO "PoolVersion" (id, "poolId", version, recipe, "frozenAt") VALUES ('bench-pv', 'bench-pool', 1, '{}', now())`);
  await client.query(`INSERT INTO "Study" (id, slug, name, status, "poolVersionId", config) VALUES ('bench-study', 'bench', 'Bench', 'open', 'bench-pv', '{}')`);
  // Items cycle through the nine tasks; T4 golds alternate between bonds (Pos.) and none (Neg.).
  await client.query(
    `INSERT INTO "Item" (id, "externalId", source, "taskId", "taskVersion", question, payload, "contentHash", "updatedAt")
     SELECT 'item-' || i, i::text, 'bundle', ($1::text[])[1 + i % 9], 1, 'Question ' || i, '{"pdbId":"1abc"}', 'bench-' || i, now()
     FROM generate_series(0, ${ITEMS - 1}) AS i`,
    [TASKS],
  );
  await client.query(
    `INSERT INTO "AnswerKey" ("itemId", gold, canonical)
     SELECT 'item-' || i,
            CASE WHEN i % 9 = 3 AND i % 2 = 0 THEN '{"kind":"bonds","bonds":[{"residueName":"ARG","atomName":"NH2","ligandAtomName":"O1B"}]}'::jsonb
                 WHEN i % 9 = 3 THEN '{"kind":"none"}'::jsonb
                 ELSE '{"axis":"x","distanceA":3}'::jsonb END,
            CASE WHEN i % 9 = 3 AND i % 2 = 0 THEN 'Yes: ARG NH2, O1B' WHEN i % 9 = 3 THEN 'No' ELSE 'move x 3' END
     FROM generate_series(0, ${ITEMS - 1}) AS i`,
  );
  await client.query(`INSERT INTO "PoolItem" ("poolVersionId", "itemId", "taskId") SELECT 'bench-pv', id, "taskId" FROM "Item"`);
  await client.query(
    `INSERT INTO "Participant" (id, "studyId", "externalId", condition, cohort, status, "orderSeed", "deviceInfo", "startedAt", "lastSeenAt")
     SELECT 'p-' || p, 'bench-study', 'PROLIFIC-' || p, CASE WHEN p % 2 = 0 THEN 'static' ELSE 'interactive' END,
            CASE WHEN p % 3 = 0 THEN 'expert' ELSE 'crowd' END, 'completed', 's' || p,
            jsonb_build_object('screen', '1920x1080', 'userAgent', 'Mozilla/5.0 (bench)'), now(), now()
     FROM generate_series(0, ${participants - 1}) AS p`,
  );
  await client.query(
    `INSERT INTO "Assignment" (id, "participantId", "itemId", position, phase, status)
     SELECT 'a-' || n, 'p-' || (n / ${ITEMS}), 'item-' || (n % ${ITEMS}), n % ${ITEMS}, 'main', 'answered'
     FROM generate_series(0, ${rows - 1}) AS n`,
  );
  await client.query(
    `INSERT INTO "Response" (id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition,
                             "rawAnswer", "canonicalAnswer", exact, partial, "rtClientMs", "rtServerMs", "shownAt", "submittedAt", "idempotencyKey")
     SELECT 'r-' || n, 'a-' || n, 'p-' || (n / ${ITEMS}), 'bench-study', 'item-' || (n % ${ITEMS}), ($1::text[])[1 + (n % ${ITEMS}) % 9], 1, 'main',
            CASE WHEN (n / ${ITEMS}) % 2 = 0 THEN 'static' ELSE 'interactive' END,
            CASE WHEN n % 7 = 0 THEN 'move x -4' ELSE 'move x 3' END, CASE WHEN n % 7 = 0 THEN 'move x -4' ELSE 'move x 3' END,
            CASE WHEN n % 7 = 0 THEN 0 ELSE 1 END, CASE WHEN n % 7 = 0 THEN 0.125 ELSE 1 END,
            2000 + n % 30000, 2300 + n % 30000,
            timestamp '2025-06-01' + n * interval '10 milliseconds', timestamp '2025-06-01' + n * interval '10 milliseconds' + interval '5 seconds',
            'k-' || n
     FROM generate_series(0, ${rows - 1}) AS n`,
    [TASKS],
  );
  await client.query(`ANALYZE`);
  await client.end();
  return ((performance.now() - t0) / 1000).toFixed(1);
}

async function main(): Promise<number> {
  const rows = Number(values.rows);
  if (!Number.isInteger(rows) || rows < ITEMS || rows % ITEMS !== 0) throw new Error(`--rows must be a positive multiple of ${ITEMS}`);
  const participants = rows / ITEMS;
  const name = `misi_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let exitCode = 0;
  try {
    await runMigrationCommand("deploy", { databaseUrl, quiet: true });
    console.log(`database ${name}: filling ${rows.toLocaleString("en")} responses (${participants} participants × ${ITEMS} items)…`);
    console.log(`filled in ${await fill(databaseUrl, rows, participants)} s`);
    // Default V8 heap sizing first; then with the old generation capped, which shows what the stream
    // itself needs (by default V8 lets garbage pile up before collecting, and RSS follows the heap).
    // The default path formats rows in a worker thread with its own capped heap (lib/server/export/responses-worker-stream.ts);
    // EXPORT_WORKER=0 is the former in-process stream, for comparison.
    const runs: [string, string[], Record<string, string>][] = [
      ["worker thread (EXPORT_WORKER=1), default V8 flags", [], { EXPORT_WORKER: "1" }],
      ["in-process (default), default V8 flags", [], { EXPORT_WORKER: "0" }],
      [`in-process, --max-old-space-size=${CAPPED_OLD_SPACE_MB}`, [`--max-old-space-size=${CAPPED_OLD_SPACE_MB}`], { EXPORT_WORKER: "0" }],
    ];
    for (const [label, flags, extraEnv] of runs) {
      const child = spawnSync(process.execPath, [...flags, "--import", "tsx", "--conditions=react-server", fileURLToPath(import.meta.url), "--stream-only", databaseUrl], {
        encoding: "utf8",
        maxBuffer: 16 * MB,
        env: { ...process.env, ...extraEnv },
      });
      if (child.status !== 0) throw new Error(`export run failed (${label}): ${child.stderr}`);
      const r = JSON.parse(child.stdout.trim().split("\n").pop() as string) as RunFigures;
      console.log(`export (${label}): ${r.rows.toLocaleString("en")} rows, ${(r.bytes / MB).toFixed(1)} MB in ${r.seconds.toFixed(1)} s`);
      console.log(`  ${Math.round(r.rows / r.seconds).toLocaleString("en")} rows/s, ${(r.bytes / MB / r.seconds).toFixed(1)} MB/s`);
      console.log(
        `  RSS sampled every ${RSS_SAMPLE_MS} ms: ${r.baselineRssMb.toFixed(0)} MB before the export (code, Prisma client), peak ${r.peakRssMb.toFixed(0)} MB; peak JS heap used ${r.peakHeapMb.toFixed(0)} MB`,
      );
      console.log(`  maxRSS (getrusage): ${r.maxRssMb.toFixed(0)} MB; target < ${TARGET_RSS_MB} MB: ${r.maxRssMb < TARGET_RSS_MB ? "met" : "NOT met"}`);
      if (r.rows !== rows) {
        console.error(`row count mismatch: expected ${rows}, got ${r.rows}`);
        exitCode = 1;
      }
    }
  } finally {
    if (values.keep) console.log(`kept ${databaseUrl}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  return exitCode;
}

if (values["stream-only"]) {
  await streamOnly(values["stream-only"]);
  process.exit(0);
}
process.exit(await main());
