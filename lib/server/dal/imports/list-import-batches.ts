import "server-only";
import { db } from "@/lib/server/db";
import { BATCH_SELECT, toImportBatchDto, type ImportBatchDto } from "./get-import-batch";

export type ImportBatchSummaryDto = Omit<ImportBatchDto, "report" | "reportLines"> & {
  summary: { imported: number; duplicates: number; skipped: number; errors: number; warnings: number } | null;
};

/** The most recent import batches, newest first, without their full reports. */
export async function listImportBatches({ limit = 50 }: { limit?: number } = {}): Promise<ImportBatchSummaryDto[]> {
  const rows = await db.importBatch.findMany({
    orderBy: { startedAt: "desc" },
    take: Math.min(Math.max(limit, 1), 200),
    select: BATCH_SELECT,
  });
  return rows.map((row) => {
    const { report, reportLines: _lines, ...rest } = toImportBatchDto(row);
    return {
      ...rest,
      summary: report
        ? {
            imported: report.imported,
            duplicates: report.duplicates,
            skipped: report.counts.skipped,
            errors: report.counts.errors,
            warnings: report.counts.warnings,
          }
        : null,
    };
  });
}
