/**
 * MC validity: option-text-only strategies (sign-mirror, median-of-options, odd-one-out)
 * and the T8 distractors that keep every one of them at chance over 1,000 items.
 */
import { describe, expect, it } from "vitest";
import { buildMoveDistractors, placeTruth } from "@/lib/generate/distractors";
import { generateItems } from "@/lib/generate";
import { measureOptionTextStrategies, scoreOptionTextStrategies } from "@/lib/generate/mc-validity";
import { createRng } from "@/lib/rng";
import { auditShortcuts } from "@/lib/shortcuts/audit";
import { toShortcutItem } from "@/lib/shortcuts/from-generated";
import { MC_LETTERS } from "@/lib/tasks/types";
import { itWithShared } from "../../helpers/shared-data";
import { loadAllSharedComplexes, loadTestComplexes } from "./complexes";

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
    expect(
      scoreOptionTextStrategies(
        ["move x 2, roll y 45", "move x -2, roll y 45", "move x 4, roll y 90", "move y 2, roll y 15"],
        0,
      ),
    ).not.toBeNull();
    expect(scoreOptionTextStrategies(["A", "B", "C", "D"], 0)).toBeNull();
  });
});

describe("T8 distractors over 1,000 items", () => {
  const spec = { minDeltaA: 2, maxDeltaA: 6, minSeparationA: 2, truthSpreadA: 3.5, maxOptionA: 40 };
  /** A whole-Å offset drawn as the generator's truths fall: a centred normal of `spread` Å, rounded. */
  function drawOffset(rng: ReturnType<typeof createRng>, spread: number): number {
    const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const v = Math.round(spread * z);
    return v === 0 ? 0 : v;
  }
  function items(
    builder: (
      rng: ReturnType<typeof createRng>,
      truth: readonly [number, number],
    ) => { move: readonly [number, number] }[],
    n = 1000,
  ) {
    const rng = createRng("t8-validity");
    return Array.from({ length: n }, (_, i) => {
      // Truths as the generator sees them: whole-Å offsets of a bond midpoint from the view centre, clustered near zero.
      const truth = [drawOffset(rng, 3.5), drawOffset(rng, 3.5)] as const;
      const options = placeTruth(
        rng,
        { move: truth, truth: true },
        builder(rng, truth).map((d) => ({ move: d.move, truth: false })),
        i % 4,
      );
      return {
        options: options.map((o) => move(o.move[0], o.move[1])),
        letter: MC_LETTERS[options.findIndex((o) => o.truth)]!,
      };
    });
  }

  it("no option-text-only strategy beats chance by more than 5 points", () => {
    const report = measureOptionTextStrategies(items((rng, t) => buildMoveDistractors(rng, t, spec)));
    expect(report.items).toBe(1000);
    for (const a of Object.values(report.accuracy)) expect(Math.abs(a - 0.25)).toBeLessThanOrEqual(0.05);
  });

  it("no shortcut-audit option rule (mirror, median, shortest or longest move, …) leaves chance over 4,000 items", () => {
    const shortcutItems = items((rng, t) => buildMoveDistractors(rng, t, spec), 4000).map((i) => ({
      taskId: "interaction_location" as const,
      gold: i,
      canonicalAnswer: i.letter,
    }));
    const audit = auditShortcuts(shortcutItems)[0]!;
    expect(audit.strategies.map((s) => s.id)).toEqual(
      expect.arrayContaining(["smallest-l1", "smallest-max", "smallest-euclid", "largest-l1"]),
    );
    // Binomial noise at n = 4,000 is 0.7 points: 2.5 points is over 3 standard deviations.
    for (const s of audit.strategies) expect(Math.abs(s.exact - 0.25), s.id).toBeLessThanOrEqual(0.025);
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

  it("the audit catches a v4-style rectangle whose magnitude change is free to grow but floored at zero (the nearest-zero option is the key)", () => {
    // Flip x, and grow or shrink |y| by 2..6 with equal odds (only grow when it would cross zero).
    const v4 = (rng: ReturnType<typeof createRng>, t: readonly [number, number]) => {
      const d = rng.int(2, 6);
      const shrunk = Math.abs(t[1]) - d;
      const c =
        shrunk >= 0 && rng.next() < 0.5
          ? Math.sign(t[1]) * shrunk
          : (t[1] === 0 ? 1 : Math.sign(t[1])) * (Math.abs(t[1]) + d);
      const fx = t[0] === 0 ? 3 : -t[0];
      return [{ move: [fx, t[1]] as const }, { move: [t[0], c] as const }, { move: [fx, c] as const }];
    };
    const shortcutItems = items(v4, 4000).map((i) => ({
      taskId: "interaction_location" as const,
      gold: i,
      canonicalAnswer: i.letter,
    }));
    const smallest = auditShortcuts(shortcutItems)[0]!.strategies.find((s) => s.id === "smallest-l1")!;
    expect(smallest.exact).toBeGreaterThan(0.3);
  });

  it("options are whole Å, pairwise ≥ 2 Å apart, and a 2 × 2 product around the key", () => {
    const rng = createRng("rect");
    for (let i = 0; i < 300; i++) {
      const truth = [rng.int(-12, 12), rng.int(-12, 12)] as const;
      const d = buildMoveDistractors(rng, truth, spec);
      const all = [truth, ...d.map((x) => x.move)];
      for (const m of all) expect(m.every(Number.isInteger) && m.every((v) => !Object.is(v, -0))).toBe(true);
      for (let a = 0; a < 4; a++)
        for (let b = a + 1; b < 4; b++)
          expect(Math.hypot(all[a]![0] - all[b]![0], all[a]![1] - all[b]![1])).toBeGreaterThanOrEqual(2);
      for (const k of [0, 1]) for (const m of all) expect(all.filter((o) => o[k] === m[k]).length).toBe(2);
    }
  });
});

describe("generateItems reports option-text-only accuracy for MC tasks", () => {
  itWithShared("T8 report is present and at chance; cloze tasks have none", () => {
    const r = generateItems({
      complexes: loadTestComplexes(),
      tasks: ["interaction_location", "translation"],
      perTask: 12,
      seed: "validity",
      renderSettings: { widthPx: 64, heightPx: 64 },
    });
    if (!r.ok) throw new Error(r.error);
    const t8 = r.reports.find((x) => x.taskId === "interaction_location")!;
    expect(t8.optionTextStrategies?.items).toBe(12);
    expect(t8.optionTextStrategies?.worstExcessPoints).toBe(0);
    expect(r.reports.find((x) => x.taskId === "translation")!.optionTextStrategies).toBeUndefined();
  });
  itWithShared(
    "T8 on the shared structures: every option-text rule of the shortcut audit within 5 points of chance over 4 runs",
    () => {
      const items = ["a", "b", "c", "d"].flatMap((run) => {
        const r = generateItems({
          complexes: loadAllSharedComplexes(),
          tasks: ["interaction_location"],
          perTask: 200,
          seed: `t8-audit/${run}`,
          renderSettings: { widthPx: 64, heightPx: 64 },
        });
        if (!r.ok) throw new Error(r.error);
        return r.items;
      });
      // 4 × 200 drawn; repeats of an earlier item are dropped (532 distinct with the cofactor-aware ligand choice of generator v6)
      expect(items.length).toBeGreaterThan(500);
      const audit = auditShortcuts(items.map(toShortcutItem))[0]!;
      expect(audit.strategies.length).toBeGreaterThanOrEqual(10);
      for (const s of audit.strategies)
        expect(s.exact - 0.25, `${s.id} ${(100 * s.exact).toFixed(1)} % over ${s.n}`).toBeLessThanOrEqual(0.05);
    },
  );
});
