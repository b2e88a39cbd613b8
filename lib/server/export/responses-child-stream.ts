import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { Readable } from "node:stream";
import { buildChildBundle } from "@/lib/server/child-bundle";
import { heavyBudgets } from "@/lib/server/heavy/budgets";
import { Semaphore } from "@/lib/server/heavy/semaphore";
import type { ResponsesChildOptions } from "./responses-csv-child";

/**
 * Heap caps of the child, MB. Live data: its code (pg, zod, the task schemas, csv-stringify: ~10 MB old space) plus
 * one page of rows raw, mapped and formatted (~5 MB at 1,000 rows). A small young generation keeps the RSS down;
 * the old-space cap is three times the live size, so a bug that holds rows fails fast instead of growing.
 */
export const RESPONSES_CHILD_OLD_SPACE_MB = 48;
export const RESPONSES_CHILD_SEMI_SPACE_MB = 2;
/** Rows per page in the child: smaller pages than in-process keep its live heap small. */
export const RESPONSES_CHILD_PAGE_ROWS = 1_000;
/** Bytes of the child's stderr kept for the error message. */
const STDERR_TAIL_BYTES = 4_096;

let bundlePath: Promise<string> | null = null;

/**
 * The child's code as one plain CommonJS file (pg, csv-stringify, zod and the export's own modules bundled by
 * esbuild), written once per content to the temp folder: the child then starts as plain `node FILE`, without tsx's
 * loader thread and esbuild service, which would make the child heavier than the in-process export.
 * Built from the sources on first use in each process (~0.3 s), so it can never be older than the code beside it.
 */
export function buildResponsesChildBundle(): Promise<string> {
  // pg-native is pg's optional native driver.
  bundlePath ??= buildChildBundle({
    entry: "lib/server/export/responses-csv-child.ts",
    dir: os.tmpdir(),
    prefix: "misi-responses-export",
    external: ["pg-native"],
  });
  bundlePath.catch(() => {
    bundlePath = null;
  });
  return bundlePath;
}

/**
 * This process's environment (PG* variables and CA certificates reach node-postgres as in the server) without
 * NODE_OPTIONS, whose loaders (tsx) or heap flags would undo the child's point, plus the export's own variables.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

export interface ResponsesChildExportOptions {
  databaseUrl: string;
  studyId: string;
  scope: "study" | "pool";
  pageRows?: number;
}

/**
 * Export children running at once (EXPORT_MAX_CHILDREN): eight parallel exports made eight children (1.07 GB); more
 * wait for a slot, their download simply starting later.
 */
export const exportChildSlots = new Semaphore(heavyBudgets.EXPORT_MAX_CHILDREN);

/**
 * Starts the child (responses-csv-child.ts) with its output on a pipe or on an open file descriptor, once a slot is
 * free (exportChildSlots, held until the child has exited). The connection string and options travel in its
 * environment, so they never show in a process list.
 */
async function spawnResponsesChild(options: ResponsesChildExportOptions, stdout: "pipe" | number) {
  const file = await buildResponsesChildBundle();
  const release = await exportChildSlots.acquire();
  const childOptions: ResponsesChildOptions = {
    studyId: options.studyId,
    scope: options.scope,
    pageRows: options.pageRows ?? RESPONSES_CHILD_PAGE_ROWS,
  };
  const proc = spawn(
    process.execPath,
    [
      `--max-old-space-size=${RESPONSES_CHILD_OLD_SPACE_MB}`,
      `--max-semi-space-size=${RESPONSES_CHILD_SEMI_SPACE_MB}`,
      file,
    ],
    {
      env: childEnv({
        MISI_EXPORT_DATABASE_URL: options.databaseUrl,
        MISI_EXPORT_OPTIONS: JSON.stringify(childOptions),
      }),
      stdio: ["ignore", stdout, "pipe"],
    },
  );
  proc.once("close", release);
  proc.once("error", release);
  let stderr = "";
  const stderrStream = proc.stderr as Readable;
  stderrStream.setEncoding("utf8");
  stderrStream.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
  });
  /** Why the child failed, from its stderr (the child prints one message) or its exit. */
  const failure = (code: number | null, signal: NodeJS.Signals | null) =>
    stderr.trim() || `export process ended with ${signal ?? `code ${code}`}`;
  return { proc, failure };
}

/**
 * The responses export written by the child straight to an open file descriptor (the CLI's --out file or stdout): the
 * bytes never pass through this process. Resolves when the child has finished; rejects with its message (e.g. an
 * unknown study) otherwise.
 */
export async function writeResponsesWithChild(options: ResponsesChildExportOptions, fd: number): Promise<void> {
  const { proc, failure } = await spawnResponsesChild(options, fd);
  await new Promise<void>((resolve, reject) => {
    proc.on("error", (err) => reject(new Error(`could not start the export process: ${err.message}`)));
    proc.on("close", (code, signal) => (code === 0 ? resolve() : reject(new Error(failure(code, signal)))));
  });
}

/**
 * The responses export as CSV bytes made in a child process with capped heaps (the route's download). Backpressure
 * runs through the pipe: the child reads its next page only when the pipe has drained, which happens only as fast as
 * this stream is read. The stream ends only after the child exited with 0, so a failed export is an error here, never
 * a silently short file. Destroying the stream (closed download) kills the child and with it its database connection.
 */
export function createResponsesChildStream(options: ResponsesChildExportOptions): Readable {
  let child: ChildProcess | null = null;
  let done = false;
  const stream = new Readable({
    read() {
      child?.stdout?.resume();
    },
    destroy(err, callback) {
      done = true;
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      callback(err);
    },
  });
  spawnResponsesChild(options, "pipe").then(
    ({ proc, failure }) => {
      child = proc;
      if (done) {
        proc.kill("SIGTERM");
        return;
      }
      const stdout = proc.stdout as Readable;
      stdout.on("data", (chunk: Buffer) => {
        if (!stream.push(chunk)) stdout.pause();
      });
      proc.on("error", (err) => {
        if (done) return;
        done = true;
        stream.destroy(new Error(`responses export: could not start the export process: ${err.message}`));
      });
      // "close": the child has exited and its stdout/stderr are fully read.
      proc.on("close", (code, signal) => {
        if (done) return;
        done = true;
        if (code === 0) stream.push(null);
        else stream.destroy(new Error(`responses export failed: ${failure(code, signal)}`));
      });
    },
    (err: unknown) => {
      if (done) return;
      done = true;
      stream.destroy(
        new Error(
          `responses export: could not build the export process's code: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    },
  );
  return stream;
}
