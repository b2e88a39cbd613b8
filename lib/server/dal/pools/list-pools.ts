import "server-only";
import { db } from "@/lib/server/db";

export interface PoolVersionSummaryDto {
  id: string;
  version: number;
  frozenAt: Date | null;
  createdAt: Date;
  recipe: unknown;
  itemCount: number;
  studyCount: number;
}

export interface PoolSummaryDto {
  id: string;
  name: string;
  description: string | null;
  createdAt: Date;
  createdByEmail: string | null;
  versions: PoolVersionSummaryDto[];
}

const VERSION_SELECT = {
  id: true,
  version: true,
  frozenAt: true,
  createdAt: true,
  recipe: true,
  _count: { select: { items: true, studies: true } },
} as const;

function toVersionSummary(v: {
  id: string;
  version: number;
  frozenAt: Date | null;
  createdAt: Date;
  recipe: unknown;
  _count: { items: number; studies: number };
}): PoolVersionSummaryDto {
  return {
    id: v.id,
    version: v.version,
    frozenAt: v.frozenAt,
    createdAt: v.createdAt,
    recipe: v.recipe,
    itemCount: v._count.items,
    studyCount: v._count.studies,
  };
}

/** Every pool with its versions (newest version first), newest pool first. */
export async function listPools(): Promise<PoolSummaryDto[]> {
  const pools = await db.pool.findMany({
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      description: true,
      createdAt: true,
      createdBy: { select: { email: true } },
      versions: { orderBy: { version: "desc" }, select: VERSION_SELECT },
    },
  });
  return pools.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    createdAt: p.createdAt,
    createdByEmail: p.createdBy?.email ?? null,
    versions: p.versions.map(toVersionSummary),
  }));
}

export interface PoolVersionOptionDto {
  id: string;
  poolName: string;
  version: number;
  frozen: boolean;
  itemCount: number;
}

/** Pool versions to choose from in the study form, frozen ones first. */
export async function listPoolVersionOptions(): Promise<PoolVersionOptionDto[]> {
  const versions = await db.poolVersion.findMany({
    orderBy: [{ pool: { createdAt: "desc" } }, { version: "desc" }],
    select: {
      id: true,
      version: true,
      frozenAt: true,
      pool: { select: { name: true } },
      _count: { select: { items: true } },
    },
  });
  return versions
    .map((v) => ({
      id: v.id,
      poolName: v.pool.name,
      version: v.version,
      frozen: v.frozenAt !== null,
      itemCount: v._count.items,
    }))
    .sort((a, b) => Number(b.frozen) - Number(a.frozen));
}
