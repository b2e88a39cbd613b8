// Benchmark (not a test): the long-format responses export of 1,000,000 responses, as `npm run export` makes it.
//   npm run bench:export [-- --rows 1000000 --keep]
// Creates a scratch database misi_bench_<random> on TEST_DATABASE_URL's server (default: local
// PostgreSQL), migrates it, fills it with INSERT … SELECT generate_series, then runs the export CLI
// (scripts/export.mts, default V8 flags) writing to its stdout, which this process reads and counts.
// The CLI's whole process tree (the CLI and the export child it spawns) is sampled from /proc every
// 50 ms: peak RSS is the largest sum over the tree (shared pages such as node's own code count once
// per process, so the sum overstates what the tree really holds). Prints rows/s and peak RSS for the
// default path (child process) and the in-process stream (EXPORT_IN_PROCESS=1), then drops
// the database (unless --keep). Target: peak RSS under 300 MB with default flags.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { runMigrationCommand } from "../scripts/db.mts";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const ITEMS = 500;
const RSS_SAMPLE_MS = 50;
const TARGET_RSS_MB = 300;
const MB = 1024 * 1024;
const TASKS = [
  "translation",
  "rotation",
  "zooming",
  "residue_ligand",
  "translation_rotation",
  "rotation_rotation",
  "docking",
  "interaction_location",
  "pocket_ligand",
];

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    keep: { type: "boolean", default: false },
  },
});

/** A process and all its descendants (Linux /proc), the process first. */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tids: string[] = [];
    try {
      tids = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tids) {
      try {
        for (const child of fs.readFileSync(`/proc/${out[i]}/task/${tid}/children`, "utf8").trim().split(/\s+/))
          if (child) out.push(Number(child));
      } catch {
        // thread gone
      }
    }
  }
  return out;
}

/** Resident set size of one process in MB, 0 once it has gone. */
function rssMb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface RunFigures {
  rows: number;
  bytes: number;
  /** Spawn to exit: node and tsx start, study look-up, export. */
  totalSeconds: number;
  /** First byte to last byte. */
  streamSeconds: number;
  peakTreeRssMb: number;
  /** The CLI process alone at the tree's peak, and the most processes seen in the tree. */
  peakCliRssMb: number;
  maxProcesses: number;
}

/** Runs `scripts/export.mts --what responses` with default V8 flags, counting its output and sampling its process tree. */
function runExportCli(databaseUrl: string, extraEnv: Record<string, string>): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--conditions=react-server",
        "scripts/export.mts",
        "--study",
        "bench-study",
        "--what",
        "responses",
      ],
      {
        env: { ...process.env, DATABASE_URL: databaseUrl, ...extraEnv },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let lines = 0;
    let bytes = 0;
    let firstByte = 0;
    let lastByte = 0;
    let stderr = "";
    let peakTreeRssMb = 0;
    let peakCliRssMb = 0;
    let maxProcesses = 0;
    const sample = () => {
      if (child.pid === undefined) return;
      const pids = processTree(child.pid);
      const rss = pids.map(rssMb);
      const total = rss.reduce((a, b) => a + b, 0);
      maxProcesses = Math.max(maxProcesses, pids.length);
      if (total > peakTreeRssMb) {
        peakTreeRssMb = total;
        peakCliRssMb = rss[0] ?? 0;
      }
    };
    const sampler = setInterval(sample, RSS_SAMPLE_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      const now = performance.now();
      if (firstByte === 0) firstByte = now;
      lastByte = now;
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`export CLI failed (${code}): ${stderr}`));
      resolve({
        rows: lines - 1,
        bytes,
        totalSeconds: (performance.now() - t0) / 1000,
        streamSeconds: (lastByte - firstByte) / 1000,
        peakTreeRssMb,
        peakCliRssMb,
        maxProcesses,
      });
    });
  });
}

async function fill(databaseUrl: string, rows: number, participants: number): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const t0 = performance.now();
  await client.query(`INSERT INTO "Pool" (id, name) VALUES ('bench-pool', 'bench')`);
  await client.query(
    `INSERT INTO "PoolVersion" (id, "poolId", version, recipe, "frozenAt") VALUES ('bench-pv', 'bench-pool', 1, '{}', now())`,
  );
  await client.query(
    `INSERT INTO "Study" (id, slug, name, status, "poolVersionId", config) VALUES ('bench-study', 'bench', 'Bench', 'open', 'bench-pv', '{}')`,
  );
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
  await client.query(
    `INSERT INTO "PoolItem" ("poolVersionId", "itemId", "taskId") SELECT 'bench-pv', id, "taskId" FROM "Item"`,
  );
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
  if (!Number.isInteger(rows) || rows < ITEMS || rows % ITEMS !== 0)
    throw new Error(`--rows must be a positive multiple of ${ITEMS}`);
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
    console.log(
      `database ${name}: filling ${rows.toLocaleString("en")} responses (${participants} participants × ${ITEMS} items)…`,
    );
    console.log(`filled in ${await fill(databaseUrl, rows, participants)} s`);
    const runs: [string, Record<string, string>][] = [
      ["default: child process", {}],
      ["former: in-process stream, EXPORT_IN_PROCESS=1", { EXPORT_IN_PROCESS: "1" }],
    ];
    for (const [label, extraEnv] of runs) {
      const r = await runExportCli(databaseUrl, extraEnv);
      console.log(
        `export (${label}, default V8 flags): ${r.rows.toLocaleString("en")} rows, ${(r.bytes / MB).toFixed(1)} MB`,
      );
      console.log(
        `  ${Math.round(r.rows / r.streamSeconds).toLocaleString("en")} rows/s, ${(r.bytes / MB / r.streamSeconds).toFixed(1)} MB/s; first to last byte ${r.streamSeconds.toFixed(1)} s, whole CLI run ${r.totalSeconds.toFixed(1)} s`,
      );
      console.log(
        `  peak RSS of the process tree (sampled every ${RSS_SAMPLE_MS} ms, up to ${r.maxProcesses} processes): ${r.peakTreeRssMb.toFixed(0)} MB (the CLI process ${r.peakCliRssMb.toFixed(0)} MB); target < ${TARGET_RSS_MB} MB: ${r.peakTreeRssMb < TARGET_RSS_MB ? "met" : "NOT met"}`,
      );
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

process.exit(await main());
