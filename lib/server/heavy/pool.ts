import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type Tinypool from "tinypool";
import { formatBytes, formatMs, heavyBudgets } from "./budgets";
import type { HeavyJobKind, HeavyJobs } from "./jobs";
import type { HeavyTask } from "./heavy-child";
import { buildChildBundle } from "@/lib/server/child-bundle";
import { FairQueue, SlotRefused } from "./fair-queue";

/**
 * The heavy-work pool: SVG checking and rasterising, prediction-file (xlsx) reading and the results summary run in
 * child processes (tinypool, runtime "child_process"), never on the server's event loop. Child processes rather than
 * worker threads because a thread's resourceLimits cap only its JS heap, while resvg's pixmaps, zlib's windows and the
 * native side of Buffers are outside it, and a thread cannot be stopped inside a native call (a 38 s resvg blur runs
 * to its end); a process is killed at once and its resident memory is what the kernel counts.
 *
 * Each job has a time budget (counted from the moment the worker starts it, not from the queue), a memory cap
 * (resident set of the worker process, sampled every MEMORY_SAMPLE_MS, plus a V8 heap cap so a JS-heap runaway ends
 * even between samples) and waits its turn behind HEAVY_WORKERS running jobs. A job over a budget is killed with its
 * process and fails with a HeavyJobError whose message names the budget and the variable that sets it.
 */

/** How often the resident memory of a running job's process is read from /proc. */
const MEMORY_SAMPLE_MS = 50;
/**
 * V8's old-space cap of a worker equals its resident cap: the resident watch, which counts the heap plus everything
 * else, always fires first and kills at once. A lower heap cap made V8 collect garbage near its limit for minutes
 * instead of failing (an xlsx bomb at 458 MB resident under a 384 MB heap cap ran into its 60 s time budget).
 */
const HEAP_SHARE_OF_RSS = 1;

export type HeavyBudget = "time" | "memory" | "queue" | "crash" | "aborted";

export class HeavyJobError extends Error {
  constructor(
    readonly budget: HeavyBudget,
    message: string,
  ) {
    super(message);
    this.name = "HeavyJobError";
  }
}

const JOB_LABEL: Record<HeavyJobKind, string> = {
  svg: "SVG check and rasterisation",
  predictionFile: "reading the prediction file",
  resultsSummary: "the results computation",
  resultsData: "the results page's computation",
  studyExport: "the export",
};

const TIME_BUDGET: Record<HeavyJobKind, { ms: () => number; variable: string }> = {
  svg: { ms: () => heavyBudgets.HEAVY_SVG_BUDGET_MS, variable: "HEAVY_SVG_BUDGET_MS" },
  predictionFile: { ms: () => heavyBudgets.HEAVY_WORKBOOK_BUDGET_MS, variable: "HEAVY_WORKBOOK_BUDGET_MS" },
  resultsSummary: { ms: () => heavyBudgets.HEAVY_RESULTS_BUDGET_MS, variable: "HEAVY_RESULTS_BUDGET_MS" },
  resultsData: { ms: () => heavyBudgets.HEAVY_RESULTS_BUDGET_MS, variable: "HEAVY_RESULTS_BUDGET_MS" },
  studyExport: { ms: () => heavyBudgets.HEAVY_RESULTS_BUDGET_MS, variable: "HEAVY_RESULTS_BUDGET_MS" },
};

let bundle: Promise<string> | null = null;

/**
 * The workers' code as one CommonJS file, built by esbuild from the sources on first use (as the responses export
 * child is): a worker script must resolve at run time in the built app, and Turbopack does not emit worker entry
 * files. It is written under node_modules/.cache so that its native externals (resvg, exceljs) resolve from the
 * project's node_modules; content-addressed, so concurrent processes write the same bytes.
 */
export function buildHeavyChildBundle(): Promise<string> {
  bundle ??= buildChildBundle({
    entry: "lib/server/heavy/heavy-child.ts",
    // Under node_modules so that the native externals resolve from the project's node_modules.
    dir: path.join(process.cwd(), "node_modules", ".cache", "misi-heavy"),
    prefix: "heavy-child",
    // esbuild and tinypool are only reached by the server side of the pool, never run in a worker.
    external: ["@resvg/resvg-js", "exceljs", "esbuild", "tinypool"],
    // lib/render/png.ts finds its font package relative to its own module.
    banner: 'const __heavyChildUrl = require("node:url").pathToFileURL(__filename).href;',
    define: { "import.meta.url": "__heavyChildUrl" },
  });
  bundle.catch(() => {
    bundle = null;
  });
  return bundle;
}

let pool: Promise<Tinypool> | null = null;
/**
 * The concurrency limit and the queue are here, not tinypool's: when tinypool kills a worker for an aborted job it
 * replaces it only up to minThreads (0 here), so a job waiting in its queue behind a killed one waited for ever. Each
 * job enters tinypool only with a slot, when a worker is free or may be started.
 */
const slots = new FairQueue(
  heavyBudgets.HEAVY_WORKERS,
  heavyBudgets.HEAVY_QUEUE_MAX,
  heavyBudgets.HEAVY_USER_WORKERS ?? Math.max(1, Math.floor(heavyBudgets.HEAVY_WORKERS / 2)),
  heavyBudgets.HEAVY_USER_QUEUE_MAX,
);
let running = 0;
let startedTotal = 0;

/** Heavy jobs waiting for a worker. */
export function heavyJobsQueued(): number {
  return slots.queued;
}

/** Heavy jobs a worker is running right now (not those waiting in the queue). */
export function heavyJobsRunning(): number {
  return running;
}

/** Heavy jobs started since this process began (tests tell a cached result from a recomputed one). */
export function heavyJobsStarted(): number {
  return startedTotal;
}

function getPool(): Promise<Tinypool> {
  pool ??= buildHeavyChildBundle().then(async (filename) => {
    // Loaded when first needed, as esbuild is: an ES module kept outside the server bundle (serverExternalPackages).
    const { default: TinypoolClass } = await import("tinypool");
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "NODE_OPTIONS") env[k] = v;
    return new TinypoolClass({
      filename,
      runtime: "child_process",
      minThreads: 0,
      maxThreads: heavyBudgets.HEAVY_WORKERS,
      // A worker left idle this long exits; the next job forks a new one (about 0.1 s).
      idleTimeout: 30_000,
      // Structured clone over the IPC channel: PNG and workbook bytes travel as bytes, not as JSON arrays of numbers.
      serialization: "advanced",
      execArgv: [`--max-old-space-size=${Math.max(32, Math.floor(heavyBudgets.HEAVY_JOB_RSS_MB * HEAP_SHARE_OF_RSS))}`],
      env,
    });
  });
  pool.catch(() => {
    pool = null;
  });
  return pool;
}

/** Resident set size of a process in bytes (Linux /proc), or null when it has gone. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const statm = await fs.readFile(`/proc/${pid}/statm`, "utf8");
    const pages = Number(statm.split(" ")[1]);
    return Number.isFinite(pages) ? pages * 4096 : null;
  } catch {
    return null;
  }
}

/** Who asks for a heavy job, and the request to drop it with when its client leaves. */
export interface HeavyCaller {
  /** Who asked (a user id): one owner gets a share of the workers and of the queue, not all of them. */
  owner?: string;
  /** The client's request signal: when it aborts, a waiting job leaves the queue and a running one is stopped. */
  signal?: AbortSignal;
}

/**
 * Runs one heavy job in the pool and returns its result. Rejects with a HeavyJobError when the job overruns its time
 * budget or memory cap, when the queue is full, or when its process died; any other failure is the job's own error.
 */
export async function runHeavyJob<K extends HeavyJobKind>(
  kind: K,
  input: HeavyJobs[K]["input"],
  overrides: HeavyCaller & { budgetMs?: number } = {},
): Promise<HeavyJobs[K]["output"]> {
  const budgetMs = overrides.budgetMs ?? TIME_BUDGET[kind].ms();
  const rssCap = heavyBudgets.HEAVY_JOB_RSS_MB * 1024 * 1024;
  const label = JOB_LABEL[kind];
  const controller = new AbortController();
  let overrun: HeavyJobError | null = null;
  let timer: NodeJS.Timeout | undefined;
  let sampler: NodeJS.Timeout | undefined;
  let started = false;
  const stop = (reason: HeavyJobError) => {
    overrun ??= reason;
    controller.abort();
  };
  const onStarted = (pid: number) => {
    if (started) return;
    started = true;
    running++;
    startedTotal++;
    timer = setTimeout(
      () =>
        stop(
          new HeavyJobError(
            "time",
            `${label} was stopped: it ran over its time budget of ${formatMs(budgetMs)} (${TIME_BUDGET[kind].variable})`,
          ),
        ),
      budgetMs,
    );
    let sampling = false;
    sampler = setInterval(() => {
      if (sampling) return;
      sampling = true;
      void residentBytes(pid).then((rss) => {
        sampling = false;
        if (rss !== null && rss > rssCap) {
          // Killed here, at once: tinypool's own terminate waits a second between SIGTERM and SIGKILL.
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
          stop(
            new HeavyJobError(
              "memory",
              `${label} was stopped: its process used ${formatBytes(rss)}, over its memory cap of ${formatBytes(rssCap)} (HEAVY_JOB_RSS_MB)`,
            ),
          );
        }
      });
    }, MEMORY_SAMPLE_MS);
  };
  const task: HeavyTask = { kind, input };
  let release: () => void;
  try {
    release = await slots.acquire(overrides.owner ?? "", overrides.signal);
  } catch (err) {
    if (!(err instanceof SlotRefused)) throw err;
    if (err.refusal === "aborted")
      throw new HeavyJobError("aborted", `${label} was dropped: its client left before it started`);
    if (err.refusal === "owner-queue")
      throw new HeavyJobError(
        "queue",
        `${label} was refused: you already have ${heavyBudgets.HEAVY_USER_QUEUE_MAX} heavy jobs waiting (HEAVY_USER_QUEUE_MAX); try again when one has finished`,
      );
    throw new HeavyJobError(
      "queue",
      `${label} was refused: ${heavyBudgets.HEAVY_QUEUE_MAX} heavy jobs are already waiting (HEAVY_QUEUE_MAX); try again later`,
    );
  }
  const onClientGone = () =>
    stop(new HeavyJobError("aborted", `${label} was stopped: its client left before it finished`));
  overrides.signal?.addEventListener("abort", onClientGone, { once: true });
  try {
    const p = await getPool();
    return (await p.run(task, {
      signal: controller.signal,
      channel: {
        postMessage(message: unknown) {
          const pid = (message as { heavyJobStarted?: unknown } | null)?.heavyJobStarted;
          if (typeof pid === "number") onStarted(pid);
        },
      },
    })) as HeavyJobs[K]["output"];
  } catch (err) {
    if (overrun) throw overrun;
    const message = err instanceof Error ? err.message : String(err);
    if (/Terminating worker thread/i.test(message))
      throw new HeavyJobError("crash", `${label} was stopped: the heavy-work pool was shut down`);
    if (/exited unexpectedly/i.test(message)) {
      throw new HeavyJobError(
        "crash",
        `${label} failed: its process ended unexpectedly, most often over its memory cap of ${formatBytes(rssCap)} (HEAVY_JOB_RSS_MB)`,
      );
    }
    throw err;
  } finally {
    overrides.signal?.removeEventListener("abort", onClientGone);
    release();
    if (started) running--;
    clearTimeout(timer);
    clearInterval(sampler);
  }
}

/** Stops the pool's workers (tests and CLIs that must exit). */
export async function closeHeavyPool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await (await p).destroy();
}
