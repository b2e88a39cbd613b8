// npm run import -- PATH [--kind bundle|misi|vlmevalkit|structures] [--dry-run] [--ligand RES:CHAIN:NUM] [--json]
//                   [--generate all|t1,t2,... --per-task N --seed S [--size PX] [--image-format png|svg]]
// Imports items (or structures) from a folder, a zip/tar.gz or a single file, prints the report and
// exits non-zero when the import failed (nothing is written then). With --generate, structures are
// also turned into items by the task engine (as `npm run generate`, but straight into the database).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ImportKindSchema, formatReportLines, type ImportProgress } from "@/lib/import/report";
import { disconnectDb } from "@/lib/server/db";
import { parseTaskList } from "@/lib/import/task-inference";
import type { GenerateFromStructuresOptions } from "@/lib/server/import/generate-from-structures";
import { runImport } from "@/lib/server/import/run-import";

if (fs.existsSync(".env")) process.loadEnvFile(".env");

const USAGE =
  "usage: npm run import -- PATH [--kind bundle|misi|vlmevalkit|structures] [--dry-run] [--ligand RES:CHAIN:NUM] [--json]\n" +
  "       [--generate all|t1,t2,... --per-task N --seed S [--size PX] [--image-format png|svg]]   (structures only)";

function parseCli() {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: {
        kind: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        ligand: { type: "string" },
        json: { type: "boolean", default: false },
        generate: { type: "string" },
        "per-task": { type: "string" },
        seed: { type: "string" },
        size: { type: "string" },
        "image-format": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
    if (values.help) return { help: true as const };
    if (positionals.length !== 1)
      throw new Error(positionals.length === 0 ? "PATH is missing" : `one PATH expected, got ${positionals.length}`);
    const kind = values.kind === undefined ? undefined : ImportKindSchema.safeParse(values.kind);
    if (kind && !kind.success) throw new Error(`--kind must be one of ${ImportKindSchema.options.join(", ")}`);
    let generate: GenerateFromStructuresOptions | undefined;
    if (values.generate !== undefined) {
      const tasks = parseTaskList(values.generate);
      if (!tasks.ok) throw new Error(`--generate: ${tasks.error}`);
      const perTask = Number(values["per-task"]);
      if (!Number.isInteger(perTask) || perTask < 1) throw new Error("--generate needs --per-task, a whole number ≥ 1");
      if (!values.seed) throw new Error("--generate needs --seed (items are reproducible from it)");
      const size = values.size === undefined ? undefined : Number(values.size);
      if (size !== undefined && (!Number.isInteger(size) || size < 16 || size > 8192))
        throw new Error("--size must be a whole number of pixels in 16..8192");
      const format = values["image-format"] ?? "png";
      if (format !== "png" && format !== "svg") throw new Error("--image-format must be png or svg");
      generate = { tasks: tasks.tasks, perTask, seed: values.seed, format, ...(size ? { sizePx: size } : {}) };
    } else if (values["per-task"] || values.seed) {
      throw new Error("--per-task and --seed go with --generate");
    }
    return {
      help: false as const,
      path: positionals[0]!,
      kind: kind?.data,
      dryRun: values["dry-run"],
      ligand: values.ligand,
      json: values.json,
      generate,
    };
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const args = parseCli();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const showProgress = process.stderr.isTTY && !args.json;
const onProgress = (p: ImportProgress) => {
  if (!showProgress) return;
  const pct = p.bytesTotal > 0 ? ` ${Math.min(100, Math.round((100 * p.bytesRead) / p.bytesTotal))}%` : "";
  process.stderr.write(
    `\r${p.phase}${pct} ${p.currentFile ?? ""} read ${p.recordsRead} imported ${p.imported} duplicates ${p.duplicates} skipped ${p.skipped}`
      .padEnd(100)
      .slice(0, 160),
  );
};

try {
  const result = await runImport({
    inputPath: args.path,
    ...(args.kind ? { kind: args.kind } : {}),
    dryRun: args.dryRun,
    ...(args.ligand ? { ligand: args.ligand } : {}),
    ...(args.generate ? { generate: args.generate } : {}),
    onProgress,
  });
  if (showProgress) process.stderr.write("\n");
  if (args.json)
    console.log(JSON.stringify({ batchId: result.batchId, status: result.status, report: result.report }, null, 2));
  else {
    for (const line of formatReportLines(result.report)) console.log(line);
    console.log(`batch ${result.batchId}: ${result.status}`);
  }
  if (result.status === "failed") process.exitCode = 1;
} catch (err) {
  console.error(`Import failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
