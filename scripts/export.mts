// Streams a study's export to a file or stdout, the same bytes as the /api/export routes.
//   npm run export -- --study ID --what responses|summary|items|participants|tsv|codebook [--scope study|pool] [--out FILE]
// summary = per-task summary, items = per-item summary, tsv = the pool's items as a VLMEvalKit TSV.
// Needs DATABASE_URL (or the PGlite folder); prints the error and exits with status 1 on bad input.
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { disconnectDb } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { openCodebookExport, openStudyExport, type OpenedExport, type StudyExportKind } from "@/lib/server/export/open-study-export";

const USAGE = "usage: npm run export -- --study ID --what responses|summary|items|participants|tsv|codebook [--scope study|pool] [--out FILE]";

const WHAT: Record<string, StudyExportKind | "codebook"> = {
  responses: "responses",
  summary: "task-summary",
  "task-summary": "task-summary",
  items: "item-summary",
  "item-summary": "item-summary",
  participants: "participants",
  tsv: "vlmevalkit-tsv",
  "vlmevalkit-tsv": "vlmevalkit-tsv",
  codebook: "codebook",
};

function fail(message: string): never {
  process.stderr.write(`export: ${message}\n${USAGE}\n`);
  process.exit(1);
}

if (fs.existsSync(".env")) process.loadEnvFile(".env");

let parsed;
try {
  parsed = parseArgs({
    options: {
      study: { type: "string" },
      what: { type: "string" },
      scope: { type: "string", default: "study" },
      out: { type: "string" },
      format: { type: "string", default: "csv" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
if (parsed.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const what = parsed.what === undefined ? undefined : WHAT[parsed.what];
if (!what) fail(parsed.what === undefined ? "--what is required" : `unknown --what '${parsed.what}'`);
if (parsed.scope !== "study" && parsed.scope !== "pool") fail(`--scope must be study or pool, got '${parsed.scope}'`);
if (what !== "codebook" && !parsed.study) fail("--study is required");

try {
  const started = performance.now();
  const opened: OpenedExport =
    what === "codebook"
      ? openCodebookExport(parsed.format === "md" ? "md" : "csv")
      : await openStudyExport({ studyId: parsed.study as string, kind: what, scope: parsed.scope });
  let bytes = 0;
  opened.stream.on("data", (chunk: Buffer | string) => {
    bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  });
  await pipeline(opened.stream, parsed.out ? fs.createWriteStream(parsed.out) : process.stdout);
  if (parsed.out) {
    process.stderr.write(`export: wrote ${parsed.out} (${bytes} bytes, ${opened.fileName}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
} catch (err) {
  // The reader closed the pipe (`| head`): what it wanted was written.
  if ((err as NodeJS.ErrnoException).code === "EPIPE") process.exit(0);
  process.exitCode = 1;
  process.stderr.write(`export: ${err instanceof AppError ? err.message : err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
} finally {
  await disconnectDb();
}
