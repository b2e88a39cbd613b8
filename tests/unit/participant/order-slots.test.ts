import { describe, expect, it } from "vitest";
import { orderSlots, slotArrays } from "@/lib/participant/order-slots";

const config = {
  tasks: ["translation", "rotation"] as const,
  itemsPerTask: 3,
  practiceItemIds: ["p1", "p2"],
  attentionItemIds: ["a1"],
};

describe("orderSlots", () => {
  it("practice first in the configured order, then every (task, j) slot and attention check exactly once", () => {
    const slots = orderSlots("seed-1", { ...config, tasks: [...config.tasks] });
    expect(slots.slice(0, 2)).toEqual([
      { phase: "practice", itemId: "p1" },
      { phase: "practice", itemId: "p2" },
    ]);
    const rest = slots.slice(2);
    expect(rest).toHaveLength(7);
    const keys = rest.map((s) => (s.phase === "main" ? `${s.task}/${s.j}` : s.itemId)).sort();
    expect(keys).toEqual(["1/1", "1/2", "1/3", "2/1", "2/2", "2/3", "a1"]);
  });

  it("is a function of the seed: the same seed gives the same order, other seeds other orders", () => {
    const c = { ...config, tasks: [...config.tasks] };
    expect(orderSlots("seed-1", c)).toEqual(orderSlots("seed-1", c));
    const orders = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(orderSlots(`seed-${i}`, c))));
    expect(orders.size).toBeGreaterThan(10);
  });

  it("slotArrays gives the function's parallel arrays (nulls where a slot has no such field)", () => {
    expect(
      slotArrays([
        { phase: "practice", itemId: "p" },
        { phase: "main", task: 2, j: 1 },
      ]),
    ).toEqual({
      task: [null, 2],
      j: [null, 1],
      item: ["p", null],
      phase: ["practice", "main"],
    });
  });
});
