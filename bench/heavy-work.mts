// Benchmark (not a test): how long a participant's request waits while the server does heavy work, in-process (the
// former path) and through the heavy-work pool (lib/server/heavy/pool.ts).
//   npm run bench:heavy [-- --only svg-nested,svg-blur,xlsx,results,targz]
//   npm run bench:heavy -- --results N   (a cold results page and exports of an N-response study while participants
//                                          answer: bench/heavy-results.mts)
// This process plays the server: a plain HTTP server on its event loop answers "participant" requests, which a worker
// thread (its own event loop, so it is never blocked itself) sends every PROBE_MS and times. For each heavy input the
// bench prints the heavy job's wall time and outcome, the worst and median participant latency while it ran, and the
// growth of this process's resident memory. Budgets come from the environment as in the server (docs/heavy-work.md).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";
import { rasterizeForeignSvg } from "@/lib/import/foreign-svg";
import { parsePredictionFile } from "@/lib/model-import/parse-prediction-file";
import type { ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults } from "@/lib/results/summarize";
import { closeHeavyPool, runHeavyJob } from "@/lib/server/heavy/pool";
import { openSourceTree } from "@/lib/server/import/source-tree";

const PROBE_MS = 100;
const MiB = 1024 ** 2;
const SVG_NS = "http://www.w3.org/2000/svg";
const { values } = parseArgs({
  options: {
    only: { type: "string", default: "svg-nested,svg-blur,xlsx,results,targz" },
    results: { type: "string" },
  },
});
if (values.results !== undefined) {
  const { runResultsBench } = await import("./heavy-results.mts");
  await runResultsBench(Number(values.results));
  process.exit(0);
}
const only = new Set(values.only.split(","));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-bench-heavy-"));

const server = http.createServer((_req, res) => res.end("ok"));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as { port: number }).port;

/** Starts the participant prober; stop() returns the latencies (ms) of the requests it made. */
function startProbe(): { stop: () => Promise<number[]> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const http = require("node:http");
     const agent = new http.Agent({ keepAlive: true });
     const times = []; let running = true;
     parentPort.on("message", () => { running = false; });
     (async () => {
       while (running) {
         const t = performance.now();
         await new Promise((res) => http.get({ host: "127.0.0.1", port: workerData.port, path: "/s/session", agent }, (r) => { r.resume(); r.on("end", res); }).on("error", res));
         times.push(performance.now() - t);
         await new Promise((r) => setTimeout(r, workerData.every));
       }
       parentPort.postMessage(times);
     })();`,
    { eval: true, workerData: { port, every: PROBE_MS } },
  );
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once("message", (times: number[]) => {
          void worker.terminate();
          resolve(times);
        });
        worker.postMessage("stop");
      }),
  };
}

interface Row {
  input: string;
  path: string;
  wallMs: number;
  outcome: string;
  worstMs: number;
  medianMs: number;
  rssGrowthMb: number;
}
const rows: Row[] = [];

async function measure(input: string, pathName: string, run: () => Promise<string> | string): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const probe = startProbe();
  await new Promise((r) => setTimeout(r, 250));
  const t = performance.now();
  let outcome: string;
  try {
    outcome = await run();
  } catch (err) {
    outcome = `error: ${(err as Error).message}`;
  }
  const wallMs = performance.now() - t;
  await new Promise((r) => setTimeout(r, 250));
  const times = (await probe.stop()).sort((a, b) => a - b);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  const row = {
    input,
    path: pathName,
    wallMs: Math.round(wallMs),
    outcome: outcome.slice(0, 110),
    worstMs: Math.round(times[times.length - 1] ?? 0),
    medianMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    rssGrowthMb: Math.round((peak - rss0) / MiB),
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}

const svgOutcome = (r: { ok: boolean; problem?: string }) => (r.ok ? "rasterised" : `refused: ${r.problem}`);

// Warm the pool (its bundle and first worker) so the "pool" rows measure jobs, not the first fork.
await runHeavyJob("svg", { bytes: Buffer.from(`<svg xmlns="${SVG_NS}" width="2" height="2"/>`) });

if (only.has("svg-nested")) {
  // 16 k levels: 2.8 s on the red team's machine (64 k: 83 s); the cost is quadratic in the depth.
  const svg = Buffer.from(
    `<svg xmlns="${SVG_NS}" width="10" height="10">${"<g>".repeat(16_384)}<rect width="10" height="10"/>${"</g>".repeat(16_384)}</svg>`,
  );
  await measure("nested SVG, 16 k levels", "in-process", () => svgOutcome(rasterizeForeignSvg(svg)));
  await measure("nested SVG, 16 k levels", "pool", async () => svgOutcome(await runHeavyJob("svg", { bytes: svg })));
}
if (only.has("svg-blur")) {
  const svg = Buffer.from(
    `<svg xmlns="${SVG_NS}" width="4096" height="4096"><filter id="f"><feGaussianBlur stdDeviation="1500"/></filter><rect width="4096" height="4096" fill="red" filter="url(#f)"/></svg>`,
  );
  await measure(`blur SVG (${svg.length} bytes)`, "in-process", () => svgOutcome(rasterizeForeignSvg(svg)));
  await measure(`blur SVG (${svg.length} bytes)`, "pool", async () =>
    svgOutcome(await runHeavyJob("svg", { bytes: svg })),
  );
}
if (only.has("xlsx") && fs.existsSync("/usr/bin/zip")) {
  const dir = fs.mkdtempSync(path.join(work, "xlsx-"));
  const put = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  put(
    "[Content_Types].xml",
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  );
  put(
    "_rels/.rels",
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  put(
    "xl/workbook.xml",
    `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  put(
    "xl/_rels/workbook.xml.rels",
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  );
  const cells = `<c t="inlineStr"><is><t>x</t></is></c>`.repeat(20);
  const parts: string[] = [];
  for (let r = 1; r <= 100_000; r++) parts.push(`<row r="${r}">${cells}</row>`);
  put(
    "xl/worksheets/sheet1.xml",
    `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${parts.join("")}</sheetData></worksheet>`,
  );
  const file = path.join(work, "bomb.xlsx");
  execFileSync("zip", ["-q", "-9", "-r", file, "."], { cwd: dir });
  const bytes = fs.readFileSync(file);
  const input = { fileName: "bomb.xlsx", bytes, maxXlsxInflatedBytes: 1024 ** 3 };
  const label = `xlsx bomb (${Math.round(bytes.length / 1024)} KB)`;
  const outcome = (r: Awaited<ReturnType<typeof parsePredictionFile>>) =>
    r.ok ? `read ${r.rows.length} rows` : `refused: ${r.errors[0]?.problem}`;
  await measure(label, "in-process", async () => outcome(await parsePredictionFile(input)));
  await measure(label, "pool", async () => outcome(await runHeavyJob("predictionFile", input)));
}
if (only.has("results")) {
  // 4,000 participants × 50 items: the summary with 2,000 bootstrap replicates, as the paper table computes it.
  const records: ResponseRecord[] = [];
  for (let p = 0; p < 4_000; p++)
    for (let i = 0; i < 50; i++) {
      const exact = (p + i) % 3 === 0 ? 0 : 1;
      records.push({
        participantId: `p${p}`,
        itemId: `i${i}`,
        taskId: "translation",
        exact,
        partial: exact ? 1 : 0.5,
        condition: "static",
        cohort: "unspecified",
      });
    }
  const outcome = (r: ReturnType<typeof summarizeHumanResults>) =>
    r.ok ? "summarised" : `invalid: ${r.issues[0]?.reason}`;
  await measure("results summary, 200,000 responses", "in-process", () =>
    outcome(summarizeHumanResults(records, { seed: "bench" })),
  );
  await measure("results summary, 200,000 responses", "pool", async () =>
    outcome(await runHeavyJob("resultsSummary", { records, options: { seed: "bench" } })),
  );
}
if (only.has("targz")) {
  const bomb = path.join(work, "bomb.tar.gz");
  const pack = tar.pack();
  const done = pipeline(pack, createGzip(), fs.createWriteStream(bomb));
  const entry = pack.entry({ name: "zeros.bin", size: 1024 * MiB }) as unknown as NodeJS.WritableStream;
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < 1024; i++)
    if (!entry.write(chunk)) await new Promise<void>((r) => entry.once("drain", () => r()));
  entry.end();
  pack.finalize();
  await done;
  const label = `tar.gz bomb (${Math.round(fs.statSync(bomb).size / 1024)} KB → 1 GiB)`;
  const open = async (limits?: { maxBytes: number; maxRatio: number }) => {
    const tree = await openSourceTree(bomb, { tempRoot: work, ...(limits ? { inflateLimits: limits } : {}) });
    await tree.close();
    return "extracted whole";
  };
  await measure(label, "no limits (former 32 GiB cap)", () => open({ maxBytes: 32 * 1024 ** 3, maxRatio: Infinity }));
  await measure(label, "default limits", () => open());
}

console.log(
  "\n| input | path | wall ms | participant worst ms | median ms | server RSS growth MB | outcome |\n|---|---|---|---|---|---|---|",
);
for (const r of rows)
  console.log(
    `| ${r.input} | ${r.path} | ${r.wallMs} | ${r.worstMs} | ${r.medianMs} | ${r.rssGrowthMb} | ${r.outcome} |`,
  );
await closeHeavyPool();
server.close();
fs.rmSync(work, { recursive: true, force: true });
