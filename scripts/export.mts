// Streams a study's export to a file or stdout, the same bytes as the /api/export routes.
//   npm run export -- --study ID --what responses|summary|items|participants|three-d-usage|tsv|codebook|paper-table [--scope study|pool] [--out FILE]
//   npm run export -- --study ID --what psych-ds --out DIR [--scope study|pool]   (the analysis package: a Psych-DS folder)
//   paper-table: [--format latex|md|csv] [--metric exact|partial|both] [--intervals line|pm] [--condition static|interactive]
// summary = per-task summary, items = per-item summary, tsv = the pool's items as a VLMEvalKit TSV.
// Needs DATABASE_URL (or the embedded database, started by the pre-script); prints the error and exits with status 1 on bad input.
// --what responses loads neither Prisma nor the other exports: the export's child process resolves the study and
// writes the file itself (lib/server/export/responses-child-stream.ts), so this process stays small (bench/export.mts).
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import {
  PAPER_TABLE_FORMATS,
  PAPER_TABLE_SCORE_KINDS,
  type PaperTableFormat,
  type PaperTableScoreKind,
} from "@/lib/results/paper-table";
import { AppError } from "@/lib/server/errors";
import type { TsvImageSize } from "@/lib/server/export/tsv-image";
import type { OpenedExport, StudyExportKind } from "@/lib/server/export/open-study-export";

const USAGE =
  "usage: npm run export -- --study ID --what responses|summary|items|participants|three-d-usage|tsv|codebook|paper-table|psych-ds [--scope study|pool] [--out FILE]\n" +
  "       paper-table: [--format latex|md|csv] [--metric exact|partial|both] [--intervals line|pm] [--score paper] [--condition static|interactive]\n" +
  "       tsv: [--image-size original|1024|768|512] (longest image side, px)\n" +
  "       codebook: [--format csv|md]\n" +
  "       psych-ds: --out DIR (a new or empty folder; the analysis package: Psych-DS dataset, analysis.R, analysis.py)";

const WHAT: Record<string, StudyExportKind | "codebook"> = {
  responses: "responses",
  summary: "task-summary",
  "task-summary": "task-summary",
  items: "item-summary",
  "item-summary": "item-summary",
  participants: "participants",
  "three-d-usage": "three-d-usage",
  tsv: "vlmevalkit-tsv",
  "vlmevalkit-tsv": "vlmevalkit-tsv",
  codebook: "codebook",
  "paper-table": "paper-table",
  "psych-ds": "psych-ds",
};

function fail(message: string): never {
  process.stderr.write(`export: ${message}\n${USAGE}\n`);
  process.exit(1);
}

if (fs.existsSync(".env")) process.loadEnvFile(".env");

function parseCommandLine() {
  try {
    return parseArgs({
      options: {
        study: { type: "string" },
        what: { type: "string" },
        scope: { type: "string", default: "study" },
        out: { type: "string" },
        format: { type: "string" },
        metric: { type: "string", default: "both" },
        intervals: { type: "string", default: "line" },
        score: { type: "string", default: "paper" },
        condition: { type: "string" },
        "image-size": { type: "string", default: "original" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
}
const parsed = parseCommandLine();
if (parsed.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const what = parsed.what === undefined ? undefined : WHAT[parsed.what];
if (!what) fail(parsed.what === undefined ? "--what is required" : `unknown --what '${parsed.what}'`);
if (parsed.scope !== "study" && parsed.scope !== "pool") fail(`--scope must be study or pool, got '${parsed.scope}'`);
if (what !== "codebook" && !parsed.study) fail("--study is required");
const paperFormat = parsed.format ?? "latex";
if (what === "paper-table") {
  if (!(PAPER_TABLE_FORMATS as readonly string[]).includes(paperFormat))
    fail(`--format must be latex, md or csv, got '${paperFormat}'`);
  if (!["exact", "partial", "both"].includes(parsed.metric))
    fail(`--metric must be exact, partial or both, got '${parsed.metric}'`);
  if (!["line", "pm"].includes(parsed.intervals)) fail(`--intervals must be line or pm, got '${parsed.intervals}'`);
  if (!(PAPER_TABLE_SCORE_KINDS as readonly string[]).includes(parsed.score))
    fail(`--score must be one of ${PAPER_TABLE_SCORE_KINDS.join(", ")}, got '${parsed.score}'`);
  if (parsed.condition !== undefined && !["static", "interactive"].includes(parsed.condition))
    fail(`--condition must be static or interactive, got '${parsed.condition}'`);
} else if (what === "vlmevalkit-tsv") {
  const { TSV_IMAGE_SIZES } = await import("@/lib/server/export/tsv-image");
  if (!(TSV_IMAGE_SIZES as readonly string[]).includes(parsed["image-size"]))
    fail(`--image-size must be one of ${TSV_IMAGE_SIZES.join(", ")}, got '${parsed["image-size"]}'`);
} else if (what === "psych-ds") {
  if (!parsed.out) fail("--out DIR is required for psych-ds (the package is a folder)");
} else if (what === "codebook") {
  if (parsed.format !== undefined && parsed.format !== "csv" && parsed.format !== "md")
    fail(`--format must be csv or md for the codebook, got '${parsed.format}'`);
}

/**
 * Responses: the child process writes to a temporary file beside --out (or to stdout), renamed to --out only when the
 * export succeeded: a failed or interrupted export never truncates or removes an existing file of that name.
 */
async function exportResponses(started: number): Promise<void> {
  const { databaseUrl } = await import("@/lib/server/env");
  const { writeResponsesWithChild } = await import("@/lib/server/export/responses-child-stream");
  const out = parsed.out;
  const temp = out ? path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.partial`) : null;
  const removeTemp = () => temp && fs.rmSync(temp, { force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    removeTemp();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  const fd = temp ? fs.openSync(temp, "w") : 1;
  try {
    await writeResponsesWithChild(
      { databaseUrl, studyId: parsed.study as string, scope: parsed.scope as "study" | "pool" },
      fd,
    );
  } catch (err) {
    // An unknown study or a failed export leaves no file behind. The child's message is the whole story (no stack).
    if (temp) {
      fs.closeSync(fd);
      removeTemp();
    }
    throw new AppError("UNPROCESSABLE", err instanceof Error ? err.message : String(err));
  }
  if (out && temp) {
    fs.closeSync(fd);
    fs.renameSync(temp, out);
    process.stderr.write(
      `export: wrote ${out} (${fs.statSync(out).size} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
}

/** The analysis package, written as a folder (the results page's download is the same folder as .tar.gz). */
async function exportPsychDs(started: number): Promise<void> {
  const { writePsychDsDataset } = await import("@/lib/server/export/psych-ds-export");
  const { disconnectDb } = await import("@/lib/server/db");
  try {
    const result = await writePsychDsDataset({
      studyId: parsed.study as string,
      scope: parsed.scope as "study" | "pool",
      dir: parsed.out as string,
    });
    process.stderr.write(
      `export: wrote the analysis package to ${result.dir} (${result.nTrials} answers, ${result.nParticipants} participants, ${result.nItems} items) in ${((performance.now() - started) / 1000).toFixed(1)} s\n` +
        result.files.map((f) => `  ${f}\n`).join("") +
        `run: Rscript ${path.join(result.dir, "analysis", "analysis.R")}   /   python3 ${path.join(result.dir, "analysis", "analysis.py")}\n`,
    );
  } finally {
    await disconnectDb();
  }
}

async function exportOther(started: number): Promise<void> {
  const { openCodebookExport, openStudyExport } = await import("@/lib/server/export/open-study-export");
  const { disconnectDb } = await import("@/lib/server/db");
  const { closeHeavyPool } = await import("@/lib/server/heavy/pool");
  try {
    const opened: OpenedExport =
      what === "codebook"
        ? openCodebookExport(parsed.format === "md" ? "md" : "csv")
        : await openStudyExport({
            studyId: parsed.study as string,
            kind: what as StudyExportKind,
            scope: parsed.scope as "study" | "pool",
            imageSize: parsed["image-size"] as TsvImageSize,
            paperTable: {
              format: paperFormat as PaperTableFormat,
              metric: parsed.metric as "exact" | "partial" | "both",
              intervals: parsed.intervals as "line" | "pm",
              scoreKind: parsed.score as PaperTableScoreKind,
              condition: parsed.condition ?? null,
            },
          });
    let bytes = 0;
    opened.stream.on("data", (chunk: Buffer | string) => {
      bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    });
    await pipeline(opened.stream, parsed.out ? fs.createWriteStream(parsed.out) : process.stdout);
    if (parsed.out) {
      process.stderr.write(
        `export: wrote ${parsed.out} (${bytes} bytes, ${opened.fileName}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
    }
  } finally {
    // A large study's computed export ran in the heavy-work pool: its idle worker would keep the CLI alive for 30 s.
    await closeHeavyPool();
    await disconnectDb();
  }
}

try {
  const started = performance.now();
  if (what === "responses" && process.env.EXPORT_IN_PROCESS !== "1") await exportResponses(started);
  else if (what === "psych-ds") await exportPsychDs(started);
  else await exportOther(started);
} catch (err) {
  // The reader closed the pipe (`| head`): what it wanted was written.
  if ((err as NodeJS.ErrnoException).code === "EPIPE") process.exit(0);
  process.exitCode = 1;
  process.stderr.write(
    `export: ${err instanceof AppError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
}
