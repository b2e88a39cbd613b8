import "server-only";
import { db } from "@/lib/server/db";
import { type TaskShortcutAudit, auditShortcuts, byT4Polarity } from "@/lib/shortcuts/audit";
import type { ShortcutItem } from "@/lib/shortcuts/strategies";
import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

/** Items read per round trip. */
const PAGE = 5_000;
const KNOWN_TASKS: ReadonlySet<string> = new Set(TASK_IDS);

/**
 * Shortcut audit (lib/shortcuts) over stored items: the active items, or one pool version's items. The database holds
 * keys but no coordinates, so the strategies that run here are those reading option texts (MC) and the other items'
 * answers (most-common answer); the pose and polar-distance rules run where items are generated (manifest,
 * bench:shortcuts). Only aggregates leave this module, never a key.
 */
export async function getShortcutAudit(scope: { poolVersionId?: string } = {}): Promise<TaskShortcutAudit[]> {
  const items: ShortcutItem[] = [];
  let cursor: string | undefined;
  const where = scope.poolVersionId ? { item: { poolItems: { some: { poolVersionId: scope.poolVersionId } } } } : { item: { status: "active" as const } };
  for (;;) {
    const page = await db.answerKey.findMany({
      where,
      select: { itemId: true, gold: true, canonical: true, item: { select: { taskId: true } } },
      orderBy: { itemId: "asc" },
      take: PAGE,
      ...(cursor ? { skip: 1, cursor: { itemId: cursor } } : {}),
    });
    for (const k of page) {
      if (!KNOWN_TASKS.has(k.item.taskId)) continue;
      items.push({ taskId: k.item.taskId as TaskId, gold: k.gold, canonicalAnswer: k.canonical });
    }
    if (page.length < PAGE) break;
    cursor = page[page.length - 1]!.itemId;
  }
  items.sort((a, b) => TASK_IDS.indexOf(a.taskId) - TASK_IDS.indexOf(b.taskId));
  return auditShortcuts(items, { groupOf: byT4Polarity });
}
