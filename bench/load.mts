/**
 * `npm run bench:load [-- --participants 200] [--faults] [--consent-barrier] [--joins-only] [--route-floor] [--reloads R] [--think-ms 0] [--items-per-participant 20] [--launch] [--capacity] [--nginx] [--serving next|custom] [--cpu-prof DIR] [--no-build] [--answer-without-item]`
 *
 * Builds the app first (`npm run build`); `--no-build` measures the build already in .next. Besides the last line, it
 * prints the CPU each process spent per answer (the app instances, PostgreSQL, the bench's simulated browsers), read
 * from /proc: on one machine the three share the cores, so this says which one a change has to shrink.
 *
 * The participant hot path end to end: two production instances (`npm start`'s custom server, this checkout's build) on one
 * throw-away PostgreSQL database, N simulated participants running the whole protocol (open the link, load the
 * session page, consent, answer every question) with the browser's retry rules (lib/participant/submit-retry.ts).
 * `--faults`: one instance is killed with SIGKILL and restarted mid-run, every database connection is terminated
 * (twice), and 3 % of answer requests lose their response after the server processed them. Then, in the same run, the
 * raw single-row INSERT rate into a copy of the Response table (same indexes) at the same concurrency, and SQL checks:
 * nothing acknowledged lost, nothing stored twice, no item beyond k. Prints per-kind latency percentiles; the last line
 * is `answers/s A; raw-insert/s B; ratio R; p99 P ms; lost L; duplicates D; overruns O; participant-5xx E`.
 * `--joins-only`: only the join: N new joiners open the study link at once (each from its own address, split
 * over both instances), then the same N open it again (resumes); prints joins/s and resumes/s with latency percentiles.
 * `--route-floor`: the ceiling the app framework sets on the answer route, without the database: N concurrent clients
 * post answers without a participant cookie to both instances for 10 s (each is refused 401 by the route after the
 * proxy, the body read and the cookie check — everything an answer costs except the database and scoring); prints
 * requests/s and latency percentiles. An answers/s target above this figure cannot be met by any database design.
 * `--reloads R`: only the session page of started participants: N join and consent (not measured), then all N load
 * their session page R times each at once; last line `page loads/s P; p50 …; p95 …; p99 …; failed F; participant-5xx E`.
 * `--launch` (with `--arrival-s S`, `--think-ms MIN-MAX`): a Prolific launch at human pace. N participants arrive spread
 * uniformly over S seconds; each does what the browser does: opens the link, loads the session page and, on this first
 * visit, the page's scripts and styles; reads the consent text, consents; fetches the current question's images and
 * then the next question's (prefetch, untimed study; each URL once: the browser's cache answers a repeat, as the
 * immutable Cache-Control allows); per question (in a timed study reports it shown,) thinks, answers. The last line is
 * `launch: participants P; answer p99 A ms; page p99 G ms; image p99 I ms; lost L; duplicates D; overruns O; participant-5xx E`.
 * A 503 with Retry-After (a shedding server) is retried after that wait and counted apart ("shed"), not as a 5xx.
 * `--capacity` (implies `--launch --nginx`): the same launch through the production topology, measured in two phases
 * (every participant arrives and consents; then all answer), the server's CPU counted per phase from /proc (app
 * instances, this database's backends and the WAL writer, nginx; the simulated browsers apart). The last line is
 * `capacity: participants N; server CPU per arrival A ms; per question Q ms (app a, postgres p, static s); per participant
 * P ms; participants per 2 cores at 70% and 6.5 s per question C; lost L; duplicates D` with C = 1.4 × 6500 / Q.
 * `--serving next|custom`: the instances run `next start`, or the custom server in front of Next (server.mts).
 * Needs a PostgreSQL server (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres).
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { runMigrationCommand } from "../scripts/db.mts";
import {
  ATTEMPT_TIMEOUT_MS,
  isRetryableStatus,
  nextRetryDelayMs,
  retryAfterMs,
  withinBudget,
} from "../lib/participant/submit-retry";
import { orderSlots, slotArrays } from "../lib/participant/order-slots";
import { ADDRESS_SHARE } from "../lib/participant/address-share";
import { backendPids, cpuBetween, cpuSnapshot, processCpuSeconds, type CpuSnapshot } from "./cpu-account.mts";
import { backfillImageStore } from "../lib/server/image-store";
import { brotliModule } from "../scripts/render-nginx.mjs";
import { startNginx, type RunningNginx } from "../tests/helpers/nginx";
import { SIGNALS } from "./browser-signals.mts";

const { values: args } = parseArgs({
  options: {
    participants: { type: "string", default: "200" },
    "items-per-participant": { type: "string", default: "20" },
    faults: { type: "boolean", default: false },
    "joins-only": { type: "boolean", default: false },
    "route-floor": { type: "boolean", default: false },
    /**
     * Time a participant spends on each question before answering (ms, ±50 % uniform jitter; default 0: answers back to
     * back, a closed loop that saturates the app, where latency ≈ participants / throughput). A real participant takes
     * seconds per question: `--think-ms 5000` gives the answer latency at Prolific-like rates.
     */
    "think-ms": { type: "string", default: "0" },
    /** Launch mode (see above): arrival spread, think time, images, first-visit page assets. */
    launch: { type: "boolean", default: false },
    /**
     * Capacity (implies --launch --nginx): the launch in two measured phases, every participant's arrival (link, page,
     * assets, consent) and then every question, with the CPU of each server process counted per phase from /proc.
     */
    capacity: { type: "boolean", default: false },
    /** Launch mode: participants arrive uniformly over this many seconds. */
    "arrival-s": { type: "string", default: "60" },
    /** Images per item (the launch fetches them) and their size. */
    "images-per-item": { type: "string" },
    /** Synthetic images of this size (KB, a padded SVG comment) instead of the default: real views rendered by the project's own renderer. */
    "image-kb": { type: "string" },
    /** Measure the build already in .next (default: run `npm run build` first). */
    "no-build": { type: "boolean", default: false },
    /** Answers without the question's item id, as a page loaded before the answer body had it (and older builds). */
    "answer-without-item": { type: "boolean", default: false },
    /** What the instances run: the custom server in front of Next (`custom`, what `npm start` runs) or `next start`. */
    serving: { type: "string", default: "custom" },
    /**
     * The production topology: nginx (deploy/nginx.conf.template) in front of both instances, the participants'
     * requests through it; images from the image store (written before the run), verified and sent by nginx.
     */
    nginx: { type: "boolean", default: false },
    "port-a": { type: "string", default: "4121" },
    "port-b": { type: "string", default: "4122" },
    "pool-max": { type: "string", default: "20" },
    /** The throw-away database is named <prefix>_<random> (lets a shared server's users tell their databases apart). */
    "db-prefix": { type: "string", default: "misi_bench" },
    /** Writes a V8 CPU profile of each instance (node --cpu-prof) into this folder; open it in Chrome DevTools. */
    "cpu-prof": { type: "string" },
    /**
     * Every participant opens the link and loads the session page first; then all N consent at once. Measures the
     * start (assignment) path on its own: starts/s is N over the time from that moment to the last start.
     */
    "consent-barrier": { type: "boolean", default: false },
    /**
     * Only the session page of started participants (their page load, reload or return after a break): N participants
     * join and consent (not measured), then all N load their session page this many times each, at once.
     */
    reloads: { type: "string", default: "0" },
  },
});
if (args.capacity) {
  args.launch = true;
  args.nginx = true;
}
const N = Number(args.participants);
const ITEMS = Number(args["items-per-participant"]);
const K = 12;
const POOL_MAX = Number(args["pool-max"]);
/** `--think-ms 5000`: 5 s ± 50 %; `--think-ms 3000-10000`: uniform between the two. */
const THINK = (() => {
  const m = /^(\d+)(?:-(\d+))?$/.exec(args["think-ms"]);
  if (!m) throw new Error(`--think-ms must be N or MIN-MAX (ms), got "${args["think-ms"]}"`);
  const lo = Number(m[1]);
  return m[2] === undefined ? { lo: lo * 0.5, hi: lo * 1.5 } : { lo, hi: Number(m[2]) };
})();
const thinkMs = () => THINK.lo + Math.random() * (THINK.hi - THINK.lo);
const IMAGES_PER_ITEM = Number(args["images-per-item"] ?? (args.launch ? 4 : 1));
const IMAGE_BYTES = args["image-kb"] === undefined ? null : Math.round(Number(args["image-kb"]) * 1024);
if (!["next", "custom"].includes(args.serving))
  throw new Error(`--serving must be next or custom, got "${args.serving}"`);
const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
if (!/^[a-z_][a-z0-9_]{0,40}$/.test(args["db-prefix"]))
  throw new Error(`--db-prefix must be a lower-case SQL identifier, got "${args["db-prefix"]}"`);
const DB_NAME = `${args["db-prefix"]}_${randomBytes(4).toString("hex")}`;
const dbUrl = (() => {
  const u = new URL(SERVER_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();
const SECRET = randomBytes(24).toString("hex");
/** --nginx: the image store the instances and nginx share, and the links' secret. */
const IMAGE_STORE = args.nginx ? fs.mkdtempSync(path.join(os.tmpdir(), "misi-bench-store-")) : null;
if (IMAGE_STORE) fs.chmodSync(IMAGE_STORE, 0o755);

const log = (m: string) => process.stderr.write(`${m}\n`);

// ---------------------------------------------------------------- database and study

async function createDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await runMigrationCommand("deploy", { databaseUrl: dbUrl, quiet: true });
  await admin.end();
}

/**
 * A connection to the bench database. `--faults` terminates every backend of it, so a connection opened before a
 * fault is dead afterwards: each phase opens its own, and a terminated one only logs (an unhandled 'error' event
 * would end the bench).
 */
async function connectBenchDb(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: dbUrl });
  client.on("error", (err) => log(`  bench connection lost: ${err.message}`));
  await client.connect();
  return client;
}

async function dropDatabase() {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
}

/**
 * Real participant images: one item per task generated from the demo structures (prisma/demo/structures) by the
 * project's generator with a fixed seed, as SVG (47 views, 14–311 KB, median 255 KB). Generated once per run.
 */
let viewsCache: Buffer[] | null = null;
async function renderedViews(): Promise<Buffer[]> {
  if (viewsCache) return viewsCache;
  const { mkdtempSync, readdirSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const out = mkdtempSync(path.join(tmpdir(), "misi-bench-views-"));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/generate.mts",
          "--structures",
          "prisma/demo/structures",
          "--tasks",
          "all",
          "--per-task",
          "1",
          "--seed",
          "bench-views",
          "--format",
          "svg",
          "--out",
          out,
        ],
        { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
      );
      child.on("error", reject);
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`generating the bench's images failed (exit ${code})`)),
      );
    });
    const files = (readdirSync(out, { recursive: true }) as string[]).filter((f) => f.endsWith(".svg")).sort();
    viewsCache = files.map((f) => readFileSync(path.join(out, f)));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  if (viewsCache.length === 0) throw new Error("the generator wrote no SVG views");
  const sizes = viewsCache.map((b) => b.byteLength).sort((a, b) => a - b);
  log(
    `images: ${sizes.length} rendered views, ${(sizes[0]! / 1024).toFixed(0)}–${(sizes.at(-1)! / 1024).toFixed(0)} KB (median ${(sizes[sizes.length >> 1]! / 1024).toFixed(0)} KB)`,
  );
  return viewsCache;
}

/** Translation items (answer grammar `move x|y d`) with IMAGES_PER_ITEM SVG images each; capacity ≥ N × ITEMS at k = K. */
async function seedStudy(
  client: pg.Client,
): Promise<{ slug: string; studyId: string; poolVersionId: string; practice: string }> {
  const itemCount = Math.ceil((N * ITEMS * 1.25) / K) + ITEMS;
  const tag = randomBytes(4).toString("hex");
  const ids: string[] = [];
  const views = IMAGE_BYTES === null ? await renderedViews() : [];
  await client.query("BEGIN");
  for (let i = 0; i <= itemCount; i++) {
    const id = `bench-${tag}-${i}`;
    ids.push(id);
    const axis = i % 2 ? "y" : "x";
    const d = (i % 4) + 1;
    await client.query(
      `INSERT INTO "Item" (id, source, "taskId", "taskVersion", question, payload, "contentHash", status, tags, "updatedAt")
       VALUES ($1, 'generated', 'translation', 1, $2, '{"pdbId":"1abc"}', $3, 'active', '{}', now())`,
      [id, `Which translation turns image 1 into image 4? (${i})`, `bench-${tag}-${i}`],
    );
    await client.query(`INSERT INTO "AnswerKey" ("itemId", gold, canonical) VALUES ($1, $2, $3)`, [
      id,
      JSON.stringify({ axis, distanceA: d }),
      `move ${axis} ${d}`,
    ]);
    for (let k = 0; k < IMAGES_PER_ITEM; k++) {
      // Distinct bytes per image (a comment names it), so the byte cache holds each one as it would distinct views.
      const svg =
        IMAGE_BYTES === null
          ? Buffer.concat([views[(i * IMAGES_PER_ITEM + k) % views.length]!, Buffer.from(`<!-- ${id} ${k} -->`)])
          : Buffer.from(
              `<svg xmlns='http://www.w3.org/2000/svg'><!-- ${id} ${k} ${"x".repeat(Math.max(0, IMAGE_BYTES - 80))} --></svg>`,
            );
      await client.query(
        `INSERT INTO "ItemImage" (id, "itemId", position, caption, "mimeType", sha256, data) VALUES ($1, $2, $3, $4, 'image/svg+xml', $5, $6)`,
        [
          `img${tag}n${i}p${k}`,
          id,
          k,
          `Image ${k + 1}: view ${k + 1}`,
          createHash("sha256").update(svg).digest("hex"),
          svg,
        ],
      );
    }
  }
  const practice = ids[0]!;
  await client.query(`INSERT INTO "Pool" (id, name) VALUES ($1, $2)`, [`pool-${tag}`, `bench ${tag}`]);
  await client.query(
    `INSERT INTO "PoolVersion" (id, "poolId", version, recipe, "frozenAt") VALUES ($1, $2, 1, '{}', now())`,
    [`pv-${tag}`, `pool-${tag}`],
  );
  await client.query(
    `INSERT INTO "PoolItem" ("poolVersionId", "itemId", "taskId") SELECT $1, unnest($2::text[]), 'translation'`,
    [`pv-${tag}`, ids.slice(1)],
  );
  const { StudyConfigSchema } = await import("../lib/study-config");
  const config = StudyConfigSchema.parse({
    tasks: ["translation"],
    itemsPerTask: ITEMS,
    answersPerItem: K,
    practiceItemIds: [practice],
    conditions: ["static"],
  });
  await client.query(
    `INSERT INTO "Study" (id, slug, name, status, "poolVersionId", config) VALUES ($1, $2, $3, 'open', $4, $5)`,
    [`study-${tag}`, `bench-${tag}`, `Bench ${tag}`, `pv-${tag}`, JSON.stringify(config)],
  );
  await client.query("COMMIT");
  return { slug: `bench-${tag}`, studyId: `study-${tag}`, poolVersionId: `pv-${tag}`, practice };
}

// ---------------------------------------------------------------- servers

const servers = new Map<number, ChildProcess>();
/** The custom server as `npm run build` bundles it (scripts/build-server.mts). */
const SERVER_BUNDLE = ".next/misi-server.mjs";

function startServer(port: number): ChildProcess {
  const profile = args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"])}`] : [];
  const command =
    args.serving === "custom"
      ? [path.join(ROOT, SERVER_BUNDLE), "--port", String(port), "--hostname", "127.0.0.1"]
      : [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"];
  const child = spawn(process.execPath, [...profile, ...command], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: dbUrl,
      DATABASE_POOL_MAX: String(POOL_MAX),
      NEXTAUTH_SECRET: SECRET,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      TRUSTED_PROXY_HOPS: "1",
      ...(IMAGE_STORE ? { IMAGE_STORE_DIR: IMAGE_STORE, IMAGE_URL_SECRET: SECRET } : {}),
      // A launch of N at once is the point: the join/consent flood limits (sized for a scripted flood) are lifted.
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr!.on("data", (d: Buffer) => {
    const text = d.toString();
    if (/error|warn/i.test(text)) serverLog.push(`[${port}] ${text.trim().split("\n")[0]}`);
  });
  servers.set(port, child);
  return child;
}
const serverLog: string[] = [];

/** SIGTERM and wait (a CPU profile is written on a normal exit, not on SIGKILL). */
async function stopServersGracefully() {
  await Promise.all(
    [...servers.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
          setTimeout(() => resolve(), 15_000);
        }),
    ),
  );
}

/** Throws when something already listens on one of the ports (a bench still running, --port-a/--port-b to move). */
async function assertPortsFree(ports: number[]): Promise<void> {
  for (const port of ports) {
    const listening = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: "127.0.0.1" });
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (listening)
      throw new Error(`port ${port} is in use (another bench:load still running?): choose --port-a/--port-b`);
  }
}

async function waitReady(port: number) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${port} did not become ready`);
}

// ---------------------------------------------------------------- measurements

type Kind = "join" | "page" | "session" | "consent" | "answer" | "shown" | "image" | "asset";
const latencies: Record<Kind, number[]> = {
  join: [],
  page: [],
  session: [],
  consent: [],
  answer: [],
  shown: [],
  image: [],
  asset: [],
};
let participant5xx = 0;
/** 503 + Retry-After: a shedding server asked the client to come back later (retried after that wait). */
let shed503 = 0;
let imageFailures = 0;
let retries = 0;
const acknowledged: Array<{ key: string; assignmentId: string }> = [];
let faults = false;
/** Attempts that failed, by kind and status or error ("answer 503", "consent TypeError: fetch failed"). */
const failedAttempts = new Map<string, number>();
const noteFailure = (what: string) => failedAttempts.set(what, (failedAttempts.get(what) ?? 0) + 1);
let firstAnswerAt = Infinity;
let lastAnswerAt = 0;
/** CPU of the app instances, PostgreSQL and this process when the first answer was sent. */
let cpuAtFirstAnswer: CpuSnapshot | null = null;
const appPids = () => [...servers.values()].map((c) => c.pid).filter((pid): pid is number => pid !== undefined);

function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

class FinalError extends Error {}
class RetryAfterError extends Error {
  constructor(
    message: string,
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

/**
 * A request's headers as the browser sends them: Chrome's Accept-Encoding over HTTPS (a study link is HTTPS in
 * production; fetch's own default has no br) unless the caller names one, in any letter case.
 */
function browserHeaders(given: HeadersInit | undefined, xff: string): Headers {
  const headers = new Headers(given);
  if (!headers.has("accept-encoding")) headers.set("Accept-Encoding", "gzip, deflate, br, zstd");
  headers.set("X-Forwarded-For", xff);
  headers.set("Sec-Fetch-Site", "same-origin");
  return headers;
}

/**
 * One logical request with the browser's rules: retried on network errors, timeouts and retryable statuses, for up to
 * the retry budget. With faults, 3 % of answer attempts lose their response after the server processed them.
 */
async function request(
  kind: Kind,
  url: () => string,
  init: RequestInit & { xff: string },
  dropRate = 0,
): Promise<Response> {
  const started = performance.now();
  const startedAt = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url(), {
        ...init,
        redirect: "manual",
        headers: browserHeaders(init.headers, init.xff),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const retryAfter = res.headers.get("retry-after");
      if (res.status === 503 && retryAfter) shed503++;
      else if (res.status >= 500) participant5xx++;
      if (res.status < 400 && faults && Math.random() < dropRate) {
        await res.arrayBuffer().catch(() => undefined);
        throw new Error("response dropped (fault injection)");
      }
      if (res.status >= 400 && !isRetryableStatus(res.status))
        throw new FinalError(`${kind} ${res.status}: ${await res.text()}`);
      if (res.status >= 400) {
        await res.arrayBuffer().catch(() => undefined);
        throw new RetryAfterError(`${kind} ${res.status}`, retryAfterMs(res.status, retryAfter));
      }
      latencies[kind].push(performance.now() - started);
      return res;
    } catch (err) {
      noteFailure(`${kind} ${err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 80) : String(err)}`);
      const delay = nextRetryDelayMs(attempt + 1, err instanceof RetryAfterError ? err.retryAfter : null);
      if (err instanceof FinalError || !withinBudget(startedAt, Date.now(), delay)) throw err;
      retries++;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** The answer body's item id, as the browser sends it (unless `--answer-without-item`). */
function itemField(itemId: string): { itemId?: string } {
  return args["answer-without-item"] ? {} : { itemId };
}

interface Question {
  assignmentId: string;
  item: { id: string };
}
interface Update {
  current: Question | null;
  completion: unknown;
  noWork?: boolean;
}

async function runParticipant(
  i: number,
  slug: string,
  ports: number[],
  phases: {
    joined: () => void;
    started: () => void;
    paged?: () => void;
    beforeConsent?: Promise<void>;
    noThink?: boolean;
  },
) {
  const port = ports[i % ports.length]!;
  const base = () => `http://127.0.0.1:${port}`;
  const xff = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const joined = await request(
    "join",
    () => `${base()}/s/${slug}?PROLIFIC_PID=bench-${i}&STUDY_ID=S&SESSION_ID=s${i}`,
    { method: "GET", xff },
  );
  const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0]!;
  await joined.arrayBuffer();
  phases.joined();
  const headers = { Cookie: cookie, "Content-Type": "application/json", Origin: "" };
  const withOrigin = () => ({ ...headers, Origin: base() });
  const page = await request("page", () => `${base()}/s/${slug}/session`, {
    method: "GET",
    headers: { Cookie: cookie },
    xff,
  });
  await page.text();
  const device = { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 1, userAgent: "bench", pointer: "fine" };
  phases.paged?.();
  await phases.beforeConsent;
  const consent = await request("consent", () => `${base()}/api/participant/consent`, {
    method: "POST",
    headers: withOrigin(),
    body: JSON.stringify({ accept: true, device }),
    xff,
  });
  let state = (await consent.json()) as Update;
  phases.started();
  let n = 0;
  while (state.current) {
    if (THINK.hi > 0 && !phases.noThink) await new Promise((r) => setTimeout(r, thinkMs()));
    const key = randomBytes(16).toString("hex");
    const assignmentId = state.current.assignmentId;
    if (firstAnswerAt === Infinity) cpuAtFirstAnswer = cpuSnapshot(appPids());
    firstAnswerAt = Math.min(firstAnswerAt, performance.now());
    const res = await request(
      "answer",
      () => `${base()}/api/participant/answer`,
      {
        method: "POST",
        headers: withOrigin(),
        body: JSON.stringify({
          assignmentId,
          ...itemField(state.current.item.id),
          answer: n % 3 ? "move x 1" : "move y 2",
          idempotencyKey: key,
          rtClientMs: 1000,
          signals: SIGNALS,
        }),
        xff,
      },
      0.03,
    );
    // `session`: the response shape before the answer carried only the update (lets the bench measure older builds).
    const out = (await res.json()) as { update?: Update; session?: Update };
    acknowledged.push({ key, assignmentId });
    lastAnswerAt = performance.now();
    state = (out.update ?? out.session)!;
    n++;
  }
  launchPhase.delete(i);
  if (!state.completion) throw new Error(`participant ${i} ended without completion (noWork ${state.noWork})`);
}

interface LaunchImage {
  id: string;
  url?: string;
}
interface LaunchUpdate {
  current: { assignmentId: string; item: { id: string; images: LaunchImage[] } } | null;
  upcomingImageIds?: string[];
  upcomingImageUrls?: string[];
  completion: unknown;
  noWork?: boolean;
  /** In the consent's reply (the full session): a timed study's browser reports each question shown. */
  study?: { timeLimitSec: number | null };
}

/**
 * GET as a browser's image or script load, but the body is only received, never inflated: a browser inflates a gzipped
 * image on its own machine, and inflating ~84,000 views here measured this process's CPU, not the server's (fetch
 * always inflates). Keep-alive connections, the attempt timeout of the participant client.
 */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: Infinity });
let imageBytes = 0;
function getBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number; headers: Headers }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: keepAlive, headers, timeout: ATTEMPT_TIMEOUT_MS }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
        resolve({ status: res.statusCode ?? 0, bytes, headers: h });
      });
      res.on("error", reject);
    });
    const timeout = () =>
      req.destroy(Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" }));
    const timer = setTimeout(timeout, ATTEMPT_TIMEOUT_MS);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", timeout);
    req.on("error", reject);
  });
}

/** Asset paths (scripts, styles) a Next page's HTML names: what a first visit downloads before the page works. */
function pageAssets(html: string): string[] {
  return [...new Set([...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))];
}

/**
 * One launch participant, as the browser behaves: arrives, opens the link, loads the page (and its assets: first
 * visit), reads and consents, then per question: images (current first, then the next question's as prefetch; each URL
 * once, as the browser's cache would), "shown", thinking, the answer.
 */
/**
 * `--capacity`: every participant waits after its arrival until all have arrived, so that the server CPU of arrivals and
 * of questions is counted apart (one snapshot at the barrier) instead of being mixed in one window.
 */
let capacityGate: { arrived: (participant: number) => Promise<void> } | null = null;

/** Where each unfinished launch participant is (reported if the run stalls). */
const launchPhase = new Map<number, string>();

async function runLaunchParticipant(i: number, slug: string, ports: number[], arriveAtMs: number) {
  const at = (phase: string) => launchPhase.set(i, phase);
  at("arriving");
  await new Promise((r) => setTimeout(r, arriveAtMs));
  at("join");
  const port = ports[i % ports.length]!;
  const base = () => `http://127.0.0.1:${port}`;
  const xff = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const joined = await request(
    "join",
    () => `${base()}/s/${slug}?PROLIFIC_PID=bench-${i}&STUDY_ID=S&SESSION_ID=s${i}`,
    { method: "GET", xff },
  );
  const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0]!;
  await joined.arrayBuffer();
  const headers = { Cookie: cookie, "Content-Type": "application/json", Origin: "" };
  const withOrigin = () => ({ ...headers, Origin: base() });
  at("page");
  const page = await request("page", () => `${base()}/s/${slug}/session`, {
    method: "GET",
    headers: { Cookie: cookie },
    xff,
  });
  const html = await page.text();
  const cache = new Set<string>();
  // The browser's cache: a URL fetched once is not fetched again (immutable images; hashed asset names).
  const fetchOnce = async (kind: "image" | "asset", url: string) => {
    if (cache.has(url)) return;
    cache.add(url);
    const started = performance.now();
    try {
      const res = await getBytes(`${base()}${url}`, {
        Cookie: cookie,
        "X-Forwarded-For": xff,
        "Accept-Encoding": "gzip, deflate, br",
      });
      if (kind === "image") imageBytes += res.bytes;
      if (res.status === 503 && res.headers.get("retry-after")) shed503++;
      else if (res.status >= 500) participant5xx++;
      // An <img> is not retried by the browser: anything but 200 is a broken picture.
      if (res.status !== 200) throw new Error(`${kind} ${res.status}`);
      latencies[kind].push(performance.now() - started);
    } catch (err) {
      if (kind === "image") imageFailures++;
      cache.delete(url);
      noteFailure(`${kind} ${err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 80) : String(err)}`);
    }
  };
  // Six connections per host, as a browser opens.
  const fetchAll = async (kind: "image" | "asset", urls: string[]) => {
    const queue = urls.filter((u) => !cache.has(u));
    await Promise.all(
      Array.from({ length: Math.min(6, queue.length) }, async () => {
        for (let u = queue.shift(); u !== undefined; u = queue.shift()) await fetchOnce(kind, u);
      }),
    );
  };
  at("assets");
  await fetchAll("asset", pageAssets(html));
  // The page is a static shell: its script reads the session (components/study/session-shell.tsx).
  at("session");
  const session = await request("session", () => `${base()}/api/participant/session`, {
    method: "GET",
    headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br" },
    xff,
  });
  await session.arrayBuffer();
  at("reading consent");
  await new Promise((r) => setTimeout(r, thinkMs())); // reading the consent text
  at("consent");
  const device = { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 1, userAgent: "bench", pointer: "fine" };
  const consent = await request("consent", () => `${base()}/api/participant/consent`, {
    method: "POST",
    headers: withOrigin(),
    body: JSON.stringify({ accept: true, device }),
    xff,
  });
  let state = (await consent.json()) as LaunchUpdate;
  const timed = (state.study?.timeLimitSec ?? null) !== null;
  if (capacityGate) {
    at("arrived (waiting for the others)");
    await capacityGate.arrived(i);
  }
  const imageUrls = (images: LaunchImage[]) => images.map((im) => im.url ?? `/api/images/${im.id}`);
  const upcomingUrls = (s: LaunchUpdate) =>
    s.upcomingImageUrls ?? (s.upcomingImageIds ?? []).map((id) => `/api/images/${id}`);
  let n = 0;
  while (state.current) {
    const current = state.current;
    // Current images first (the question waits for them), the next question's in the background.
    at(`question ${n}: images`);
    await fetchAll("image", imageUrls(current.item.images));
    const prefetch = fetchAll("image", upcomingUrls(state));
    const displayedAt = performance.now();
    // As the browser: only a timed study reports the question shown; an untimed one's answer carries the time (#31).
    if (timed) {
      at(`question ${n}: shown`);
      const shown = await request("shown", () => `${base()}/api/participant/shown`, {
        method: "POST",
        headers: withOrigin(),
        body: JSON.stringify({ assignmentId: current.assignmentId }),
        xff,
      });
      await shown.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, thinkMs()));
    at(`question ${n}: prefetch`);
    await prefetch;
    at(`question ${n}: answer`);
    const key = randomBytes(16).toString("hex");
    if (firstAnswerAt === Infinity) cpuAtFirstAnswer = cpuSnapshot(appPids());
    firstAnswerAt = Math.min(firstAnswerAt, performance.now());
    const res = await request(
      "answer",
      () => `${base()}/api/participant/answer`,
      {
        method: "POST",
        headers: withOrigin(),
        body: JSON.stringify({
          assignmentId: current.assignmentId,
          ...itemField(current.item.id),
          answer: n % 3 ? "move x 1" : "move y 2",
          idempotencyKey: key,
          rtClientMs: Math.round(performance.now() - displayedAt),
          signals: SIGNALS,
        }),
        xff,
      },
      0.03,
    );
    const out = (await res.json()) as { update: LaunchUpdate };
    acknowledged.push({ key, assignmentId: current.assignmentId });
    lastAnswerAt = performance.now();
    state = out.update;
    n++;
  }
  if (!state.completion) throw new Error(`participant ${i} ended without completion (noWork ${state.noWork})`);
}

/** SQL checks after a run: acknowledged answers missing, answers stored twice, items beyond k, counters out of step. */
async function verifyStored(client: pg.Client, studyId: string) {
  const keys = acknowledged.map((a) => a.key);
  const lost = Number(
    (
      await client.query(
        `SELECT count(*)::int AS n FROM unnest($1::text[]) k WHERE NOT EXISTS (SELECT 1 FROM "Response" r WHERE r."idempotencyKey" = k)`,
        [keys],
      )
    ).rows[0].n,
  );
  const duplicates = Number(
    (
      await client.query(
        `SELECT count(*)::int AS n FROM (SELECT "participantId", "itemId" FROM "Response" WHERE "studyId" = $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
        [studyId],
      )
    ).rows[0].n,
  );
  const overruns = Number(
    (
      await client.query(
        `SELECT count(*)::int AS n FROM (SELECT a."itemId" FROM "Assignment" a JOIN "Participant" p ON p.id = a."participantId"
           WHERE p."studyId" = $1 AND a.phase = 'main' AND a.status <> 'abandoned' GROUP BY 1 HAVING count(*) > $2) o`,
        [studyId, K],
      )
    ).rows[0].n,
  );
  const completed = Number(
    (
      await client.query(`SELECT count(*)::int AS n FROM "Participant" WHERE "studyId" = $1 AND status = 'completed'`, [
        studyId,
      ])
    ).rows[0].n,
  );
  const counterDrift = Number(
    (
      await client.query(
        `SELECT count(*)::int AS n FROM "StudyItemCounter" c WHERE c."studyId" = $1 AND c.reserved <> (SELECT count(*) FROM "Assignment" a
           WHERE a."itemId" = c."itemId" AND a.phase = 'main' AND a.status <> 'abandoned' AND a."participantId" IN (SELECT id FROM "Participant" WHERE "studyId" = $1))`,
        [studyId],
      )
    ).rows[0].n,
  );

  return { lost, duplicates, overruns, completed, counterDrift };
}

/**
 * `--launch`: N participants arriving over `--arrival-s`, at human pace, with their images. With `--faults`, a third of
 * the way into the arrivals one instance is killed with SIGKILL and restarted (the time until it answers a health
 * request while participants retry is printed), and every database connection is terminated twice.
 */
async function launch(slug: string, studyId: string, ports: number[]) {
  const arrivalMs = Number(args["arrival-s"]) * 1000;
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "n/a");
  const t0 = performance.now();
  const faultTimers: Array<Promise<void>> = [];
  if (faults) {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    admin.on("error", (err) => log(`  fault admin connection lost: ${err.message}`));
    await admin.connect();
    const terminate = async () => {
      const r = await admin.query(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [DB_NAME],
      );
      log(`  fault: terminated ${r.rows[0].n} database connections`);
    };
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const victim = ports[1]!;
    faultTimers.push(
      (async () => {
        await wait(arrivalMs / 3);
        log(`  fault: kill -9 the instance on ${victim}`);
        servers.get(victim)!.kill("SIGKILL");
        await wait(1500);
        const restartedAt = performance.now();
        startServer(victim);
        await waitReady(victim);
        log(
          `  fault: instance on ${victim} answers /api/health ${((performance.now() - restartedAt) / 1000).toFixed(1)} s after its restart (participants retrying meanwhile)`,
        );
        await terminate();
        await wait(arrivalMs / 6);
        await terminate();
        await admin.end();
      })(),
    );
  }
  const progress = setInterval(() => {
    const top = [...failedAttempts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, v]) => `${v}× ${k}`);
    log(
      `  ${((performance.now() - t0) / 1000).toFixed(0)} s: pages ${latencies.page.length}, answers ${acknowledged.length}, images ${latencies.image.length}, retries ${retries}, shed ${shed503}${top.length ? `; failed attempts: ${top.join("; ")}` : ""}`,
    );
  }, 10_000);
  const sampler = sampleBackends();
  // --capacity: server CPU at the start, when the last participant has arrived, and at the end.
  const backendCpu = args.capacity ? trackBackendCpu() : null;
  const serverCpu = () => ({
    at: cpuSnapshot(appPids()),
    nginx: nginxCpuSeconds(),
    postgres: backendCpu
      ? Promise.all([backendCpu.total(), backendCpu.sessions()]).then(([cpu, backends]) => ({ cpu, backends }))
      : Promise.resolve({ cpu: 0, backends: 0 }),
  });
  const cpuFrom = serverCpu();
  let cpuArrived: ReturnType<typeof serverCpu> | null = null;
  const arrivedIds = new Set<number>();
  let releaseQuestions = () => {};
  const questionsGate = new Promise<void>((resolve) => (releaseQuestions = resolve));
  const noteArrived = (i: number) => {
    arrivedIds.add(i);
    if (arrivedIds.size === N && !cpuArrived) {
      cpuArrived = serverCpu();
      log(`  all ${N} arrived after ${((performance.now() - t0) / 1000).toFixed(1)} s; questions from now on`);
      releaseQuestions();
    }
  };
  // A participant that makes no progress for 2 minutes after the last answer anywhere is given up (and said where):
  // every request has a timeout, so this only catches a defect, which must not cost the whole run its figures.
  let lastProgress = { at: performance.now(), answers: 0, images: 0 };
  let giveUp: (reason: Error) => void = () => {};
  const stalled = new Promise<never>((_, reject) => (giveUp = reject));
  stalled.catch(() => undefined);
  const watchdog = setInterval(() => {
    // Consents count too: in --capacity's arrival phase nobody answers or loads an image yet.
    const now = {
      at: performance.now(),
      answers: acknowledged.length,
      images: latencies.image.length + latencies.consent.length,
    };
    if (now.answers !== lastProgress.answers || now.images !== lastProgress.images) lastProgress = now;
    else if (now.at - lastProgress.at > 120_000 && now.at - t0 > arrivalMs) {
      const where = new Map<string, number>();
      for (const phase of launchPhase.values()) where.set(phase, (where.get(phase) ?? 0) + 1);
      log(
        `  stalled: ${launchPhase.size} participants made no progress for 2 min: ${[...where].map(([k, v]) => `${v}× ${k}`).join(", ")}`,
      );
      giveUp(new Error("stalled (no progress for 2 min)"));
    }
  }, 5000);
  if (args.capacity)
    capacityGate = {
      arrived: (i) => {
        noteArrived(i);
        return questionsGate;
      },
    };
  const outcomes = await Promise.allSettled(
    Array.from({ length: N }, (_, j) =>
      Promise.race([
        // A participant that fails before arriving must not hold the others at the barrier.
        runLaunchParticipant(j + 2, slug, ports, Math.random() * arrivalMs).catch((err: unknown) => {
          noteArrived(j + 2);
          throw err;
        }),
        stalled,
      ]),
    ),
  );
  const cpuTo = serverCpu();
  clearInterval(watchdog);
  const tEnd = performance.now();
  clearInterval(progress);
  const backends = await sampler.stop();
  if (args["cpu-prof"]) {
    await cpuTo.postgres;
    await stopServersGracefully();
  }
  await Promise.all(faultTimers);
  const failed = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
  for (const f of failed.slice(0, 5))
    log(`  participant failed: ${String(f.reason?.message ?? f.reason).slice(0, 300)}`);
  const client = await connectBenchDb();
  try {
    const { lost, duplicates, overruns, completed, counterDrift } = await verifyStored(client, studyId);
    log("");
    log(`phase             n      p50 ms   p95 ms   p99 ms   max ms`);
    for (const kind of Object.keys(latencies) as Kind[]) {
      const v = latencies[kind];
      log(
        `${kind.padEnd(12)} ${String(v.length).padStart(6)} ${fmt(pct(v, 50)).padStart(9)} ${fmt(pct(v, 95)).padStart(8)} ${fmt(pct(v, 99)).padStart(8)} ${fmt(v.length ? Math.max(...v) : NaN).padStart(8)}`,
      );
    }
    log(
      `participants completed: ${completed} of ${N + 2} (failed ${failed.length}); client retries ${retries}; shed (503 + Retry-After) ${shed503}; broken images ${imageFailures} (images: ${(imageBytes / 2 ** 20).toFixed(0)} MB on the wire); counter rows out of step: ${counterDrift}`,
    );
    log(
      `answers: ${acknowledged.length}; whole run ${((tEnd - t0) / 1000).toFixed(1)} s (arrivals over ${args["arrival-s"]} s, think ${THINK.lo}–${THINK.hi} ms); serving ${args.serving}; load average ${(
        await import("node:os")
      )
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    log(
      `database backends during the run (mean of ${backends.samples} samples): ${[...backends.mean]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join("; ")}`,
    );
    if (serverLog.length)
      log(`server log lines with error/warn: ${serverLog.length}; first: ${serverLog.slice(0, 3).join(" | ")}`);
    if (args.capacity) {
      await reportCapacity({ from: cpuFrom, arrived: cpuArrived, to: cpuTo, lost, duplicates });
      await backendCpu?.stop();
    }
    const p99 = (kind: Kind) => (latencies[kind].length ? pct(latencies[kind], 99).toFixed(0) : "n/a");
    if (!args.capacity)
      console.log(
        `launch: participants ${N}; answer p99 ${p99("answer")} ms; page p99 ${p99("page")} ms; image p99 ${p99("image")} ms; lost ${lost}; duplicates ${duplicates}; overruns ${overruns}; participant-5xx ${participant5xx}`,
      );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * CPU seconds spent so far by every backend of the bench database seen since the start (and the WAL writer),
 * including backends that have exited: the app's pools close a connection idle for 30 s, and a snapshot taken at the
 * end would miss what such a backend spent (the arrivals' backends, mostly). Polled every 250 ms; a backend's last
 * quarter second before it exits is what is lost.
 */
function trackBackendCpu(): {
  total: () => Promise<number>;
  sessions: () => Promise<number>;
  stop: () => Promise<void>;
} {
  const last = new Map<number, number>();
  const admin = new pg.Client({ connectionString: SERVER_URL });
  admin.on("error", () => undefined);
  const ready = admin.connect();
  const poll = async () => {
    await ready;
    for (const pid of await backendPids(admin, DB_NAME))
      last.set(pid, Math.max(last.get(pid) ?? 0, processCpuSeconds(pid)));
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await poll().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    total: async () => {
      await poll();
      return [...last.values()].reduce((a, b) => a + b, 0);
    },
    // Connections opened so far (PostgreSQL counts each when it is established): the polling above can miss a
    // backend that lives less than its interval, this count cannot.
    sessions: async () => {
      await ready;
      const { rows } = await admin.query<{ n: number }>(
        `SELECT sessions::float8 AS n FROM pg_stat_database WHERE datname = $1`,
        [DB_NAME],
      );
      return rows[0]?.n ?? 0;
    },
    stop: async () => {
      running = false;
      await loop;
      await admin.end().catch(() => undefined);
    },
  };
}

/**
 * `--capacity`'s figures: server CPU (app instances; this database's backends and the WAL writer; nginx's master and
 * workers) per arrival and per question, each from its own phase; the simulated browsers (this process) apart. C is
 * how many participants 2 cores hold at 70 % when each answers a question every 6.5 s: 1.4 × 6500 / Q.
 */
type ServerCpu = { at: CpuSnapshot; nginx: number; postgres: Promise<{ cpu: number; backends: number }> };
async function reportCapacity(run: {
  from: ServerCpu;
  arrived: ServerCpu | null;
  to: ServerCpu;
  lost: number;
  duplicates: number;
}) {
  if (!run.arrived) throw new Error("--capacity: not every participant arrived; no figures");
  const phase = async (a: ServerCpu, b: ServerCpu) => {
    const c = cpuBetween(a.at, b.at);
    return {
      app: c.app,
      postgres: (await b.postgres).cpu - (await a.postgres).cpu,
      newBackends: (await b.postgres).backends - (await a.postgres).backends,
      nginx: b.nginx - a.nginx,
      browsers: c.client,
    };
  };
  const arrivals = await phase(run.from, run.arrived);
  const questions = await phase(run.arrived, run.to);
  const answered = acknowledged.length;
  const ms = (s: number, n: number) => (1000 * s) / Math.max(1, n);
  const server = (p: typeof arrivals) => p.app + p.postgres + p.nginx;
  const A = ms(server(arrivals), N);
  const q = {
    app: ms(questions.app, answered),
    postgres: ms(questions.postgres, answered),
    nginx: ms(questions.nginx, answered),
  };
  const Q = q.app + q.postgres + q.nginx;
  const P = ms(server(arrivals) + server(questions), N);
  const C = Math.round((1.4 * 6500) / Q);
  log(
    `capacity phases (CPU s): arrivals app ${arrivals.app.toFixed(2)}, PostgreSQL ${arrivals.postgres.toFixed(2)}, nginx ${arrivals.nginx.toFixed(2)}, simulated browsers ${arrivals.browsers.toFixed(2)}, new database connections ${arrivals.newBackends} (per arrival: app ${ms(arrivals.app, N).toFixed(2)}, postgres ${ms(arrivals.postgres, N).toFixed(2)}, nginx ${ms(arrivals.nginx, N).toFixed(2)} ms); questions (${answered}) app ${questions.app.toFixed(2)}, PostgreSQL ${questions.postgres.toFixed(2)}, nginx ${questions.nginx.toFixed(2)}, simulated browsers ${questions.browsers.toFixed(2)}, new database connections ${questions.newBackends}`,
  );
  console.log(
    `capacity: participants ${N}; server CPU per arrival ${A.toFixed(1)} ms; per question ${Q.toFixed(2)} ms (app ${q.app.toFixed(2)}, postgres ${q.postgres.toFixed(2)}, static ${q.nginx.toFixed(2)}); per participant ${P.toFixed(0)} ms; participants per 2 cores at 70% and 6.5 s per question ${C}; lost ${run.lost}; duplicates ${run.duplicates}`,
  );
}

/** `--joins-only`: N new joiners at once, then the same N again (resumes). Each join is one GET that must redirect to the session page. */
async function joinsOnly(slug: string, studyId: string, ports: number[]) {
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "n/a");
  const round = async (label: string) => {
    latencies.join.length = 0;
    const t0 = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: N }, async (_, j) => {
        const i = j + 2;
        const port = ports[i % ports.length]!;
        const xff = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const res = await request(
          "join",
          () => `http://127.0.0.1:${port}/s/${slug}?PROLIFIC_PID=bench-${i}&STUDY_ID=S&SESSION_ID=s${i}`,
          { method: "GET", xff },
        );
        await res.arrayBuffer();
        const location = res.headers.get("location") ?? "";
        if (!location.endsWith("/session")) throw new Error(`join ${i}: redirected to ${location}`);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const failed = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    for (const f of failed.slice(0, 3))
      log(`  ${label} failed: ${String(f.reason?.message ?? f.reason).slice(0, 200)}`);
    const v = latencies.join;
    log(
      `${label}: ${N} at once in ${seconds.toFixed(2)} s; ${fmt((N - failed.length) / seconds)}/s; p50 ${fmt(pct(v, 50))} ms, p95 ${fmt(pct(v, 95))} ms, p99 ${fmt(pct(v, 99))} ms; failed ${failed.length}; client retries ${retries}`,
    );
    return { perSec: (N - failed.length) / seconds, failed: failed.length };
  };
  const joins = await round("new joins");
  const resumes = await round("resumes (same Prolific ids again)");
  if (args["cpu-prof"]) await stopServersGracefully();
  const client = await connectBenchDb();
  const participants = Number(
    (await client.query(`SELECT count(*)::int AS n FROM "Participant" WHERE "studyId" = $1`, [studyId])).rows[0].n,
  );
  await client.end();
  if (serverLog.length)
    log(`server log lines with error/warn: ${serverLog.length}; first: ${serverLog.slice(0, 3).join(" | ")}`);
  console.log(
    `joins/s ${joins.perSec.toFixed(1)}; resumes/s ${resumes.perSec.toFixed(1)}; failed ${joins.failed + resumes.failed}; participants ${participants} (expected ${N + 2}); participant-5xx ${participant5xx}`,
  );
}

/** `--route-floor`: N clients post cookie-less answers (401, no database) to both instances for 10 s. */
async function routeFloor(ports: number[]) {
  const until = performance.now() + 10_000;
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const body = JSON.stringify({
    assignmentId: "a".repeat(25),
    answer: "move x 1",
    idempotencyKey: randomBytes(12).toString("hex"),
  });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const port = ports[i % ports.length]!;
      while (performance.now() < until) {
        const started = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/api/participant/answer`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
          body,
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        times.push(performance.now() - started);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const fmt = (v: number) => v.toFixed(1);
  console.log(
    `route floor (answer route, no cookie, no database; ${N} clients, 2 instances): ${fmt(times.length / seconds)} requests/s; ` +
      `p50 ${fmt(pct(times, 50))} ms, p99 ${fmt(pct(times, 99))} ms; statuses ${[...statuses].map(([k, v]) => `${k}×${v}`).join(", ")}`,
  );
}

/** `--reloads R`: N started participants load their session page R times each, all at once; prints page loads/s and latency. */
async function reloadsOnly(slug: string, ports: number[], reloads: number) {
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "n/a");
  const device = { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 1, userAgent: "bench", pointer: "fine" };
  const participants = await Promise.all(
    Array.from({ length: N }, async (_, j) => {
      const i = j + 2;
      const base = `http://127.0.0.1:${ports[i % ports.length]!}`;
      const xff = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const joined = await request(
        "join",
        () => `${base}/s/${slug}?PROLIFIC_PID=bench-${i}&STUDY_ID=S&SESSION_ID=s${i}`,
        { method: "GET", xff },
      );
      const cookie = (joined.headers.get("set-cookie") ?? "").split(";")[0]!;
      await joined.arrayBuffer();
      const headers = { Cookie: cookie, "Content-Type": "application/json", Origin: base };
      const consent = await request("consent", () => `${base}/api/participant/consent`, {
        method: "POST",
        headers,
        body: JSON.stringify({ accept: true, device }),
        xff,
      });
      if (!((await consent.json()) as Update).current)
        throw new Error(`participant ${i} has no question after consent`);
      return { base, cookie, xff };
    }),
  );
  latencies.page.length = 0;
  const t0 = performance.now();
  const outcomes = await Promise.allSettled(
    participants.map(async (p) => {
      for (let r = 0; r < reloads; r++) {
        const res = await request("page", () => `${p.base}/s/${slug}/session`, {
          method: "GET",
          headers: { Cookie: p.cookie },
          xff: p.xff,
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`session page ${res.status} (${res.headers.get("location")})`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const failed = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
  for (const f of failed.slice(0, 3)) log(`  reloads failed: ${String(f.reason?.message ?? f.reason).slice(0, 200)}`);
  const v = latencies.page;
  if (args["cpu-prof"]) await stopServersGracefully();
  if (serverLog.length)
    log(`server log lines with error/warn: ${serverLog.length}; first: ${serverLog.slice(0, 3).join(" | ")}`);
  log(
    `session pages of started participants: ${N} participants × ${reloads} loads at once in ${seconds.toFixed(2)} s; client retries ${retries}`,
  );
  console.log(
    `page loads/s ${fmt(v.length / seconds)}; p50 ${fmt(pct(v, 50))} ms; p95 ${fmt(pct(v, 95))} ms; p99 ${fmt(pct(v, 99))} ms; failed ${failed.length}; participant-5xx ${participant5xx}`,
  );
}

async function rawInsertRate(client: pg.Client, rows: number, concurrency: number): Promise<number> {
  await client.query(`CREATE TABLE bench_response (LIKE "Response" INCLUDING ALL)`);
  const pool = new pg.Pool({ connectionString: dbUrl, max: concurrency });
  pool.on("error", (err) => log(`  raw-insert pool connection lost: ${err.message}`));
  const { studyId, participantId, assignmentId, itemId } = (
    await client.query(`SELECT "studyId", "participantId", "assignmentId", "itemId" FROM "Response" LIMIT 1`)
  ).rows[0] as {
    studyId: string;
    participantId: string;
    assignmentId: string;
    itemId: string;
  };
  let next = 0;
  const cpu0 = cpuSnapshot([]);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: N }, async () => {
      while (next < rows) {
        const i = next++;
        await pool.query(
          `INSERT INTO bench_response (id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition, "rawAnswer",
             "canonicalAnswer", exact, partial, "rtClientMs", "rtServerMs", "shownAt", "submittedAt", "interactionLog", "idempotencyKey")
           VALUES ($1, $2, $3, $4, $5, 'translation', 1, 'main', 'static', 'move x 1', 'move x 1', 1, 1, 1000, 900, now(), now(), NULL, $6)`,
          [
            `raw-${i}`,
            `${assignmentId}-${i}`,
            participantId,
            studyId,
            itemId,
            `rawkey-${i}-${randomBytes(8).toString("hex")}`,
          ],
        );
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuBetween(cpu0, cpuSnapshot([]), await backendPids(client, DB_NAME));
  log(
    `CPU per raw INSERT: PostgreSQL ${((1000 * cpu.postgres) / rows).toFixed(3)} ms, bench client ${((1000 * cpu.client) / rows).toFixed(3)} ms`,
  );
  await pool.end();
  return rows / seconds;
}

/**
 * The start (assignment) path without the app: N participants of a fresh study (same size as the bench's) started by
 * calling misi_start_participant directly, at the instances' total pool size, with the arguments the app passes
 * (lib/server/participant-flow/assign-items.ts). The database-side ceiling of starts/s, to set against the app's.
 */
async function rawStartRate(
  client: pg.Client,
  concurrency: number,
): Promise<{ perSec: number; overruns: number; notStarted: number }> {
  const { studyId, poolVersionId, practice } = await seedStudy(client);
  const { StudyConfigSchema } = await import("../lib/study-config");
  const config = StudyConfigSchema.parse({
    tasks: ["translation"],
    itemsPerTask: ITEMS,
    answersPerItem: K,
    practiceItemIds: [practice],
    conditions: ["static"],
  });
  await client.query(
    `INSERT INTO "StudyItemCounter" ("studyId", "itemId", "taskId", reserved, answered)
     SELECT $1, pi."itemId", pi."taskId", 0, 0 FROM "PoolItem" pi WHERE pi."poolVersionId" = $2 AND NOT (pi."itemId" = ANY($3::text[]))`,
    [studyId, poolVersionId, [practice]],
  );
  await client.query(
    `INSERT INTO "Participant" (id, "studyId", "externalId", condition, "orderSeed") SELECT $1 || g, $2, 'raw-' || g, 'static', md5($1 || g) FROM generate_series(1, $3) g`,
    [`rawstart-${studyId}-`, studyId, N],
  );
  const pool = new pg.Pool({ connectionString: dbUrl, max: concurrency });
  pool.on("error", (err) => log(`  raw-start pool connection lost: ${err.message}`));
  let next = 0;
  let notStarted = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < N) {
        const id = `rawstart-${studyId}-${++next}`;
        const orderSeed = createHash("md5").update(id).digest("hex");
        const slots = slotArrays(orderSlots(orderSeed, config));
        const now = new Date();
        const { rows } = await pool.query(
          `SELECT outcome FROM misi_start_participant($1, $2, $3::text[], $4::int, $5::int, $6::int, $7::text[], $8, $9::int[], $10::int[], $11::text[], $12::text[],
             $13::timestamp(3), $14::timestamp(3), $15::jsonb, $16::boolean, $17::text, $18::float8)`,
          // Each participant from its own address (a launch), so the per-address share is checked but never refuses.
          [
            id,
            studyId,
            config.tasks,
            config.itemsPerTask,
            config.answersPerItem,
            config.maxParticipants,
            [practice],
            orderSeed,
            slots.task,
            slots.j,
            slots.item,
            slots.phase,
            new Date(now.getTime() + 3600_000).toISOString(),
            now.toISOString(),
            JSON.stringify({ userAgent: "bench" }),
            false,
            `addr-${id}`,
            ADDRESS_SHARE,
          ],
        );
        if (rows[0]?.outcome !== "started") notStarted++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await pool.end();
  const overruns = Number(
    (
      await client.query(
        `SELECT count(*)::int AS n FROM (SELECT a."itemId" FROM "Assignment" a JOIN "Participant" p ON p.id = a."participantId"
           WHERE p."studyId" = $1 AND a.phase = 'main' GROUP BY 1 HAVING count(*) > $2) o`,
        [studyId, K],
      )
    ).rows[0].n,
  );
  return { perSec: N / seconds, overruns, notStarted };
}

/**
 * Samples the bench database's backends every 200 ms (state × wait event, from pg_stat_activity) until stopped: says
 * whether the database works, waits on locks, or waits for the app ("idle in transaction" = a transaction held open
 * while the app computes or queues; "idle" = a pooled connection with nothing to do). On a connection to the server's
 * maintenance database, so `--faults` does not terminate it.
 */
function sampleBackends(): { stop: () => Promise<{ samples: number; mean: Map<string, number> }> } {
  const totals = new Map<string, number>();
  let samples = 0;
  let running = true;
  const done = (async () => {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    admin.on("error", () => undefined);
    await admin.connect();
    try {
      while (running) {
        const { rows } = await admin.query<{ what: string; n: number }>(
          `SELECT coalesce(state, '?') || ' ' || coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS what, count(*)::int AS n
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' GROUP BY 1`,
          [DB_NAME],
        );
        samples++;
        for (const r of rows) totals.set(r.what, (totals.get(r.what) ?? 0) + r.n);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await admin.end().catch(() => undefined);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done.catch((err) => log(`  backend sampler failed: ${err}`));
      return { samples, mean: new Map([...totals].map(([k, v]) => [k, v / Math.max(1, samples)])) };
    },
  };
}

// ---------------------------------------------------------------- nginx (--nginx)

let nginx: (RunningNginx & { ms: number; encodings: string }) | null = null;

/**
 * Writes the image store from the bench database (as `npm run images:backfill` does; brotli at quality 5 here: the
 * run's thousands of distinct views at 11 would take most of an hour, and nginx's cost per fetch does not depend on
 * it), then starts nginx with the shipped config in front of the instances. The participants' X-Forwarded-For (one
 * address each) is the client address nginx's per-address limits see, as behind a load balancer.
 */
async function startBenchNginx(ports: number[]) {
  const started = performance.now();
  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const report = await backfillImageStore(pool, IMAGE_STORE!, { brotliQuality: 5 }).finally(() => pool.end());
  const ms = performance.now() - started;
  const running = await startNginx({
    upstreams: ports.map((p) => `127.0.0.1:${p}`),
    imageDir: IMAGE_STORE!,
    imageSecret: SECRET,
    realIpFrom: ["127.0.0.1"],
  });
  return { ...running, ms, encodings: `${report.written} pictures, brotli_static ${brotliModule() ? "on" : "off"}` };
}

function nginxCpuSeconds(): number {
  if (!nginx) return 0;
  const master = Number(fs.readFileSync(path.join(nginx.dir, "nginx.pid"), "utf8"));
  const pids = [master];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === master) pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return [...cpuSnapshot(pids).app.values()].reduce((a, b) => a + b, 0);
}

function reportNginxCpu(nginxSeconds: number, appFrom: CpuSnapshot) {
  const app = cpuBetween(appFrom, cpuSnapshot(appPids()));
  const images = latencies.image.length;
  log(
    `CPU over the run: nginx ${nginxSeconds.toFixed(1)} s for everything it did (proxying every request and ${images} image fetches: at most ${images ? ((nginxSeconds * 1000) / images).toFixed(3) : "n/a"} ms per fetch); app instances ${app.app.toFixed(1)} s; PostgreSQL (all) ${app.postgres.toFixed(1)} s; simulated browsers ${app.client.toFixed(1)} s`,
  );
}

// ---------------------------------------------------------------- main

async function main() {
  faults = args.faults;
  if (!args["no-build"]) {
    log("building (npm run build; --no-build measures the build already in .next) …");
    const { spawnSync } = await import("node:child_process");
    const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", process.stderr, process.stderr] });
    if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`);
  }
  log(
    `bench:load: ${N} participants × ${ITEMS} items (+1 practice), k=${K}, 2 instances × pool ${POOL_MAX}${faults ? ", with faults" : ""}; database ${DB_NAME}`,
  );
  await createDatabase();
  const portA = Number(args["port-a"]);
  const portB = Number(args["port-b"]);
  let client: pg.Client | null = null;
  try {
    const seeder = await connectBenchDb();
    const { slug, studyId } = await seedStudy(seeder).finally(() => seeder.end());
    // Another run's instances on these ports would answer for ours (ours then fail to bind): refused up front.
    await assertPortsFree([portA, portB]);
    startServer(portA);
    startServer(portB);
    await Promise.all([waitReady(portA), waitReady(portB)]);
    // Warm both instances (first-request compilation of routes is not what is measured).
    await runParticipant(0, slug, [portA], { joined: () => {}, started: () => {}, noThink: true });
    await runParticipant(1, slug, [portB], { joined: () => {}, started: () => {}, noThink: true });
    for (const v of Object.values(latencies)) v.length = 0;
    acknowledged.length = 0;
    if (args.nginx) {
      if (faults) throw new Error("--faults kills an instance by port: not with --nginx");
      nginx = await startBenchNginx([portA, portB]);
      const { ms, encodings } = nginx;
      log(`nginx in front on ${nginx.port}; image store written in ${(ms / 1000).toFixed(1)} s (${encodings})`);
    }
    const front = nginx ? [nginx.port] : [portA, portB];
    const nginxCpu0 = nginx ? nginxCpuSeconds() : 0;
    const appCpu0 = cpuSnapshot(appPids());
    if (args.launch)
      return await launch(slug, studyId, front).finally(() => {
        if (nginx) reportNginxCpu(nginxCpuSeconds() - nginxCpu0, appCpu0);
      });
    if (args["joins-only"]) return await joinsOnly(slug, studyId, front);
    if (args["route-floor"]) return await routeFloor([portA, portB]);
    if (Number(args.reloads) > 0) return await reloadsOnly(slug, [portA, portB], Number(args.reloads));
    firstAnswerAt = Infinity;

    let joinedCount = 0;
    let startedCount = 0;
    let pagedCount = 0;
    let consentFrom = 0;
    let releaseConsents = () => {};
    const consentBarrier = args["consent-barrier"]
      ? new Promise<void>((resolve) => {
          releaseConsents = () => {
            consentFrom = performance.now();
            resolve();
          };
        })
      : undefined;
    let joinEnd = 0;
    let startEnd = 0;
    // From the last consent on, the instances serve answers only: CPU per answer without joins, pages and starts.
    let cpuAtLastStart: CpuSnapshot | null = null;
    let answersAtLastStart = 0;
    const t0 = performance.now();
    const cpuAtStart = cpuSnapshot(appPids());
    const faultTimers: Array<Promise<void>> = [];
    if (faults) {
      const admin = new pg.Client({ connectionString: SERVER_URL });
      admin.on("error", (err) => log(`  fault admin connection lost: ${err.message}`));
      await admin.connect();
      const terminate = async () => {
        const r = await admin.query(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [DB_NAME],
        );
        log(`  fault: terminated ${r.rows[0].n} database connections`);
      };
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      faultTimers.push(
        (async () => {
          await wait(3000);
          log(`  fault: kill -9 the instance on ${portB}`);
          servers.get(portB)!.kill("SIGKILL");
          await wait(1500);
          startServer(portB);
          await waitReady(portB);
          log(`  fault: instance on ${portB} back`);
          await terminate();
          await wait(4000);
          await terminate();
          await admin.end();
        })(),
      );
    }
    const progress = setInterval(() => {
      const top = [...failedAttempts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, v]) => `${v}× ${k}`);
      log(
        `  ${((performance.now() - t0) / 1000).toFixed(0)} s: joined ${joinedCount}, started ${startedCount}, answers ${acknowledged.length}, retries ${retries}${top.length ? `; failed attempts: ${top.join("; ")}` : ""}`,
      );
    }, 10_000);
    const sampler = sampleBackends();
    const outcomes = await Promise.allSettled(
      Array.from({ length: N }, (_, j) =>
        runParticipant(j + 2, slug, [portA, portB], {
          joined: () => {
            if (++joinedCount === N) joinEnd = performance.now();
          },
          started: () => {
            if (++startedCount === N) {
              startEnd = performance.now();
              cpuAtLastStart = cpuSnapshot(appPids());
              answersAtLastStart = acknowledged.length;
            }
          },
          paged: () => {
            if (++pagedCount === N) releaseConsents();
          },
          beforeConsent: consentBarrier,
        }),
      ),
    );
    const tEnd = performance.now();
    const cpuAtEnd = cpuSnapshot(appPids());
    // The bench database's backends as the run ends (pools keep theirs for the run) and the WAL writer.
    const pgPids = await (async () => {
      const c = await connectBenchDb();
      try {
        return await backendPids(c, DB_NAME);
      } finally {
        await c.end();
      }
    })();
    clearInterval(progress);
    const backends = await sampler.stop();
    await Promise.all(faultTimers);
    const failed = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    for (const f of failed.slice(0, 5))
      log(`  participant failed: ${String(f.reason?.message ?? f.reason).slice(0, 300)}`);

    const answerSeconds = (lastAnswerAt - firstAnswerAt) / 1000;
    const answersPerSec = acknowledged.length / answerSeconds;

    // SQL verification, on a connection opened after the faults.
    client = await connectBenchDb();
    const { lost, duplicates, overruns, completed, counterDrift } = await verifyStored(client, studyId);

    if (args["cpu-prof"]) await stopServersGracefully();
    const rawPerSec = await rawInsertRate(client, Math.max(2000, acknowledged.length), POOL_MAX * 2);
    const rawStarts = await rawStartRate(client, POOL_MAX * 2);

    const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "n/a");
    log("");
    log(`phase             n      p50 ms   p95 ms   p99 ms   max ms`);
    for (const kind of ["join", "page", "consent", "answer"] as Kind[]) {
      const v = latencies[kind];
      log(
        `${kind.padEnd(12)} ${String(v.length).padStart(6)} ${fmt(pct(v, 50)).padStart(9)} ${fmt(pct(v, 95)).padStart(8)} ${fmt(pct(v, 99)).padStart(8)} ${fmt(Math.max(...v)).padStart(8)}`,
      );
    }
    log(
      `joins/s (all ${N} links opened at once): ${fmt(N / ((joinEnd - t0) / 1000))}; starts/s (consents): ${fmt(N / ((startEnd - t0) / 1000))}`,
    );
    if (consentBarrier)
      log(
        `consent burst (all ${N} pages loaded, then every consent at once): ${fmt(N / ((startEnd - consentFrom) / 1000))} starts/s, last start ${((startEnd - consentFrom) / 1000).toFixed(2)} s after the burst`,
      );
    log(
      `raw starts (misi_start_participant called directly, ${N} participants of a fresh study at concurrency ${POOL_MAX * 2}): ${fmt(rawStarts.perSec)} starts/s; overruns ${rawStarts.overruns}; not started ${rawStarts.notStarted}`,
    );
    log(
      `participants completed: ${completed} of ${N + 2} (failed ${failed.length}); client retries ${retries}; counter rows out of step: ${counterDrift}`,
    );
    log(
      `answers: ${acknowledged.length} in ${answerSeconds.toFixed(1)} s (first answer sent to last acknowledged; whole run ${((tEnd - t0) / 1000).toFixed(1)} s); raw single-row INSERTs at concurrency ${N} over ${POOL_MAX * 2} connections`,
    );
    log(
      `database backends during the run (mean of ${backends.samples} samples, state and wait event): ${[
        ...backends.mean,
      ]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join("; ")}`,
    );
    const perAnswer = (from: CpuSnapshot | null, to: CpuSnapshot, answers = acknowledged.length) => {
      if (!from) return "n/a";
      const c = cpuBetween(from, to, pgPids);
      const ms = (s: number) => ((1000 * s) / Math.max(1, answers)).toFixed(2);
      return `app ${ms(c.app)} ms, PostgreSQL ${ms(c.postgres)} ms, bench client ${ms(c.client)} ms (total ${ms(c.app + c.postgres + c.client)} ms; ${c.app.toFixed(1)} / ${c.postgres.toFixed(1)} / ${c.client.toFixed(1)} CPU s)`;
    };
    log(
      `CPU per acknowledged answer (PostgreSQL: this database's backends and the WAL writer), answer window (first answer sent to the end): ${perAnswer(cpuAtFirstAnswer, cpuAtEnd)}`,
    );
    log(
      `CPU per acknowledged answer, whole run (joins, pages and consents included): ${perAnswer(cpuAtStart, cpuAtEnd)}`,
    );
    log(
      `CPU per acknowledged answer after the last consent (answers only; ${acknowledged.length - answersAtLastStart} answers): ${perAnswer(cpuAtLastStart, cpuAtEnd, acknowledged.length - answersAtLastStart)}`,
    );
    if (serverLog.length)
      log(`server log lines with error/warn: ${serverLog.length}; first: ${serverLog.slice(0, 3).join(" | ")}`);
    const ratio = answersPerSec / rawPerSec;
    console.log(
      `answers/s ${answersPerSec.toFixed(1)}; raw-insert/s ${rawPerSec.toFixed(1)}; ratio ${ratio.toFixed(3)}; p99 ${pct(latencies.answer, 99).toFixed(0)} ms; lost ${lost}; duplicates ${duplicates}; overruns ${overruns}; participant-5xx ${participant5xx}`,
    );
  } finally {
    for (const child of servers.values()) child.kill("SIGKILL");
    await nginx?.stop();
    if (IMAGE_STORE) fs.rmSync(IMAGE_STORE, { recursive: true, force: true });
    await client?.end().catch(() => undefined);
    await dropDatabase().catch((err) => log(`could not drop ${DB_NAME}: ${err}`));
  }
}

// A timeout or Ctrl-C must not leave the two servers running or the database behind.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    for (const child of servers.values()) child.kill("SIGKILL");
    void dropDatabase().finally(() => process.exit(1));
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`bench:load failed: ${err instanceof Error ? err.stack : err}`);
    for (const child of servers.values()) child.kill("SIGKILL");
    void dropDatabase().finally(() => process.exit(1));
  },
);
