import "server-only";
import { db } from "@/lib/server/db";
import { studyAccessWhere, type StudyViewer } from "@/lib/server/study-access";
import { AppError } from "@/lib/server/errors";

export interface PoolVersionDetailDto {
  id: string;
  version: number;
  frozenAt: Date | null;
  createdAt: Date;
  recipe: unknown;
  itemCount: number;
  /** Items per task, split by the items' current status (an item excluded after freezing stays in the version). */
  perTask: Array<{ taskId: string; active: number; inactive: number }>;
  studies: Array<{ id: string; name: string; slug: string; status: string }>;
  /** Editing creates a new version (frozen, or used by a study). */
  locked: boolean;
}

export interface PoolDetailDto {
  id: string;
  name: string;
  description: string | null;
  createdAt: Date;
  createdByEmail: string | null;
  versions: PoolVersionDetailDto[];
  audit: Array<{ id: string; at: Date; action: string; actorEmail: string | null; details: unknown }>;
}

/** A pool with per-task counts of each version, listing the studies `viewer` may see (all without one); throws NOT_FOUND. */
export async function getPool(poolId: string, viewer?: StudyViewer): Promise<PoolDetailDto> {
  const pool = await db.pool.findUnique({
    where: { id: poolId },
    select: {
      id: true,
      name: true,
      description: true,
      createdAt: true,
      createdBy: { select: { email: true } },
      versions: {
        orderBy: { version: "desc" },
        select: {
          id: true,
          version: true,
          frozenAt: true,
          createdAt: true,
          recipe: true,
          _count: { select: { items: true, studies: true } },
          studies: {
            where: viewer ? studyAccessWhere(viewer) : {},
            select: { id: true, name: true, slug: true, status: true },
            orderBy: { createdAt: "asc" },
          },
        },
      },
    },
  });
  if (!pool) throw new AppError("NOT_FOUND", `No pool with id ${poolId}.`);
  const versionIds = pool.versions.map((v) => v.id);
  const [counts, audit] = await Promise.all([
    db.$queryRaw<Array<{ poolVersionId: string; taskId: string; active: bigint; inactive: bigint }>>`
      SELECT pi."poolVersionId", pi."taskId",
             COUNT(*) FILTER (WHERE i.status = 'active') AS active,
             COUNT(*) FILTER (WHERE i.status <> 'active') AS inactive
      FROM "PoolItem" pi JOIN "Item" i ON i.id = pi."itemId"
      WHERE pi."poolVersionId" = ANY(${versionIds})
      GROUP BY pi."poolVersionId", pi."taskId"
      ORDER BY pi."taskId"`,
    db.auditLog.findMany({
      where: { entityType: "pool", entityId: poolId },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: 50,
      select: { id: true, at: true, action: true, details: true, actor: { select: { email: true } } },
    }),
  ]);
  return {
    id: pool.id,
    name: pool.name,
    description: pool.description,
    createdAt: pool.createdAt,
    createdByEmail: pool.createdBy?.email ?? null,
    versions: pool.versions.map((v) => ({
      id: v.id,
      version: v.version,
      frozenAt: v.frozenAt,
      createdAt: v.createdAt,
      recipe: v.recipe,
      itemCount: v._count.items,
      perTask: counts
        .filter((c) => c.poolVersionId === v.id)
        .map((c) => ({ taskId: c.taskId, active: Number(c.active), inactive: Number(c.inactive) })),
      studies: v.studies,
      locked: v.frozenAt !== null || v._count.studies > 0,
    })),
    audit: audit.map((a) => ({
      id: String(a.id),
      at: a.at,
      action: a.action,
      actorEmail: a.actor?.email ?? null,
      details: a.details,
    })),
  };
}
