import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import type { Prisma } from "@/prisma/generated/client";
import { detectImportKind } from "@/lib/import/detect-kind";
import { FileIndex } from "@/lib/import/image-refs";
import { ImportReportBuilder, type ImportKind, type ImportProgress, type ImportReport } from "@/lib/import/report";
import { writeAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { analyzeFlowTables } from "@/lib/server/table-statistics";
import { importBundle } from "./import-bundle";
import { FatalImportError, ProgressTracker, type ImportContext } from "./import-context";
import { importMisiRelease } from "./import-misi";
import type { GenerateFromStructuresOptions } from "./generate-from-structures";
import { importStructures } from "./import-structures";
import { importVlmevalkit, listTsvFiles } from "./import-vlmevalkit";
import { ItemWriter, type ImportDbClient } from "./item-writer";
import { readDelimitedRows } from "./record-readers";
import { SourceOpenError, openSourceTree, readSmallFile, type SourceTree } from "./source-tree";

/** ImportBatch.status values. */
export type ImportBatchStatus = "queued" | "running" | "succeeded" | "failed" | "dry_run";

export interface RunImportOptions {
  /** File or folder on this machine (an upload is first streamed to a temp file). */
  inputPath: string;
  /** Name shown in reports (an upload's original file name); defaults to the path's base name. */
  sourceName?: string;
  /** Skips detection. */
  kind?: ImportKind;
  /** Reads and checks everything, writes nothing (duplicates are still looked up). */
  dryRun?: boolean;
  actorId?: string | null;
  /** An ImportBatch created earlier (the upload route creates it before the body has arrived). */
  batchId?: string;
  /** Structures: ligand residue RES:CHAIN:NUM for complexes without a ligand file. */
  ligand?: string;
  /** Structures: generate items from them with the task engine. */
  generate?: GenerateFromStructuresOptions;
  /** sha256 of the input when already known (computed while an upload was written). */
  inputSha256?: string;
  onProgress?: (progress: ImportProgress) => void;
  /**
   * Keep SVG images as SVG instead of rasterising them. ONLY for a bundle this process has just generated with the
   * app's own renderer (the demo seed); anything from outside is foreign and is rasterised (lib/import/foreign-svg.ts).
   */
  ownSvg?: boolean;
}

export interface RunImportResult {
  batchId: string;
  status: ImportBatchStatus;
  report: ImportReport;
}

/**
 * One batch is one transaction: when anything fatal happens (an unreadable archive, a wrong TSV
 * header, a truncated JSON file, a database error) the whole batch rolls back and the report says
 * why; skipped records are not failures. An import of 160k items with images is a long
 * transaction, which is fine for an admin action and is what makes "nothing half-imported" hold
 * even if the process dies.
 */
const IMPORT_TRANSACTION_TIMEOUT_MS = 6 * 60 * 60 * 1000;
const IMPORT_TRANSACTION_MAX_WAIT_MS = 60 * 1000;
/** pg_advisory_xact_lock key: imports run one at a time (their duplicate checks would race otherwise). */
const IMPORT_LOCK_KEY = 0x6d697369;
/** How often a running import's progress is written to its ImportBatch row. */
const PROGRESS_WRITE_INTERVAL_MS = 2000;
const MAX_MANIFEST_PROBE_BYTES = 1024 * 1024;
const MAX_TSV_HEADER_PROBES = 20;

class Rollback extends Error {}

async function hashInput(inputPath: string, tree: SourceTree): Promise<string> {
  const stat = await fsp.stat(inputPath);
  const hash = createHash("sha256");
  if (stat.isFile()) {
    for await (const chunk of fs.createReadStream(inputPath) as AsyncIterable<Buffer>) hash.update(chunk);
    return hash.digest("hex");
  }
  // A folder: its listing (paths and sizes) identifies it well enough for the batch record.
  for (const f of tree.files) hash.update(`${f.path}\u0000${f.size}\n`);
  return `listing:${hash.digest("hex")}`;
}

async function gatherKindEvidence(tree: SourceTree) {
  const manifests: Record<string, unknown> = {};
  for (const f of tree.files) {
    if (!/(^|\/)manifest\.json$/i.test(f.path) || f.path.split("/").length > 2 || f.size > MAX_MANIFEST_PROBE_BYTES)
      continue;
    try {
      manifests[f.path] = JSON.parse((await readSmallFile(tree, f.path, MAX_MANIFEST_PROBE_BYTES)).toString("utf8"));
    } catch {
      manifests[f.path] = null;
    }
  }
  const tsvHeaders: Record<string, string[]> = {};
  for (const f of listTsvFiles(tree.files).slice(0, MAX_TSV_HEADER_PROBES)) {
    try {
      for await (const row of readDelimitedRows(await tree.open(f), "\t")) {
        if (row.ok) tsvHeaders[f] = row.cells.map((c) => c.trim());
        break;
      }
    } catch {
      // an unreadable TSV is reported by the importer that reads it
    }
  }
  return { files: tree.files.map((f) => f.path), manifests, tsvHeaders };
}

function persistProgress(batchId: string, external?: (p: ImportProgress) => void): (p: ImportProgress) => void {
  let last = 0;
  let inflight = false;
  return (progress) => {
    external?.(progress);
    if (inflight || Date.now() - last < PROGRESS_WRITE_INTERVAL_MS) return;
    last = Date.now();
    inflight = true;
    // Only while the batch runs: a progress write still in flight when the import finishes must not overwrite the
    // final report (PostgreSQL re-checks the condition on the row the final update wrote).
    db.importBatch
      .updateMany({
        where: { id: batchId, status: "running" },
        data: { report: { progress } as Prisma.InputJsonValue },
      })
      .catch(() => undefined)
      .finally(() => {
        inflight = false;
      });
  };
}

async function runKind(
  kind: ImportKind,
  ctx: ImportContext,
  client: ImportDbClient,
  options: RunImportOptions,
): Promise<void> {
  switch (kind) {
    case "bundle":
      return importBundle(ctx);
    case "misi":
      return importMisiRelease(ctx);
    case "vlmevalkit":
      return importVlmevalkit(ctx);
    case "structures":
      return importStructures(ctx, client, {
        dryRun: options.dryRun ?? false,
        ...(options.ligand ? { ligand: options.ligand } : {}),
        ...(options.generate ? { generate: options.generate } : {}),
      });
  }
}

/** Imports a bundle, MiSI release, VLMEvalKit TSV or structures; records the batch, its report and an audit entry. */
export async function runImport(options: RunImportOptions): Promise<RunImportResult> {
  const dryRun = options.dryRun ?? false;
  const sourceName = options.sourceName ?? options.inputPath.split(/[\\/]/).filter(Boolean).at(-1) ?? options.inputPath;
  const report = new ImportReportBuilder({ kind: options.kind ?? null, source: sourceName, dryRun });
  const batch = options.batchId
    ? await db.importBatch.update({
        where: { id: options.batchId },
        data: { status: "running", sourceName },
        select: { id: true },
      })
    : await db.importBatch.create({
        data: { kind: options.kind ?? "auto", sourceName, status: "running", importedById: options.actorId ?? null },
        select: { id: true },
      });
  const progress = new ProgressTracker(report, persistProgress(batch.id, options.onProgress));
  let tree: SourceTree | null = null;
  let kind: ImportKind | null = options.kind ?? null;
  let inputSha256 = options.inputSha256 ?? null;

  try {
    const notes = { skipped: [] as Array<{ file: string; reason: string }> };
    tree = await openSourceTree(
      options.inputPath,
      {
        label: sourceName,
        onPhase: (phase, file) => progress.setPhase(phase === "extracting" ? "extracting" : "opening", file),
      },
      notes,
    );
    for (const s of notes.skipped) report.warn({ file: s.file, line: 0, field: "archive", problem: s.reason });
    inputSha256 ??= await hashInput(options.inputPath, tree);
    if (!kind) {
      const detected = detectImportKind(await gatherKindEvidence(tree));
      if (!detected.kind)
        throw new FatalImportError(
          sourceName,
          0,
          "kind",
          `cannot tell what this is: ${detected.reason}; pass the kind (bundle, misi, vlmevalkit, structures)`,
        );
      kind = detected.kind;
    }
    report.setKind(kind);
    const openTree = tree;
    const index = new FileIndex(tree.files);
    const run = async (client: ImportDbClient) => {
      const writer = new ItemWriter(client, { dryRun, batchId: batch.id, report });
      await runKind(
        kind!,
        { tree: openTree, index, report, writer, progress, ownSvg: options.ownSvg ?? false },
        client,
        options,
      );
      progress.setPhase("finishing", null);
    };
    if (dryRun) await run(db);
    else {
      await db.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`;
          await run(tx);
          if (report.hasErrors) throw new Rollback();
        },
        { timeout: IMPORT_TRANSACTION_TIMEOUT_MS, maxWait: IMPORT_TRANSACTION_MAX_WAIT_MS },
      );
    }
  } catch (e) {
    if (e instanceof FatalImportError) report.error({ file: e.file, line: e.line, field: e.field, problem: e.problem });
    else if (e instanceof SourceOpenError)
      report.error({ file: e.file, line: 0, field: "archive", problem: e.message });
    else if (!(e instanceof Rollback)) {
      console.error("import failed", e);
      report.error({
        file: sourceName,
        line: 0,
        field: "import",
        problem: `stopped by an unexpected error: ${(e as Error).message?.split("\n")[0] ?? String(e)}`,
      });
    }
  } finally {
    await tree?.close().catch(() => undefined);
  }

  if (options.generate && kind !== "structures" && !report.hasErrors) {
    report.warn({
      file: sourceName,
      line: 0,
      field: "generation",
      problem: `item generation applies to structure imports only; this was a ${kind ?? "unknown"} import`,
    });
  }
  const final = report.finish();
  const status: ImportBatchStatus = final.counts.errors > 0 ? "failed" : dryRun ? "dry_run" : "succeeded";
  await db.importBatch.update({
    where: { id: batch.id },
    data: {
      status,
      kind: kind ?? "unknown",
      contentHash: inputSha256,
      report: final as unknown as Prisma.InputJsonValue,
      finishedAt: new Date(),
    },
  });
  // New items change the tables' statistics; refreshed now rather than at autovacuum's next pass.
  if (status === "succeeded" && final.imported > 0) await analyzeFlowTables();
  await writeAudit({
    actorId: options.actorId ?? null,
    action: dryRun ? "import.dry_run" : status === "failed" ? "import.failed" : "import.completed",
    entityType: "ImportBatch",
    entityId: batch.id,
    details: {
      kind: kind ?? "unknown",
      source: sourceName,
      imported: final.imported,
      duplicates: final.duplicates,
      skipped: final.counts.skipped,
      errors: final.counts.errors,
      ...(inputSha256 ? { inputSha256 } : {}),
    },
  });
  return { batchId: batch.id, status, report: final };
}
