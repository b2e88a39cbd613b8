import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import type { ItemFilter } from "@/lib/pools/item-filter";

/** Translates an item filter into a Prisma where clause (shared by the item browser and pool building). */
export function toItemWhere(filter: Partial<ItemFilter>): Prisma.ItemWhereInput {
  const where: Prisma.ItemWhereInput = {};
  if (filter.task) where.taskId = filter.task;
  if (filter.split) where.split = filter.split;
  if (filter.source) where.source = filter.source;
  if (filter.status) where.status = filter.status;
  if (filter.tag) where.tags = { has: filter.tag };
  if (filter.q) {
    // Case-insensitive substring (ILIKE) is enough at MiSI's size (~13k test items); ids are matched too so a
    // pasted external id or PDB id finds its item.
    const q = filter.q;
    // Prisma's `contains` and case-insensitive `equals` put the text into an ILIKE pattern as it is: `%` or `_`
    // would match anything.
    const literal = escapeLikePattern(q);
    where.OR = [
      { question: { contains: literal, mode: "insensitive" } },
      { externalId: { contains: literal, mode: "insensitive" } },
      { pdbId: { equals: literal, mode: "insensitive" } },
      { id: q },
    ];
  }
  return where;
}

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character (`\\`, PostgreSQL's default) so text matches literally. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
