import "server-only";
import fsp from "node:fs/promises";
import type { Prisma } from "@/prisma/generated/client";
import { ImportReportBuilder, type ImportKind } from "@/lib/import/report";
import { writeAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { UploadTooLargeError, saveUploadToTempFile, type SavedUpload } from "@/lib/server/import/receive-upload";
import type { GenerateFromStructuresOptions } from "@/lib/server/import/generate-from-structures";
import { runImport } from "@/lib/server/import/run-import";

export interface ReceiveUploadOptions {
  body: ReadableStream<Uint8Array>;
  fileName: string;
  kind?: ImportKind;
  dryRun: boolean;
  ligand?: string;
  generate?: GenerateFromStructuresOptions;
  actorId: string;
  /** Upload limit override (tests); MAX_UPLOAD_BYTES otherwise. */
  maxBytes?: number;
}

export interface ReceivedUpload {
  batchId: string;
  /** Runs the import (call it after the response is sent); resolves when the batch is finished. */
  run: () => Promise<void>;
}

/**
 * Step 1 of an upload import: an ImportBatch row ("uploading"), then the body streamed to a temp
 * file. Step 2 (`run`) imports from disk and deletes the file; the page polls the batch meanwhile.
 * A failed upload marks the batch failed with the reason, so it never stays "uploading".
 */
export async function receiveUploadForImport(options: ReceiveUploadOptions): Promise<ReceivedUpload> {
  const batch = await db.importBatch.create({
    data: {
      kind: options.kind ?? "auto",
      sourceName: options.fileName,
      status: "uploading",
      importedById: options.actorId,
    },
    select: { id: true },
  });
  let saved: SavedUpload;
  try {
    saved = await saveUploadToTempFile(options.body, options.fileName, options.maxBytes);
  } catch (e) {
    const problem =
      e instanceof UploadTooLargeError ? e.message : `the upload was interrupted (${(e as Error).message})`;
    const report = new ImportReportBuilder({
      kind: options.kind ?? null,
      source: options.fileName,
      dryRun: options.dryRun,
    });
    report.error({ file: options.fileName, line: 0, field: "upload", problem });
    await db.importBatch.update({
      where: { id: batch.id },
      data: { status: "failed", report: report.finish() as unknown as Prisma.InputJsonValue, finishedAt: new Date() },
    });
    await writeAudit({
      actorId: options.actorId,
      action: "import.failed",
      entityType: "ImportBatch",
      entityId: batch.id,
      details: { source: options.fileName, problem },
    });
    throw new AppError(e instanceof UploadTooLargeError ? "UNPROCESSABLE" : "BAD_REQUEST", problem);
  }
  if (saved.bytes === 0) {
    await fsp.rm(saved.dir, { recursive: true, force: true });
    await db.importBatch.update({ where: { id: batch.id }, data: { status: "failed", finishedAt: new Date() } });
    throw new AppError("BAD_REQUEST", "The uploaded file is empty.");
  }
  await db.importBatch.update({ where: { id: batch.id }, data: { status: "queued" } });
  return {
    batchId: batch.id,
    run: async () => {
      try {
        await runImport({
          inputPath: saved.filePath,
          sourceName: options.fileName,
          ...(options.kind ? { kind: options.kind } : {}),
          dryRun: options.dryRun,
          ...(options.ligand ? { ligand: options.ligand } : {}),
          ...(options.generate ? { generate: options.generate } : {}),
          actorId: options.actorId,
          batchId: batch.id,
          inputSha256: saved.sha256,
        });
      } finally {
        await fsp.rm(saved.dir, { recursive: true, force: true });
      }
    },
  };
}
