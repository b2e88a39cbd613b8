import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { checkStudyReadiness, type Readiness } from "@/lib/pools/study-readiness";
import type { StudyConfig } from "@/lib/study-config";

type Client = Prisma.TransactionClient | typeof db;

export interface PoolCounts {
  /** Active items per configured task that can be served in the main block. */
  main: Record<string, number>;
  /** Active practice/attention items per configured task, kept out of the main block. */
  reserved: Record<string, number>;
}

/** Active items of the pool version per configured task, split into main-block and practice/attention ones. */
export async function countPoolItems(
  client: Client,
  poolVersionId: string,
  config: Pick<StudyConfig, "tasks" | "practiceItemIds" | "attentionItemIds">,
): Promise<PoolCounts> {
  const reserved = new Set([...config.practiceItemIds, ...config.attentionItemIds]);
  const groups = await client.poolItem.groupBy({
    by: ["taskId"],
    where: { poolVersionId, taskId: { in: config.tasks }, item: { status: "active" } },
    _count: { _all: true },
  });
  const reservedRows = reserved.size
    ? await client.poolItem.findMany({
        where: {
          poolVersionId,
          itemId: { in: [...reserved] },
          taskId: { in: config.tasks },
          item: { status: "active" },
        },
        select: { taskId: true },
      })
    : [];
  const reservedPerTask: Record<string, number> = {};
  for (const r of reservedRows) reservedPerTask[r.taskId] = (reservedPerTask[r.taskId] ?? 0) + 1;
  const main: Record<string, number> = {};
  for (const g of groups) main[g.taskId] = g._count._all - (reservedPerTask[g.taskId] ?? 0);
  return { main, reserved: reservedPerTask };
}

/**
 * The study's settings against its pool version (lib/pools/study-readiness), counted in the caller's
 * transaction: the one check behind saving (form and API), opening and the study page.
 */
export async function checkStudyAgainstPool(
  client: Client,
  options: { poolVersionId: string; poolFrozen: boolean; config: StudyConfig; stage: "save" | "open" },
): Promise<Readiness> {
  const counts = await countPoolItems(client, options.poolVersionId, options.config);
  return checkStudyReadiness({
    stage: options.stage,
    poolFrozen: options.poolFrozen,
    tasks: options.config.tasks,
    itemsPerTask: options.config.itemsPerTask,
    answersPerItem: options.config.answersPerItem,
    maxParticipants: options.config.maxParticipants,
    mainItemsPerTask: counts.main,
    reservedPerTask: counts.reserved,
  });
}
