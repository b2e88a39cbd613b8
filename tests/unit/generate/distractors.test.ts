import { describe, expect, it } from "vitest";
import { assignLetters, buildMoveDistractors, buildPairedDistractors, computeMinPairwiseRmsd, computeRmsd, formatOption, pickChangedMagnitude } from "@/lib/generate/distractors";
import { snapViewCentre } from "@/lib/generate/tasks/interaction-location";
import { listGridValues } from "@/lib/generate/task-generator";
import type { ViewCommand } from "@/lib/molecule/geometry/commands";
import { createRng } from "@/lib/rng";

const ANGLES = listGridValues(15, 90, 15, false);

describe("listGridValues", () => {
  it("lists multiples of the step, without 0 unless allowed", () => {
    expect(listGridValues(-4, 4, 1, false)).toEqual([-4, -3, -2, -1, 1, 2, 3, 4]);
    expect(listGridValues(-90, 90, 15, true)).toHaveLength(13);
    expect(ANGLES).toEqual([15, 30, 45, 60, 75, 90]);
  });
});

describe("T5 distractor schemes (paper: a, b, c)", () => {
  const truth: [ViewCommand, ViewCommand] = [
    { kind: "move", axis: "x", value: -3 },
    { kind: "roll", axis: "y", value: 45 },
  ];
  const spec = { firstMagnitudes: [1, 2, 3, 4], firstMinChange: 2, firstAxes: ["x", "y"] as const, secondMagnitudes: ANGLES, secondMinChange: 30 };

  it.each(["s1", "s2", "s3", "s4", "s5"])("seed %s", (seed) => {
    const [a, b, c] = buildPairedDistractors(createRng(seed), truth, { ...spec, firstAxes: [...spec.firstAxes] });
    // (a) both magnitudes changed; axes and signs kept. |−3| can only become 1 (change ≥ 2 within 1..4).
    expect(a!.commands[0]).toEqual({ kind: "move", axis: "x", value: -1 });
    expect(a!.commands[1]!.axis).toBe("y");
    expect([15, 75, 90]).toContain(a!.commands[1]!.value); // |45 − m| ≥ 30 within 15..90: 15, 75 or 90; sign kept
    // (b) translation sign flipped, rotation magnitude changed.
    expect(b!.commands[0]).toEqual({ kind: "move", axis: "x", value: 3 });
    expect([15, 75, 90]).toContain(b!.commands[1]!.value);
    // (c) translation axis changed (x → y), same value; rotation magnitude changed.
    expect(c!.commands[0]).toEqual({ kind: "move", axis: "y", value: -3 });
    expect([15, 75, 90]).toContain(c!.commands[1]!.value);
  });

  it("T6 variant: the first rotation's new axis is neither its own nor the second's", () => {
    const rolls: [ViewCommand, ViewCommand] = [
      { kind: "roll", axis: "x", value: -30 },
      { kind: "roll", axis: "z", value: 90 },
    ];
    for (const seed of ["a", "b", "c"]) {
      const [, b, c] = buildPairedDistractors(createRng(seed), rolls, {
        firstMagnitudes: ANGLES,
        firstMinChange: 30,
        firstAxes: ["x", "y", "z"],
        firstAxisExcluded: ["z"],
        secondMagnitudes: ANGLES,
        secondMinChange: 30,
      });
      expect(b!.commands[0]).toEqual({ kind: "roll", axis: "x", value: 30 });
      expect(c!.commands[0]).toEqual({ kind: "roll", axis: "y", value: -30 });
      expect([15, 30, 45, 60]).toContain(c!.commands[1]!.value);
    }
  });

  it("refuses a range that leaves no changed magnitude", () => {
    expect(() => pickChangedMagnitude(createRng(1), [1, 2], 1, 2, "translation magnitude")).toThrow(/no translation magnitude differs from 1 by at least 2/);
  });

  it("formats options in the task grammar and letters them with the truth once", () => {
    expect(formatOption(truth)).toBe("move x -3, roll y 45");
    const lettered = assignLetters(createRng("letters"), { scheme: "truth", commands: truth }, buildPairedDistractors(createRng(2), truth, { ...spec, firstAxes: ["x", "y"] }));
    expect(lettered.records.map((r) => r.letter)).toEqual(["A", "B", "C", "D"]);
    expect(lettered.records.filter((r) => r.scheme === "truth").map((r) => r.letter)).toEqual([lettered.letter]);
  });
});

describe("RMSD", () => {
  it("is the root mean square of point distances", () => {
    // Distances 3 and 4 → sqrt((9 + 16) / 2) = 3.5355.
    expect(
      computeRmsd(
        [
          [0, 0, 0],
          [1, 1, 1],
        ],
        [
          [3, 0, 0],
          [1, 5, 1],
        ],
      ),
    ).toBeCloseTo(Math.sqrt(12.5), 12);
    expect(computeMinPairwiseRmsd([[[0, 0, 0]], [[2, 0, 0]], [[0, 0, 1]]])).toBe(1);
  });
});

describe("T8 move distractors", () => {
  const spec = { minDeltaA: 2, maxDeltaA: 6, minSeparationA: 2 };

  it("takes one of each scheme when they exist: truth (3, -4)", () => {
    for (const seed of ["a", "b", "c", "d"]) {
      const d = buildMoveDistractors(createRng(seed), [3, -4], spec);
      expect(d.map((x) => x.scheme)).toEqual(["sign", "magnitude", "sign+magnitude"]);
      expect([
        [-3, -4],
        [3, 4],
        [-3, 4],
      ]).toContainEqual([...d[0]!.move]);
      const all = [[3, -4], ...d.map((x) => x.move)] as [number, number][];
      for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(Math.hypot(all[i]![0] - all[j]![0], all[i]![1] - all[j]![1])).toBeGreaterThanOrEqual(2);
      for (const x of d) expect(x.move.every(Number.isInteger)).toBe(true);
    }
  });

  it("truth (5, 0): the only sign flip is (-5, 0); no -0 appears", () => {
    const d = buildMoveDistractors(createRng("zero"), [5, 0], spec);
    expect(d[0]).toEqual({ scheme: "sign", move: [-5, 0] });
    for (const x of d) expect(x.move.some((v) => Object.is(v, -0))).toBe(false);
  });

  it("truth (0, 0): no sign flip is possible, magnitudes fill the options", () => {
    const d = buildMoveDistractors(createRng("origin"), [0, 0], spec);
    expect(d).toHaveLength(3);
    expect(d.every((x) => x.scheme !== "sign")).toBe(true);
    expect(d.every((x) => Math.hypot(x.move[0], x.move[1]) >= 2)).toBe(true);
  });
});

describe("T8 view-centre snapping", () => {
  it("shifts the centre by < 0.5 Å so the point has whole-Å screen x and y", () => {
    const centre = [10.2, -3.7, 5] as const;
    const point = [14.45, -1.1, 9] as const;
    const snapped = snapViewCentre(centre, point);
    // 14.45 − 10.2 = 4.25 → 4: centre x = 10.45; −1.1 + 3.7 = 2.6 → 3: centre y = −4.1; z untouched.
    expect(snapped[0]).toBeCloseTo(10.45, 12);
    expect(snapped[1]).toBeCloseTo(-4.1, 12);
    expect(snapped[2]).toBe(5);
    expect(point[0] - snapped[0]).toBeCloseTo(4, 12);
    expect(point[1] - snapped[1]).toBeCloseTo(3, 12);
  });
});
