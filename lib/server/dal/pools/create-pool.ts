import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { CreatePoolSchema, MAX_FILTER_POOL_ITEMS, type PoolRecipe } from "@/lib/pools/pool-recipe";
import { createSampleSeed, drawStratifiedSample, type TaskShortfall } from "@/lib/pools/stratified-sample";
import { toItemWhere } from "@/lib/server/dal/items/item-where";

export interface CreatePoolResult {
  poolId: string;
  poolVersionId: string;
  version: number;
  itemCount: number;
  perTask: Record<string, number>;
  /** Stratified pools: tasks with fewer active items than requested (they got all they had). */
  shortfalls: TaskShortfall[];
  seed: string | null;
}

/**
 * Creates a pool and its version 1 (not frozen) from filters or as a seeded stratified sample of active items.
 * Throws ZodError (422) on invalid input and UNPROCESSABLE when nothing matches.
 */
export async function createPool(options: { input: unknown; actorId: string }): Promise<CreatePoolResult> {
  const input = CreatePoolSchema.parse(options.input);
  let picked: Array<{ id: string; taskId: string }>;
  let recipe: PoolRecipe;
  let shortfalls: TaskShortfall[] = [];
  let seed: string | null = null;

  if (input.mode === "filter") {
    const where = { ...toItemWhere(input.filter), status: "active" as const };
    const matched = await db.item.count({ where });
    if (matched > MAX_FILTER_POOL_ITEMS) {
      throw new AppError(
        "UNPROCESSABLE",
        `The filter matches ${matched} items; a pool holds at most ${MAX_FILTER_POOL_ITEMS}. Narrow the filter or use a stratified sample.`,
        [{ path: "filter", message: `matches ${matched} items (max ${MAX_FILTER_POOL_ITEMS})` }],
      );
    }
    picked = await db.item.findMany({ where, select: { id: true, taskId: true }, orderBy: { id: "asc" } });
    recipe = { kind: "filter", filter: input.filter, matched };
  } else {
    seed = input.seed || createSampleSeed();
    const { task: _ignored, ...filter } = input.filter;
    const candidates = await db.item.findMany({
      where: { ...toItemWhere(filter), status: "active", taskId: { in: input.tasks } },
      select: { id: true, taskId: true, contentHash: true },
    });
    const sample = drawStratifiedSample(
      candidates.map((c) => ({ id: c.id, taskId: c.taskId, sortKey: c.contentHash })),
      { tasks: input.tasks, perTask: input.perTask, seed },
    );
    picked = sample.byTask.flatMap((t) => t.itemIds.map((id) => ({ id, taskId: t.taskId })));
    shortfalls = sample.shortfalls;
    recipe = {
      kind: "stratified",
      filter,
      tasks: input.tasks,
      perTask: input.perTask,
      seed,
      sortKey: "contentHash",
      shortfalls,
    };
  }
  if (picked.length === 0) {
    throw new AppError("UNPROCESSABLE", "No active item matches; the pool would be empty.", [
      { path: "filter", message: "no active item matches" },
    ]);
  }

  const result = await db.$transaction(async (tx) => {
    const pool = await tx.pool.create({
      data: {
        name: input.name,
        description: input.description || null,
        createdById: options.actorId,
        versions: { create: { version: 1, recipe: toJson(recipe) } },
      },
      select: { id: true, versions: { select: { id: true } } },
    });
    const poolVersionId = pool.versions[0]!.id;
    await tx.poolItem.createMany({ data: picked.map((p) => ({ poolVersionId, itemId: p.id, taskId: p.taskId })) });
    await writeAudit(
      {
        actorId: options.actorId,
        action: "pool.create",
        entityType: "pool",
        entityId: pool.id,
        details: { version: 1, itemCount: picked.length, recipe: toJson(recipe) },
      },
      tx,
    );
    return { poolId: pool.id, poolVersionId };
  });

  const perTask: Record<string, number> = {};
  for (const p of picked) perTask[p.taskId] = (perTask[p.taskId] ?? 0) + 1;
  return { ...result, version: 1, itemCount: picked.length, perTask, shortfalls, seed };
}

// Drops undefined filter fields (absent in JSON anyway) and gives Prisma's Json input type.
function toJson(value: PoolRecipe): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;
}
