import { describe, expect, it } from "vitest";
import { setBounded } from "@/lib/bounded-map";

describe("setBounded", () => {
  it("keeps at most max entries, dropping the oldest first; replacing a kept key drops nothing", () => {
    const map = new Map<string, number>();
    for (const [i, key] of ["a", "b", "c"].entries()) expect(setBounded(map, key, i, 3)).toBe(i);
    setBounded(map, "b", 10, 3);
    expect([...map]).toEqual([
      ["a", 0],
      ["b", 10],
      ["c", 2],
    ]);
    setBounded(map, "d", 3, 3);
    expect([...map.keys()]).toEqual(["b", "c", "d"]);
  });
});
