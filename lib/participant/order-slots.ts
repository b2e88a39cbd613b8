import { createRng } from "@/lib/rng";
import type { StudyConfig } from "@/lib/study-config";

/**
 * One place in a participant's item order: the j-th item (1-based) reserved for task number `task` (1-based, in
 * config.tasks order), or a fixed practice/attention item.
 */
export type OrderSlot =
  { phase: "main"; task: number; j: number } | { phase: "practice" | "attention"; itemId: string };

/**
 * The participant's item order, decided before any item is reserved: practice items first, then the main slots
 * (itemsPerTask per task) and attention checks shuffled from the participant's seed. The start function
 * (misi_start_participant) fills each main slot with the item it reserved for it; a short task's missing slots are
 * dropped, leaving gaps in the positions.
 */
export function orderSlots(
  orderSeed: string,
  config: Pick<StudyConfig, "tasks" | "itemsPerTask" | "practiceItemIds" | "attentionItemIds">,
): OrderSlot[] {
  const main: OrderSlot[] = config.tasks.flatMap((_, t) =>
    Array.from({ length: config.itemsPerTask }, (_, j) => ({ phase: "main" as const, task: t + 1, j: j + 1 })),
  );
  const attention: OrderSlot[] = config.attentionItemIds.map((itemId) => ({ phase: "attention" as const, itemId }));
  const block = createRng(`order:${orderSeed}`).shuffle([...main, ...attention]);
  return [...config.practiceItemIds.map((itemId) => ({ phase: "practice" as const, itemId })), ...block];
}

/** The slot arrays as misi_start_participant takes them (one entry per position). */
export function slotArrays(slots: readonly OrderSlot[]) {
  return {
    task: slots.map((s) => (s.phase === "main" ? s.task : null)),
    j: slots.map((s) => (s.phase === "main" ? s.j : null)),
    item: slots.map((s) => (s.phase === "main" ? null : s.itemId)),
    phase: slots.map((s) => s.phase),
  };
}
