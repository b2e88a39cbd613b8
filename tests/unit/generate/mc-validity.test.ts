/**
 * MC validity: option-text-only strategies (sign-mirror, median-of-options, odd-one-out)
 * and the T8 distractors that keep every one of them at chance over 1,000 items.
 */
import { describe, expect, it } from "vitest";
import { buildMoveDistractors, placeTruth } from "@/lib/generate/distractors";
import { generateItems } from "@/lib/generate";
import { measureOptionTextStrategies, scoreOptionTextStrategies } from "@/lib/generate/mc-validity";
import { createRng } from "@/lib/rng";
import { MC_LETTERS } from "@/lib/tasks/types";
import { itWithShared } from "../../helpers/shared-data";
import { loadTestComplexes } from "./complexes";

const move = (x: number, y: number) => `move x ${x}, move y ${y}`;

describe("option-text-only strategies on hand-built option sets", () => {
  it("sign-mirror finds the only mirrored pair", () => {
    const s = scoreOptionTextStrategies([move(3, -4), move(-3, -4), move(7, 1), move(0, 9)], 0)!;
    expect(s["sign-mirror"]).toBe(0.5);
    expect(scoreOptionTextStrategies([move(3, -4), move(-3, -4), move(7, 1), move(0, 9)], 2)!["sign-mirror"]).toBe(0);
  });
  it("no mirrored pair, or all four mirrored: chance", () => {
    expect(scoreOptionTextStrategies([move(1, 2), move(5, 5), move(-7, 1), move(0, 9)], 0)!["sign-mirror"]).toBe(0.25);
    expect(scoreOptionTextStrategies([move(2, 3), move(-2, 3), move(2, 7), move(-2, 7)], 0)!["sign-mirror"]).toBe(0.25);
  });
  it("median-of-options picks the option nearest the per-command medians", () => {
    // medians x = 3.5, y = 5: option 1 (3, 5) is nearest (0.5 vs 3.5, 5.5, 9.5).
    const s = scoreOptionTextStrategies([move(0, 5), move(3, 5), move(4, 0), move(9, 9)], 1)!;
    expect(s["median-of-options"]).toBe(1);
  });
  it("odd-one-out picks the farthest option; ties split", () => {
    expect(scoreOptionTextStrategies([move(0, 0), move(1, 0), move(0, 1), move(20, 20)], 3)!["odd-one-out"]).toBe(1);
    expect(scoreOptionTextStrategies([move(2, 3), move(-2, 3), move(2, 7), move(-2, 7)], 1)!["odd-one-out"]).toBe(0.25);
  });
  it("rolls and moves mix; a non-command option is skipped", () => {
    expect(scoreOptionTextStrategies(["move x 2, roll y 45", "move x -2, roll y 45", "move x 4, roll y 90", "move y 2, roll y 15"], 0)).not.toBeNull();
    expect(scoreOptionTextStrategies(["A", "B", "C", "D"], 0)).toBeNull();
  });
});

describe("T8 distractors over 1,000 items", () => {
  const spec = { minDeltaA: 2, maxDeltaA: 6, minSeparationA: 2 };
  function items(builder: (rng: ReturnType<typeof createRng>, truth: readonly [number, number]) => { move: readonly [number, number] }[]) {
    const rng = createRng("t8-validity");
    return Array.from({ length: 1000 }, (_, i) => {
      // Truths as the generator sees them: whole-Å offsets of a bond midpoint from the view centre, zeros included.
      const truth = [rng.int(-12, 12), rng.int(-12, 12)] as const;
      const options = placeTruth(
        rng,
        { move: truth, truth: true },
        builder(rng, truth).map((d) => ({ move: d.move, truth: false })),
        i % 4,
      );
      return { options: options.map((o) => move(o.move[0], o.move[1])), letter: MC_LETTERS[options.findIndex((o) => o.truth)]! };
    });
  }

  it("no option-text-only strategy beats chance by more than 5 points", () => {
    const report = measureOptionTextStrategies(items((rng, t) => buildMoveDistractors(rng, t, spec)));
    expect(report.items).toBe(1000);
    for (const a of Object.values(report.accuracy)) expect(Math.abs(a - 0.25)).toBeLessThanOrEqual(0.05);
  });

  it("the measure catches the v1 leak (key always in the exact mirror pair)", () => {
    // v1's typical set: truth, its sign flip, and two unrelated magnitude changes.
    const v1 = (rng: ReturnType<typeof createRng>, t: readonly [number, number]) => [
      { move: [t[0] === 0 ? 5 : -t[0], t[1]] as const },
      { move: [t[0] + 3 + rng.int(0, 2), t[1] + 2] as const },
      { move: [t[0] - 4, t[1] + 5 + rng.int(0, 2)] as const },
    ];
    const report = measureOptionTextStrategies(items(v1));
    expect(report.accuracy["sign-mirror"]).toBeGreaterThan(0.4);
  });

  it("options are whole Å, pairwise ≥ 2 Å apart, and form a rectangle around the key", () => {
    const rng = createRng("rect");
    for (let i = 0; i < 300; i++) {
      const truth = [rng.int(-12, 12), rng.int(-12, 12)] as const;
      const d = buildMoveDistractors(rng, truth, spec);
      const all = [truth, ...d.map((x) => x.move)];
      for (const m of all) expect(m.every(Number.isInteger) && m.every((v) => !Object.is(v, -0))).toBe(true);
      for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) expect(Math.hypot(all[a]![0] - all[b]![0], all[a]![1] - all[b]![1])).toBeGreaterThanOrEqual(2);
      expect(new Set(all.map((m) => m[0])).size).toBeLessThanOrEqual(2);
      expect(new Set(all.map((m) => m[1])).size).toBeLessThanOrEqual(2);
    }
  });
});

describe("generateItems reports option-text-only accuracy for MC tasks", () => {
  itWithShared("T8 report is present and at chance; cloze tasks have none", () => {
    const r = generateItems({ complexes: loadTestComplexes(), tasks: ["interaction_location", "translation"], perTask: 12, seed: "validity", renderSettings: { widthPx: 64, heightPx: 64 } });
    if (!r.ok) throw new Error(r.error);
    const t8 = r.reports.find((x) => x.taskId === "interaction_location")!;
    expect(t8.optionTextStrategies?.items).toBe(12);
    expect(t8.optionTextStrategies?.worstExcessPoints).toBe(0);
    expect(r.reports.find((x) => x.taskId === "translation")!.optionTextStrategies).toBeUndefined();
  });
});
