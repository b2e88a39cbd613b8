import "server-only";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ResponsesWorkerData, ResponsesWorkerMessage } from "./responses-csv-worker";

/**
 * Heap caps of the worker, MB. Live data: its modules (pg, zod, the task schema, csv-stringify: ~10 MB old space,
 * measured) plus one page of rows raw, mapped and formatted (~5 MB at 1,000 rows); 32 MB ran out of memory with
 * 5,000-row pages. 48 MB leaves three times the live size; a small young generation keeps the RSS down.
 */
export const RESPONSES_WORKER_OLD_SPACE_MB = 48;
export const RESPONSES_WORKER_YOUNG_SPACE_MB = 8;
/** Rows per page in the worker: smaller pages than in-process keep its live heap small. */
export const RESPONSES_WORKER_PAGE_ROWS = 1_000;

/**
 * The responses export as CSV bytes made in a worker thread (see responses-csv-worker.ts). The
 * worker runs TypeScript through tsx (a dependency), so this works under tsx scripts, vitest and
 * `next start` alike. Backpressure: the worker formats the next page only when this stream is read.
 * Destroying the stream (closed download) stops the worker and its database connection.
 */
export function createResponsesWorkerStream(options: ResponsesWorkerData): Readable {
  const workerFile = pathToFileURL(path.join(process.cwd(), "lib/server/export/responses-csv-worker.ts")).href;
  // Workers do not take --import from execArgv: the bootstrap registers tsx's loader, then loads the worker.
  // No top-level await: the eval'd code may be read as a CommonJS script; a failure is rethrown as the worker's error.
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(workerFile)}); }).catch((err) => process.nextTick(() => { throw err; }));`;
  const worker = new Worker(bootstrap, {
    eval: true,
    workerData: { pageRows: RESPONSES_WORKER_PAGE_ROWS, ...options },
    execArgv: ["--conditions=react-server"],
    resourceLimits: { maxOldGenerationSizeMb: RESPONSES_WORKER_OLD_SPACE_MB, maxYoungGenerationSizeMb: RESPONSES_WORKER_YOUNG_SPACE_MB },
    stdout: false,
    stderr: false,
  });
  let waiting = false;
  let finished = false;
  const stream = new Readable({
    read() {
      if (waiting || finished) return;
      waiting = true;
      worker.postMessage("pull");
    },
    destroy(err, callback) {
      if (!finished) {
        finished = true;
        worker.postMessage("stop");
        void worker.terminate();
      }
      callback(err);
    },
  });
  worker.on("message", (m: ResponsesWorkerMessage) => {
    if (m.type === "chunk") {
      waiting = false;
      // Push returns false when the consumer is full; read() asks for the next chunk when it drains.
      if (stream.push(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength))) stream.read(0);
    } else if (m.type === "end") {
      finished = true;
      stream.push(null);
    } else {
      finished = true;
      stream.destroy(new Error(`responses export failed: ${m.message}`));
    }
  });
  worker.on("error", (err) => {
    if (finished) return;
    finished = true;
    stream.destroy(err);
  });
  worker.on("exit", (code) => {
    if (!finished) {
      finished = true;
      stream.destroy(new Error(`responses export worker exited with code ${code}`));
    }
  });
  return stream;
}
