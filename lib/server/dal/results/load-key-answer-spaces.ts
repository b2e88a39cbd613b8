import "server-only";
import { db } from "@/lib/server/db";
import { type KeyAnswerSpace, keyAnswerSpace, keyOriginOfStoredItem } from "@/lib/tasks/chance";
import type { TaskId } from "@/lib/tasks/types";

/** Tasks whose answer space depends on where the key came from (generated items skip 0; release items may not). */
const VALUE_RANGE_TASKS: ReadonlySet<string> = new Set<TaskId>(["translation", "rotation", "zooming"]);
const PAGE = 10_000;

/**
 * The answer space of each value-range item's key (lib/tasks/chance.ts), by item id, from the item's source and
 * provenance. One object per distinct space, shared by every item that has it. Other tasks are left out: their
 * space does not depend on the item (lib/results falls back to the spec's).
 */
export async function loadKeyAnswerSpaces(
  rows: readonly { itemId: string; taskId: string }[],
): Promise<Map<string, KeyAnswerSpace>> {
  const taskOf = new Map(
    rows.filter((r) => VALUE_RANGE_TASKS.has(r.taskId)).map((r) => [r.itemId, r.taskId as TaskId]),
  );
  const ids = [...taskOf.keys()];
  const shared = new Map<string, KeyAnswerSpace>();
  const out = new Map<string, KeyAnswerSpace>();
  for (let i = 0; i < ids.length; i += PAGE) {
    const items = await db.item.findMany({
      where: { id: { in: ids.slice(i, i + PAGE) } },
      select: { id: true, source: true, provenance: true },
    });
    for (const item of items) {
      const space = keyAnswerSpace(taskOf.get(item.id)!, keyOriginOfStoredItem(item.source, item.provenance));
      const key = `${space.size}|${space.basis}`;
      if (!shared.has(key)) shared.set(key, space);
      out.set(item.id, shared.get(key)!);
    }
  }
  return out;
}
