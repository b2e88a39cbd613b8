import "server-only";
import { db } from "@/lib/server/db";

export interface ModelRunDto {
  id: string;
  name: string;
  model: string;
  source: string;
  importedAt: Date;
  importedBy: string | null;
  fileName: string | null;
  nPredictions: number;
  nUnparseable: number;
  nSkipped: number;
  nReferenceMismatches: number;
  /** Predictions per task id. */
  byTask: Record<string, number>;
}

function readNumber(metadata: unknown, key: string): number {
  const v = metadata && typeof metadata === "object" ? (metadata as Record<string, unknown>)[key] : undefined;
  return typeof v === "number" ? v : 0;
}

/** Imported model runs (not the paper's as-reported rows), newest first, with prediction counts. */
export async function listModelRuns(): Promise<ModelRunDto[]> {
  const [runs, perTask, unparseable] = await Promise.all([
    db.modelRun.findMany({
      where: { asReported: false },
      orderBy: { importedAt: "desc" },
      select: {
        id: true,
        name: true,
        model: true,
        source: true,
        importedAt: true,
        metadata: true,
        importedBy: { select: { email: true } },
      },
    }),
    db.modelPrediction.groupBy({ by: ["modelRunId", "taskId"], _count: { _all: true } }),
    db.modelPrediction.groupBy({ by: ["modelRunId"], where: { parseError: { not: null } }, _count: { _all: true } }),
  ]);
  return runs.map((r) => {
    const byTask: Record<string, number> = {};
    for (const g of perTask) if (g.modelRunId === r.id) byTask[g.taskId] = g._count._all;
    const fileName =
      r.metadata && typeof r.metadata === "object" ? (r.metadata as Record<string, unknown>).fileName : undefined;
    return {
      id: r.id,
      name: r.name,
      model: r.model,
      source: r.source,
      importedAt: r.importedAt,
      importedBy: r.importedBy?.email ?? null,
      fileName: typeof fileName === "string" ? fileName : null,
      nPredictions: Object.values(byTask).reduce((s, n) => s + n, 0),
      nUnparseable: unparseable.find((u) => u.modelRunId === r.id)?._count._all ?? 0,
      nSkipped: readNumber(r.metadata, "nSkipped"),
      nReferenceMismatches: readNumber(r.metadata, "nReferenceMismatches"),
      byTask,
    };
  });
}
