/** An item a prediction may refer to. */
export interface MatchableItem {
  id: string;
  externalId: string | null;
}

export type ItemMatch<I extends MatchableItem> =
  { ok: true; item: I; by: "id" | "externalId" } | { ok: false; reason: "unknown" | "ambiguous"; problem: string };

/**
 * Matches file keys to items: an exact Item.id first, else an Item.externalId. An external id
 * shared by several candidate items (e.g. two sources both numbering from 0) matches none, and
 * says which; narrow the candidates (import for one study) to resolve it.
 */
export function createItemMatcher<I extends MatchableItem>(items: readonly I[]): (key: string) => ItemMatch<I> {
  const byId = new Map(items.map((i) => [i.id, i]));
  const byExternal = new Map<string, I[]>();
  for (const item of items) {
    if (item.externalId === null) continue;
    const list = byExternal.get(item.externalId);
    if (list) list.push(item);
    else byExternal.set(item.externalId, [item]);
  }
  return (key) => {
    const direct = byId.get(key);
    if (direct) return { ok: true, item: direct, by: "id" };
    const external = byExternal.get(key) ?? [];
    if (external.length === 1) return { ok: true, item: external[0] as I, by: "externalId" };
    if (external.length > 1) {
      return {
        ok: false,
        reason: "ambiguous",
        problem: `external id '${key}' belongs to ${external.length} items (${external
          .map((i) => i.id)
          .sort()
          .slice(0, 5)
          .join(", ")}); import for one study to narrow the match`,
      };
    }
    return { ok: false, reason: "unknown", problem: `no item has id or external id '${key}'` };
  };
}
