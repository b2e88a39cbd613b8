import { describe, expect, it } from "vitest";
import { createSampleSeed, drawStratifiedSample, type SampleCandidate } from "@/lib/pools/stratified-sample";

function candidates(taskId: string, n: number): SampleCandidate[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${taskId}-${i}`,
    taskId,
    sortKey: `h${String(i).padStart(2, "0")}`,
  }));
}

describe("drawStratifiedSample", () => {
  it("draws N per task and reports tasks with fewer candidates", () => {
    const pool = [...candidates("translation", 10), ...candidates("rotation", 3)];
    const sample = drawStratifiedSample(pool, {
      tasks: ["translation", "rotation", "zooming"],
      perTask: 5,
      seed: "s1",
    });
    expect(sample.byTask.map((t) => [t.taskId, t.itemIds.length, t.available])).toEqual([
      ["translation", 5, 10],
      ["rotation", 3, 3],
      ["zooming", 0, 0],
    ]);
    expect(sample.shortfalls).toEqual([
      { taskId: "rotation", requested: 5, available: 3 },
      { taskId: "zooming", requested: 5, available: 0 },
    ]);
    expect(sample.total).toBe(8);
    // Every drawn id belongs to its own task and is drawn once.
    for (const t of sample.byTask) {
      expect(new Set(t.itemIds).size).toBe(t.itemIds.length);
      for (const id of t.itemIds) expect(id.startsWith(`${t.taskId}-`)).toBe(true);
    }
  });

  it("is reproducible from the seed, whatever order the database returns rows in", () => {
    const pool = [...candidates("translation", 20), ...candidates("rotation", 20)];
    const a = drawStratifiedSample(pool, { tasks: ["translation", "rotation"], perTask: 6, seed: "repeat-me" });
    const b = drawStratifiedSample(pool.slice().reverse(), {
      tasks: ["translation", "rotation"],
      perTask: 6,
      seed: "repeat-me",
    });
    expect(b).toEqual(a);
    const other = drawStratifiedSample(pool, { tasks: ["translation", "rotation"], perTask: 6, seed: "another-seed" });
    expect(other.byTask[0]!.itemIds).not.toEqual(a.byTask[0]!.itemIds);
  });

  it("pins the draw for a recorded seed (changing the RNG or the algorithm would change recorded pools)", () => {
    // Regression pin produced by this implementation: a pool's recipe stores only the seed, so this must never drift.
    const pool = [...candidates("translation", 12), ...candidates("rotation", 12)];
    const sample = drawStratifiedSample(pool, {
      tasks: ["translation", "rotation"],
      perTask: 4,
      seed: "misi-tiny-2025",
    });
    expect(sample.byTask.map((t) => t.itemIds)).toEqual([
      ["translation-4", "translation-0", "translation-3", "translation-10"],
      ["rotation-11", "rotation-3", "rotation-6", "rotation-4"],
    ]);
  });

  it("gives each task its own stream: adding a task does not change another task's draw", () => {
    const pool = [...candidates("translation", 15), ...candidates("docking", 15)];
    const alone = drawStratifiedSample(pool, { tasks: ["translation"], perTask: 5, seed: "x" });
    const both = drawStratifiedSample(pool, { tasks: ["docking", "translation"], perTask: 5, seed: "x" });
    expect(both.byTask.find((t) => t.taskId === "translation")!.itemIds).toEqual(alone.byTask[0]!.itemIds);
  });

  it("draws prefixes of one shuffle: a larger N extends a smaller N's sample", () => {
    const pool = candidates("rotation", 30);
    const small = drawStratifiedSample(pool, { tasks: ["rotation"], perTask: 5, seed: "grow" }).byTask[0]!.itemIds;
    const large = drawStratifiedSample(pool, { tasks: ["rotation"], perTask: 12, seed: "grow" }).byTask[0]!.itemIds;
    expect(large.slice(0, 5)).toEqual(small);
  });

  it("includes every candidate with probability N/M (uniform sampling without replacement)", () => {
    const pool = candidates("zooming", 10);
    const SEEDS = 4000;
    const hits = new Map<string, number>();
    for (let s = 0; s < SEEDS; s++) {
      for (const id of drawStratifiedSample(pool, { tasks: ["zooming"], perTask: 3, seed: `u${s}` }).byTask[0]!
        .itemIds) {
        hits.set(id, (hits.get(id) ?? 0) + 1);
      }
    }
    // p = 3/10; sd of a frequency over 4000 draws = sqrt(0.3 · 0.7 / 4000) ≈ 0.0072; allow 5 sd.
    for (const c of pool) expect(Math.abs((hits.get(c.id) ?? 0) / SEEDS - 0.3)).toBeLessThan(0.036);
  });

  it("rejects a non-positive or fractional N", () => {
    expect(() => drawStratifiedSample([], { tasks: ["rotation"], perTask: 0, seed: "s" })).toThrow(RangeError);
    expect(() => drawStratifiedSample([], { tasks: ["rotation"], perTask: 2.5, seed: "s" })).toThrow(RangeError);
  });
});

describe("createSampleSeed", () => {
  it("makes a 10-character seed from an unambiguous alphabet", () => {
    let i = 0;
    const values = [0, 0.999999, 0.5];
    const seed = createSampleSeed(() => values[i++ % values.length]!);
    expect(seed).toHaveLength(10);
    expect(seed.slice(0, 3)).toBe("a9s"); // 0 → "a"; 0.999999·31 → index 30, "9"; 0.5·31 = 15.5 → index 15, "s" (a–h, j, k, m, n, p, q, r, s)
    expect(createSampleSeed()).toMatch(/^[a-hjkmnp-z2-9]{10}$/);
  });
});
