import "server-only";
import { db } from "@/lib/server/db";

/** Values present in the item table, for the browser's filter menus. */
export interface ItemFacetsDto {
  splits: string[];
  tags: string[];
  sources: string[];
  /** Active items per task (what pools can draw from). */
  activeByTask: Record<string, number>;
  total: number;
}

const MAX_TAGS_LISTED = 200;

export async function listItemFacets(): Promise<ItemFacetsDto> {
  const [splits, sources, tags, byTask, total] = await Promise.all([
    db.item.findMany({ distinct: ["split"], select: { split: true }, orderBy: { split: "asc" } }),
    db.item.findMany({ distinct: ["source"], select: { source: true }, orderBy: { source: "asc" } }),
    db.$queryRaw<
      Array<{ tag: string }>
    >`SELECT DISTINCT unnest(tags) AS tag FROM "Item" ORDER BY tag LIMIT ${MAX_TAGS_LISTED}`,
    db.item.groupBy({ by: ["taskId"], where: { status: "active" }, _count: { _all: true } }),
    db.item.count(),
  ]);
  return {
    splits: splits.map((s) => s.split),
    sources: sources.map((s) => s.source),
    tags: tags.map((t) => t.tag),
    activeByTask: Object.fromEntries(byTask.map((g) => [g.taskId, g._count._all])),
    total,
  };
}
