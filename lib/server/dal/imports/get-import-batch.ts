import "server-only";
import {
  ImportProgressSchema,
  ImportReportSchema,
  formatReportLines,
  type ImportProgress,
  type ImportReport,
} from "@/lib/import/report";
import { db } from "@/lib/server/db";

export interface ImportBatchDto {
  id: string;
  kind: string;
  sourceName: string;
  status: string;
  contentHash: string | null;
  startedAt: string;
  finishedAt: string | null;
  importedBy: string | null;
  /** The final report, once the batch is finished. */
  report: ImportReport | null;
  /** The report as `file:line: field: problem` lines. */
  reportLines: string[];
  /** While running: what the import is doing. */
  progress: ImportProgress | null;
  /**
   * Unfinished, and silent for longer than STALE_IMPORT_MS: the server probably stopped during the
   * import (its transaction was rolled back, so nothing of it was stored).
   */
  stale: boolean;
  itemCount: number;
}

const BATCH_SELECT = {
  id: true,
  kind: true,
  sourceName: true,
  status: true,
  contentHash: true,
  startedAt: true,
  finishedAt: true,
  report: true,
  importedBy: { select: { email: true } },
  _count: { select: { items: true } },
} as const;

type BatchRow = {
  id: string;
  kind: string;
  sourceName: string;
  status: string;
  contentHash: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  report: unknown;
  importedBy: { email: string } | null;
  _count: { items: number };
};

/** Progress is written every few seconds on PostgreSQL; this much silence means the import is gone. */
export const STALE_IMPORT_MS = 15 * 60 * 1000;

/** ImportBatch.report holds `{ progress }` while running and the report when done; both are checked on read. */
export function toImportBatchDto(row: BatchRow): ImportBatchDto {
  const report = ImportReportSchema.safeParse(row.report);
  const progress = report.success
    ? null
    : ImportProgressSchema.safeParse((row.report as { progress?: unknown } | null)?.progress);
  return {
    id: row.id,
    kind: row.kind,
    sourceName: row.sourceName,
    status: row.status,
    contentHash: row.contentHash,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    importedBy: row.importedBy?.email ?? null,
    report: report.success ? report.data : null,
    reportLines: report.success ? formatReportLines(report.data) : [],
    progress: progress?.success ? progress.data : null,
    stale:
      ["uploading", "queued", "running"].includes(row.status) &&
      Date.now() - Date.parse(progress?.success ? progress.data.updatedAt : row.startedAt.toISOString()) >
        STALE_IMPORT_MS,
    itemCount: row._count.items,
  };
}

/** One import batch with its report, or null. Admin only (callers check the role). */
export async function findImportBatch(batchId: string): Promise<ImportBatchDto | null> {
  const row = await db.importBatch.findUnique({ where: { id: batchId }, select: BATCH_SELECT });
  return row ? toImportBatchDto(row) : null;
}

export { BATCH_SELECT };
