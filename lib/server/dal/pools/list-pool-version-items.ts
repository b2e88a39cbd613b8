import "server-only";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";

export interface PoolVersionItemDto {
  id: string;
  taskId: string;
  externalId: string | null;
  pdbId: string | null;
  status: string;
  questionExcerpt: string;
}

export const POOL_ITEMS_PAGE_SIZE = 100;

/** Items of one pool version (optionally one task), ordered by task then id, one page at a time. */
export async function listPoolVersionItems(options: { poolVersionId: string; taskId?: string; page?: number }) {
  const exists = await db.poolVersion.findUnique({ where: { id: options.poolVersionId }, select: { id: true } });
  if (!exists) throw new AppError("NOT_FOUND", `No pool version with id ${options.poolVersionId}.`);
  const page = Math.max(1, options.page ?? 1);
  const where = { poolVersionId: options.poolVersionId, ...(options.taskId ? { taskId: options.taskId } : {}) };
  const [total, rows] = await Promise.all([
    db.poolItem.count({ where }),
    db.poolItem.findMany({
      where,
      orderBy: [{ taskId: "asc" }, { itemId: "asc" }],
      skip: (page - 1) * POOL_ITEMS_PAGE_SIZE,
      take: POOL_ITEMS_PAGE_SIZE,
      select: {
        item: { select: { id: true, taskId: true, externalId: true, pdbId: true, status: true, question: true } },
      },
    }),
  ]);
  const items: PoolVersionItemDto[] = rows.map(({ item }) => ({
    id: item.id,
    taskId: item.taskId,
    externalId: item.externalId,
    pdbId: item.pdbId,
    status: item.status,
    questionExcerpt: item.question.length > 120 ? `${item.question.slice(0, 119)}…` : item.question,
  }));
  return { items, total, page, pageCount: Math.max(1, Math.ceil(total / POOL_ITEMS_PAGE_SIZE)) };
}
