// `npm run bench:heavy -- --results N`: a researcher's cold results page and exports of an N-response study while
// participants of another study answer, in one process that plays the server (as the rest of bench/heavy-work.mts).
//
// A throw-away database on the PostgreSQL server (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/
// postgres) gets an N-response study by SQL (tests/helpers/large-study.ts: 34 items per participant, as the red team's
// 204,000 answers of 6,042 participants; half of them interactive) and a small open study whose participants answer
// through the app's own participant-flow functions. This process serves their requests over HTTP behind the server's
// load shedder (lib/server/load-shed.ts, SHED_* defaults: a 503 when the event loop lags or too many are in flight); a
// worker thread (its own event loop, never blocked by this one) plays PARTICIPANTS participants, each answering a
// question every THINK_MS, and times every request. Meanwhile, from a cold cache, researcher A loads the results page's
// data (getResultsData: what the page and /api/results call) and researcher B downloads every export of the study
// (the routes' openStudyExport, each stream read to its end). Page weight: then the production build (`npm run build`
// first; .next/misi-server.mjs, what `npm start` runs) is started on the same database, a researcher who owns the
// study signs in through next-auth's credentials flow, and the results page is read to its end over HTTP (every
// streamed section): its uncompressed HTML document, and the gzip bytes a browser downloads.
// Last line: `results: responses N; cold results S s; participant p99 during results and exports P ms; participant
// 503s E; page K KB`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { runMigrationCommand } from "../scripts/db.mts";
import { onTestServer } from "../tests/helpers/own-database";

const PARTICIPANTS = 12;
const THINK_MS = 250;
const ITEMS_PER_PARTICIPANT = 34;
const EXPORT_KINDS = ["responses", "task-summary", "item-summary", "paper-table", "psych-ds", "participants"] as const;

/** The custom server as `npm run build` bundles it (what `npm start` runs). */
const SERVER_BUNDLE = path.join(process.cwd(), ".next", "misi-server.mjs");

/** A GET over node:http (no decompression): status, headers and the body's bytes as sent, read to the end. */
function get(
  port: number,
  pathName: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: pathName, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
function cookiesOf(setCookie: string[] | undefined): string[] {
  return (setCookie ?? []).map((c) => c.split(";")[0]!);
}

/**
 * Starts the production build on the bench's database, signs a researcher (the large study's owner) in through
 * next-auth's credentials flow and loads the study's results page twice from a cold server cache: once without
 * compression (the HTML document's bytes) and once accepting gzip (the bytes a browser downloads).
 */
async function fetchResultsPage(options: {
  databaseUrl: string;
  studyId: string;
  db: typeof import("../lib/server/db").db;
}): Promise<{ bytes: number; gzipBytes: number; seconds: number }> {
  if (!fs.existsSync(SERVER_BUNDLE))
    throw new Error(`${SERVER_BUNDLE} is missing: run \`npm run build\` first (the page is measured on the build)`);
  const { saveUser } = await import("../lib/server/dal/users/save-user");
  const credentials = { email: "bench-researcher@bench.test", password: randomBytes(12).toString("hex") };
  const user = await saveUser({ input: { ...credentials, role: "researcher" }, actorId: null });
  await options.db.$executeRaw`UPDATE "Study" SET "createdById" = ${user.id} WHERE id = ${options.studyId}`;

  const port = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [SERVER_BUNDLE, "--port", String(port), "--hostname", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      DATABASE_URL: options.databaseUrl,
      NEXTAUTH_SECRET: randomBytes(24).toString("hex"),
      NEXTAUTH_URL: base,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  try {
    for (let ready = false, until = Date.now() + 120_000; !ready;) {
      if (Date.now() > until || server.exitCode !== null)
        throw new Error(`the production server did not start: ${stderr}`);
      ready = await get(port, "/api/health", {}).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 250));
    }
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: cookiesOf(csrf.headers.getSetCookie()).join("; "),
      },
      body: new URLSearchParams({ csrfToken, ...credentials, json: "true" }),
    });
    const cookie = [...cookiesOf(csrf.headers.getSetCookie()), ...cookiesOf(signIn.headers.getSetCookie())].join("; ");
    const session = (await (await fetch(`${base}/api/auth/session`, { headers: { Cookie: cookie } })).json()) as {
      user?: { email?: string };
    };
    if (session.user?.email !== credentials.email) throw new Error(`sign-in failed (status ${signIn.status})`);

    const pagePath = `/admin/results/${options.studyId}`;
    const t = performance.now();
    const plain = await get(port, pagePath, { Cookie: cookie, "Accept-Encoding": "identity" });
    const seconds = (performance.now() - t) / 1000;
    if (plain.status !== 200 || !plain.body.includes("</html>"))
      throw new Error(`the results page answered ${plain.status} without a whole document: ${stderr}`);
    const gzipped = await get(port, pagePath, { Cookie: cookie, "Accept-Encoding": "gzip" });
    if (gzipped.headers["content-encoding"] !== "gzip")
      throw new Error(`the results page was not sent gzip-compressed (${gzipped.headers["content-encoding"]})`);
    return { bytes: plain.body.length, gzipBytes: gzipped.body.length, seconds };
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once("exit", r)));
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runResultsBench(n: number): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const dbName = `misi_bench_results_${randomBytes(4).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  process.env.DATABASE_URL = url.toString();
  // A 200,000-response results computation on a loaded 2-core machine can take minutes; what is measured here is
  // what participants see meanwhile, not whether the operator's budget fits this machine.
  process.env.HEAVY_RESULTS_BUDGET_MS ??= "1200000";
  await onTestServer(`CREATE DATABASE ${dbName}`, serverUrl);
  try {
    await runMigrationCommand("deploy", { databaseUrl: url.toString(), quiet: true });
    const { db, disconnectDb } = await import("../lib/server/db");
    const { createLargeStudy } = await import("../tests/helpers/large-study");
    const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../tests/helpers/study-fixtures");
    const { recordConsent } = await import("../lib/server/participant-flow/record-consent");
    const { getParticipantSession } = await import("../lib/server/participant-flow/get-session");
    const { submitAnswer } = await import("../lib/server/participant-flow/record-response");
    const { markQuestionShown } = await import("../lib/server/participant-flow/question-clock");
    const { LoadShedder } = await import("../lib/server/load-shed");
    const { env } = await import("../lib/server/env");
    const { getResultsData, clearResultsPageCache } = await import("../lib/server/dal/results/get-results-page");
    const { clearResultsCache } = await import("../lib/server/dal/results/results-cache");
    const { openStudyExport } = await import("../lib/server/export/open-study-export");
    const { closeHeavyPool } = await import("../lib/server/heavy/pool");

    // The large study, by SQL; half the participants interactive (so the condition effect is computed too).
    let t = performance.now();
    const large = await createLargeStudy({
      participants: Math.ceil(n / ITEMS_PER_PARTICIPANT),
      itemCount: ITEMS_PER_PARTICIPANT,
    });
    await db.$executeRaw`UPDATE "Participant" SET condition = 'interactive' WHERE "studyId" = ${large.study.id} AND hashtext(id) % 2 = 0`;
    await db.$executeRaw`UPDATE "Response" r SET condition = 'interactive' FROM "Participant" p WHERE p.id = r."participantId" AND p."studyId" = ${large.study.id} AND p.condition = 'interactive'`;
    await db.$executeRawUnsafe(`ANALYZE`);
    const nResponses = await db.response.count({ where: { studyId: large.study.id } });
    console.log(`seeded ${nResponses} responses in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // The answering participants: a small open study, joined and consented before the clock starts.
    const small = await createTranslationStudy({
      itemCount: 120,
      config: { itemsPerTask: 120, answersPerItem: PARTICIPANTS + 1 },
    });
    const participantIds: string[] = [];
    for (let i = 0; i < PARTICIPANTS; i++) {
      const id = await joinStudy(small.study.slug, `bench-${i}`);
      await recordConsent(id, true, TEST_DEVICE);
      participantIds.push(id);
    }
    let answered = 0;
    const shedder = new LoadShedder({
      maxInFlight: env.SHED_MAX_IN_FLIGHT,
      maxLagMs: env.SHED_MAX_LAG_MS,
      warmupMs: 0,
    });
    const server = http.createServer((req, res) => {
      const decision = shedder.tryEnter();
      if (!decision.ok) {
        res.writeHead(503, { "Retry-After": String(decision.retryAfterSec) }).end();
        return;
      }
      const i = Number(new URL(req.url ?? "/", "http://x").searchParams.get("p"));
      const id = participantIds[i % participantIds.length]!;
      void (async () => {
        const session = await getParticipantSession(id);
        const current = session?.current;
        if (current) {
          await markQuestionShown(id, current.assignmentId);
          await submitAnswer({
            participantId: id,
            assignmentId: current.assignmentId,
            rawAnswer: "move x 1",
            idempotencyKey: `${id}-${current.assignmentId}`,
          });
          answered++;
        }
      })().then(
        () => res.end("ok"),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
      res.on("close", decision.release);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;

    const prober = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       const http = require("node:http");
       const agent = new http.Agent({ keepAlive: true });
       const times = []; const statuses = {}; let running = true;
       parentPort.on("message", () => { running = false; });
       const one = (p) => new Promise((res) => {
         const t = performance.now();
         http.get({ host: "127.0.0.1", port: workerData.port, path: "/answer?p=" + p, agent }, (r) => {
           r.resume(); r.on("end", () => { times.push(performance.now() - t); statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1; res(); });
         }).on("error", () => { statuses.error = (statuses.error ?? 0) + 1; res(); });
       });
       Promise.all(Array.from({ length: workerData.participants }, async (_, p) => {
         await new Promise((r) => setTimeout(r, (p * workerData.think) / workerData.participants));
         while (running) { await one(p); await new Promise((r) => setTimeout(r, workerData.think)); }
       })).then(() => parentPort.postMessage({ times, statuses }));`,
      { eval: true, workerData: { port, participants: PARTICIPANTS, think: THINK_MS } },
    );

    clearResultsCache();
    clearResultsPageCache();
    await new Promise((r) => setTimeout(r, 1000));
    const cpu0 = process.cpuUsage();
    t = performance.now();
    const resultsLoad = getResultsData({
      studyId: large.study.id,
      scope: "study",
      condition: null,
      owner: "researcher-a",
    }).then((data) => ({ data, seconds: (performance.now() - t) / 1000 }));
    const exports = Promise.all(
      EXPORT_KINDS.map(async (kind) => {
        const opened = await openStudyExport({
          studyId: large.study.id,
          kind,
          caller: { owner: "researcher-b" },
        });
        let bytes = 0;
        for await (const chunk of opened.stream) bytes += (chunk as Uint8Array).length;
        return { kind, bytes, seconds: (performance.now() - t) / 1000 };
      }),
    );
    const [{ data, seconds }, exported] = await Promise.all([resultsLoad, exports]);
    const allSeconds = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    await new Promise((r) => setTimeout(r, 500));
    prober.postMessage("stop");
    const probe = await new Promise<{ times: number[]; statuses: Record<string, number> }>((r) =>
      prober.once("message", r),
    );
    await prober.terminate();
    server.close();
    for (const e of exported) console.log(`export ${e.kind}: ${e.bytes} bytes, done at ${e.seconds.toFixed(1)} s`);
    const times = probe.times.sort((a, b) => a - b);
    console.log(
      `participants: ${times.length} requests (${answered} answers) in ${allSeconds.toFixed(1)} s; p50 ${Math.round(percentile(times, 50))} ms, p99 ${Math.round(percentile(times, 99))} ms, max ${Math.round(times[times.length - 1] ?? 0)} ms; statuses ${JSON.stringify(probe.statuses)}`,
    );
    console.log(
      `server process CPU during results and exports: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (results ${seconds.toFixed(1)} s, all ${allSeconds.toFixed(1)} s)`,
    );

    // The page's weight: the results page's HTML document as a signed-in researcher's browser receives it from the
    // production server (the build in .next, started on this database), read to its end (every streamed section).
    const page = await fetchResultsPage({ databaseUrl: url.toString(), studyId: large.study.id, db });
    console.log(
      `results page from the production server: ${page.bytes} bytes of HTML (${page.gzipBytes} bytes gzip on the wire), served in ${page.seconds.toFixed(1)} s (cold; ${data.integrity.participants.length} participants in the signal table's pages)`,
    );
    console.log(
      `results: responses ${nResponses}; cold results ${seconds.toFixed(1)} s; participant p99 during results and exports ${Math.round(percentile(times, 99))} ms; participant 503s ${probe.statuses["503"] ?? 0}; page ${Math.round(page.bytes / 1024)} KB`,
    );
    await closeHeavyPool();
    await disconnectDb();
  } finally {
    await onTestServer(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`, serverUrl);
  }
}
