import "server-only";
import { db } from "@/lib/server/db";
import { classifyResidueLigandItem, residueLigandTask } from "@/lib/tasks/residue-ligand";

export interface PolarityLookup {
  /** "pos" / "neg" for residue_ligand items whose gold could be read. */
  polarity: Map<string, "pos" | "neg">;
  /** residue_ligand items whose stored gold is missing or invalid (their rows cannot be placed in Pos./Neg.). */
  unreadable: Map<string, string>;
}

/**
 * T4 polarity (spec §4: Pos. = items with bonds) of residue_ligand items, from their gold. Server
 * side only: the gold never leaves this module, only the class.
 */
export async function classifyResidueLigandItems(itemIds: readonly string[]): Promise<PolarityLookup> {
  const polarity = new Map<string, "pos" | "neg">();
  const unreadable = new Map<string, string>();
  if (itemIds.length === 0) return { polarity, unreadable };
  const keys = await db.answerKey.findMany({
    where: { itemId: { in: [...new Set(itemIds)] } },
    select: { itemId: true, gold: true },
  });
  const byId = new Map(keys.map((k) => [k.itemId, k.gold]));
  for (const id of new Set(itemIds)) {
    if (!byId.has(id)) {
      unreadable.set(id, "item has no answer key");
      continue;
    }
    const gold = residueLigandTask.goldSchema.safeParse(byId.get(id));
    if (gold.success) polarity.set(id, classifyResidueLigandItem(gold.data));
    else unreadable.set(id, `stored gold is invalid: ${gold.error.issues[0]?.message ?? "unknown problem"}`);
  }
  return { polarity, unreadable };
}
