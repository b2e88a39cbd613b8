import "server-only";
import { db } from "@/lib/server/db";
import type { ItemListQuery } from "@/lib/pools/item-filter";
import { toItemWhere } from "./item-where";

/** One row of the item browser. The question is shortened; the full text is on the item page. */
export interface ItemRowDto {
  id: string;
  externalId: string | null;
  source: string;
  taskId: string;
  split: string;
  status: "active" | "excluded" | "flagged";
  statusReason: string | null;
  tags: string[];
  pdbId: string | null;
  questionExcerpt: string;
  imageCount: number;
  createdAt: Date;
}

export interface ItemPageDto {
  rows: ItemRowDto[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

const EXCERPT_CHARS = 160;

/** A page of items matching the filter, newest import first (offset pagination with a total count). */
export async function listItems(query: ItemListQuery): Promise<ItemPageDto> {
  const where = toItemWhere(query);
  const [total, items] = await Promise.all([
    db.item.count({ where }),
    db.item.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: {
        id: true,
        externalId: true,
        source: true,
        taskId: true,
        split: true,
        status: true,
        statusReason: true,
        tags: true,
        pdbId: true,
        question: true,
        createdAt: true,
        _count: { select: { images: true } },
      },
    }),
  ]);
  return {
    rows: items.map(({ question, _count, ...rest }) => ({
      ...rest,
      questionExcerpt: question.length > EXCERPT_CHARS ? `${question.slice(0, EXCERPT_CHARS - 1)}…` : question,
      imageCount: _count.images,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
    pageCount: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}
