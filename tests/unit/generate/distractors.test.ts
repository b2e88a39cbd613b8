import { describe, expect, it } from "vitest";
import {
  assignLetters,
  buildMoveDistractors,
  buildMovePartnerKernel,
  buildPairedDistractors,
  computeMinPairwiseRmsd,
  computeRmsd,
  formatOption,
  pickChangedMagnitude,
} from "@/lib/generate/distractors";
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
  const spec = {
    firstMagnitudes: [1, 2, 3, 4],
    firstMinChange: 2,
    firstAxes: ["x", "y"] as const,
    secondMagnitudes: ANGLES,
    secondMinChange: 30,
  };

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
    expect(() => pickChangedMagnitude(createRng(1), [1, 2], 1, 2, "translation magnitude")).toThrow(
      /no translation magnitude differs from 1 by at least 2/,
    );
  });

  it("formats options in the task grammar and letters them with the truth once", () => {
    expect(formatOption(truth)).toBe("move x -3, roll y 45");
    const lettered = assignLetters(
      createRng("letters"),
      { scheme: "truth", commands: truth },
      buildPairedDistractors(createRng(2), truth, { ...spec, firstAxes: ["x", "y"] }),
    );
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
  const spec = { minDeltaA: 2, maxDeltaA: 6, minSeparationA: 2, truthSpreadA: 3.5, maxOptionA: 40 };

  it("the options are a 2 × 2 product: x changed, y changed, both; every value in exactly two options", () => {
    for (const seed of ["a", "b", "c", "d", "e", "f"]) {
      const d = buildMoveDistractors(createRng(seed), [3, -4], spec);
      const [x, y, both] = d.map((o) => o.move);
      expect(x![1]).toBe(-4);
      expect(y![0]).toBe(3);
      expect(both).toEqual([x![0], y![1]]);
      expect(d[2]!.scheme).toBe(`${d[0]!.scheme}+${d[1]!.scheme}`);
      const all = [[3, -4], ...d.map((o) => o.move)] as [number, number][];
      for (let i = 0; i < 4; i++)
        for (let j = i + 1; j < 4; j++)
          expect(Math.hypot(all[i]![0] - all[j]![0], all[i]![1] - all[j]![1])).toBeGreaterThanOrEqual(2);
      for (const m of all) expect(m.every((v) => Number.isInteger(v) && !Object.is(v, -0))).toBe(true);
    }
  });

  it("partners flip the sign, change the magnitude, or both; a zero component only changes magnitude", () => {
    const kinds = new Set<string>();
    const rng = createRng("kinds");
    for (let i = 0; i < 400; i++) {
      const d = buildMoveDistractors(rng, [3, 0], spec);
      kinds.add(d[0]!.scheme);
      expect(d[1]!.scheme).toBe("y-magnitude");
      expect(d[1]!.move[1]).not.toBe(0);
      if (d[0]!.scheme === "x-sign") expect(d[0]!.move[0]).toBe(-3);
    }
    expect([...kinds].sort()).toEqual(["x-magnitude", "x-sign", "x-sign+magnitude"]);
  });

  it("the partner kernel is exchangeable: π(v) K(v'|v) = π(v') K(v|v') for every pair, each row sums to 1", () => {
    const k = buildMovePartnerKernel(spec);
    const R = k.radius;
    const p = (v: number, w: number) => k.kernel[v + R]!.find((r) => r.value === w)?.p ?? 0;
    for (let v = -R; v <= R; v++) {
      expect(k.kernel[v + R]!.reduce((s, r) => s + r.p, 0)).toBeCloseTo(1, 12);
      for (const { value: w } of k.kernel[v + R]!) {
        const forward = k.prior[v + R]! * p(v, w);
        const back = k.prior[w + R]! * p(w, v);
        expect(Math.abs(forward - back), `${v} ↔ ${w}`).toBeLessThanOrEqual(1e-9 * Math.max(forward, back) + 1e-300);
      }
    }
  });

  it("a truth beyond ±maxOptionA, or a fractional one, is refused with the limit named", () => {
    expect(() => buildMoveDistractors(createRng("far"), [41, 0], spec)).toThrow(/41 Å .*±40 Å \(maxOptionA\)/);
    expect(() => buildMoveDistractors(createRng("frac"), [1.5, 0], spec)).toThrow(/1.5 Å is not a whole number/);
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
