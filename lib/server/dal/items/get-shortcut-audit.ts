import "server-only";
import { db } from "@/lib/server/db";
import { type TaskShortcutAudit, auditShortcuts, byT4Polarity } from "@/lib/shortcuts/audit";
import type { ShortcutItem } from "@/lib/shortcuts/strategies";
import { keyOriginOfStoredItem } from "@/lib/tasks/chance";
import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

/**
 * Items audited per task (the first by id): the page renders on request, and a pool of the whole MiSI release (150,000+
 * items) must not load every key on each view. 5,000 items give a Wilson half-width of at most 1.4 points.
 */
export const MAX_AUDITED_ITEMS_PER_TASK = 5_000;

/**
 * Shortcut audit (lib/shortcuts) over stored items: the active items, or one pool version's items; at most
 * MAX_AUDITED_ITEMS_PER_TASK per task (each audit's `items` says how many). The database holds keys but no
 * coordinates, so the strategies that run here are those reading option texts (MC) and the other items' answers
 * (most-common answer); the pose and polar-distance rules run where items are generated (manifest, bench:shortcuts).
 * Only aggregates leave this module, never a key.
 */
export async function getShortcutAudit(scope: { poolVersionId?: string } = {}): Promise<TaskShortcutAudit[]> {
  const items: ShortcutItem[] = [];
  for (const taskId of TASK_IDS) {
    const where = scope.poolVersionId
      ? { item: { taskId, poolItems: { some: { poolVersionId: scope.poolVersionId } } } }
      : { item: { taskId, status: "active" as const } };
    const keys = await db.answerKey.findMany({
      where,
      select: { gold: true, canonical: true, item: { select: { source: true, provenance: true } } },
      orderBy: { itemId: "asc" },
      take: MAX_AUDITED_ITEMS_PER_TASK,
    });
    for (const k of keys)
      items.push({
        taskId: taskId as TaskId,
        gold: k.gold,
        canonicalAnswer: k.canonical,
        keyOrigin: keyOriginOfStoredItem(k.item.source, k.item.provenance),
      });
  }
  return auditShortcuts(items, { groupOf: byT4Polarity });
}
