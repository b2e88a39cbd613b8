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
    where.OR = [
      { question: { contains: q, mode: "insensitive" } },
      { externalId: { contains: q, mode: "insensitive" } },
      { pdbId: { equals: q, mode: "insensitive" } },
      { id: q },
    ];
  }
  return where;
}
