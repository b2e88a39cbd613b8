import "server-only";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";

export interface ItemAuditEntryDto {
  id: string;
  at: Date;
  action: string;
  actorEmail: string | null;
  details: unknown;
}

/** Everything the item page shows. `gold` is present only when the caller asked for it (admins). */
export interface ItemDetailDto {
  id: string;
  externalId: string | null;
  source: string;
  taskId: string;
  taskVersion: number;
  split: string;
  status: "active" | "excluded" | "flagged";
  statusReason: string | null;
  tags: string[];
  pdbId: string | null;
  question: string;
  payload: unknown;
  generatorVersion: string | null;
  seed: string | null;
  provenance: unknown;
  createdAt: Date;
  updatedAt: Date;
  images: Array<{ id: string; position: number; caption: string; mimeType: string }>;
  pools: Array<{ poolId: string; poolName: string; version: number; frozen: boolean }>;
  gold?: { canonical: string; gold: unknown; distractors: unknown } | null;
  audit: ItemAuditEntryDto[];
}

const AUDIT_ENTRIES_SHOWN = 100;

/** One item for the staff item page; throws NOT_FOUND. The gold answer is selected only with `includeGold`. */
export async function getItemDetail(itemId: string, options: { includeGold: boolean }): Promise<ItemDetailDto> {
  const item = await db.item.findUnique({
    where: { id: itemId },
    select: {
      id: true,
      externalId: true,
      source: true,
      taskId: true,
      taskVersion: true,
      split: true,
      status: true,
      statusReason: true,
      tags: true,
      pdbId: true,
      question: true,
      payload: true,
      generatorVersion: true,
      seed: true,
      provenance: true,
      createdAt: true,
      updatedAt: true,
      images: { select: { id: true, position: true, caption: true, mimeType: true }, orderBy: { position: "asc" } },
      poolItems: {
        select: {
          poolVersion: { select: { version: true, frozenAt: true, pool: { select: { id: true, name: true } } } },
        },
      },
      // Prisma cannot select a relation conditionally by type, so the key is fetched separately below.
    },
  });
  if (!item) throw new AppError("NOT_FOUND", `No item with id ${itemId}.`);
  const [key, audit] = await Promise.all([
    options.includeGold
      ? db.answerKey.findUnique({ where: { itemId }, select: { canonical: true, gold: true, distractors: true } })
      : Promise.resolve(undefined),
    listItemAudit(itemId),
  ]);
  const { poolItems, ...rest } = item;
  return {
    ...rest,
    pools: poolItems.map((p) => ({
      poolId: p.poolVersion.pool.id,
      poolName: p.poolVersion.pool.name,
      version: p.poolVersion.version,
      frozen: p.poolVersion.frozenAt !== null,
    })),
    ...(options.includeGold ? { gold: key ?? null } : {}),
    audit,
  };
}

/** Audit entries about one item, newest first. */
export async function listItemAudit(itemId: string): Promise<ItemAuditEntryDto[]> {
  const rows = await db.auditLog.findMany({
    where: { entityType: "item", entityId: itemId },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: AUDIT_ENTRIES_SHOWN,
    select: { id: true, at: true, action: true, details: true, actor: { select: { email: true } } },
  });
  return rows.map((r) => ({
    id: String(r.id),
    at: r.at,
    action: r.action,
    actorEmail: r.actor?.email ?? null,
    details: r.details,
  }));
}
