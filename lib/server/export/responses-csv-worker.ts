// Worker thread of the responses export (started by responses-worker-stream.ts): reads keyset pages
// with node-postgres and turns each into one CSV chunk. It loads only pg, csv-stringify and the
// column definitions, in a heap of its own with a small old-generation cap, so the garbage of
// formatting a million rows never grows the main process's heap (bench/export.mts).
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { stringify } from "csv-stringify/sync";
import { listHeader, toCsvRecord } from "@/lib/export/columns";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { EXPORT_PG_TYPES, iterateResponsePages } from "./response-pages";

export interface ResponsesWorkerData {
  databaseUrl: string;
  studyIds: string[];
  pageRows?: number;
}

/** Messages to the parent: a CSV chunk (header first), the end, or an error. */
export type ResponsesWorkerMessage = { type: "chunk"; data: Uint8Array } | { type: "end" } | { type: "error"; message: string };

const port = parentPort;
if (!port) throw new Error("responses-csv-worker must run in a worker thread");
const data = workerData as ResponsesWorkerData;

/** Waits for the parent's "pull" (backpressure: one chunk in flight at a time). */
function nextPull(): Promise<"pull" | "stop"> {
  return new Promise((resolve) => port!.once("message", (m: "pull" | "stop") => resolve(m)));
}

function send(text: string): void {
  const bytes = Buffer.from(text, "utf8");
  // A fresh ArrayBuffer of exactly these bytes, moved (not copied) to the parent.
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  port!.postMessage({ type: "chunk", data: out } satisfies ResponsesWorkerMessage, [out.buffer]);
}

const client = new pg.Client({ connectionString: data.databaseUrl, types: EXPORT_PG_TYPES });
client.on("error", (err) => console.error("responses export worker: database connection error:", err));
try {
  await client.connect();
  if ((await nextPull()) === "stop") throw new Error("stopped");
  send(stringify([listHeader(RESPONSES_TABLE)], { record_delimiter: "unix" }));
  for await (const page of iterateResponsePages(client, data.studyIds, data.pageRows)) {
    if ((await nextPull()) === "stop") throw new Error("stopped");
    send(stringify(page.map((row) => toCsvRecord(RESPONSES_TABLE, row, { neutralizeFormulas: true })), { record_delimiter: "unix" }));
  }
  port.postMessage({ type: "end" } satisfies ResponsesWorkerMessage);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  if (message !== "stopped") port.postMessage({ type: "error", message } satisfies ResponsesWorkerMessage);
} finally {
  await client.end().catch(() => {});
  port.close();
}
