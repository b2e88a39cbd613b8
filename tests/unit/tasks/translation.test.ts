import { describe, expect, it } from "vitest";
import { translationTask as task, type TranslationAnswer } from "@/lib/tasks/translation";

describe("T1 translation grammar", () => {
  it.each([
    ["move x 4", "move x 4"],
    ["Move X 4", "move x 4"],
    ["move x +4", "move x 4"],
    ["move x 4.0", "move x 4"],
    ["  move\tx   4 .", "move x 4"],
    ["MOVE Y -3;", "move y -3"],
    ["move y \u22123", "move y -3"],
    ["move x 04", "move x 4"],
    ["move x 0", "move x 0"],
    ["move x -0", "move x 0"],
  ])("reads %j as %j", (text, canonical) => {
    const parsed = task.parseAnswer(text);
    expect(parsed).toMatchObject({ ok: true, canonical });
    if (!parsed.ok) return;
    expect(task.parseAnswer(canonical)).toEqual(parsed);
  });

  it("round-trips every answer of the grammar (2 axes × 9 distances)", () => {
    let n = 0;
    for (const axis of ["x", "y"] as const) {
      for (let distanceA = -4; distanceA <= 4; distanceA++) {
        const value: TranslationAnswer = { axis, distanceA };
        const canonical = task.canonicalize(value);
        expect(canonical).toBe(`move ${axis} ${distanceA}`);
        expect(task.parseAnswer(canonical)).toEqual({ ok: true, value, canonical });
        n++;
      }
    }
    expect(n).toBe(18);
  });

  it.each([
    ["", "the answer is empty: expected 'move <x|y> <distance>' — e.g. 'move x 4'"],
    ["shift x 4", "expected 'move' at the start, got 'shift' — e.g. 'move x 4'"],
    ["roll x 4", "expected 'move' at the start, got 'roll' (this answer is a translation, 'move') — e.g. 'move x 4'"],
    ["move w 4", "expected an axis x or y after 'move', got 'w' — e.g. 'move x 4'"],
    ["move z 4", "expected an axis x or y after 'move', got 'z' — e.g. 'move x 4'"],
    ["move x 5", "the distance 5 is out of range: expected a whole number from -4 to 4 Å — e.g. 'move x 4'"],
    ["move y -5", "the distance -5 is out of range: expected a whole number from -4 to 4 Å — e.g. 'move x 4'"],
    ["move x 2.5", "the distance must be a whole number of Å, got 2.5 — e.g. 'move x 4'"],
    ["move x four", "expected a number after 'move x', got 'four' — e.g. 'move x 4'"],
    ["move x 4 please", "unexpected 'please' after 'move x 4': the answer is one command only — e.g. 'move x 4'"],
    ["move x", "expected a distance in Å after 'move x' — e.g. 'move x 4'"],
    ["move", "expected an axis x or y after 'move' — e.g. 'move x 4'"],
    [
      "move x 4 °",
      "'°' is not a unit of distance: write the distance in Å, A or angstroms, or as a plain number, after 'move x' — e.g. 'move x 4'",
    ],
    [
      "move x 4deg",
      "'deg' is not a unit of distance: write the distance in Å, A or angstroms, or as a plain number, after 'move x' — e.g. 'move x 4'",
    ],
    ["move x 5 Å", "the distance 5 is out of range: expected a whole number from -4 to 4 Å — e.g. 'move x 4'"],
    ["move x 4 Å please", "unexpected 'please' after 'move x 4': the answer is one command only — e.g. 'move x 4'"],
    ["movex 4", "put spaces between the command, the axis and the number: got 'movex' — e.g. 'move x 4'"],
    ["move x4", "put a space between the axis and the number: got 'x4' — e.g. 'move x 4'"],
    ["move x - 4", "write the sign directly before the number, without a space: got '- 4' — e.g. 'move x 4'"],
    [
      "move x 4, move y 1",
      "expected a single command 'move <x|y> <distance>'; got 'move x 4, move y 1' — e.g. 'move x 4'",
    ],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T1 translation scoring (R = 8 Å)", () => {
  const gold: TranslationAnswer = { axis: "x", distanceA: 4 };
  it.each([
    [{ axis: "x", distanceA: 4 }, 1, 1],
    [{ axis: "x", distanceA: 2 }, 0, 0.75], // 1 - 2/8
    [{ axis: "x", distanceA: 0 }, 0, 0.5], // 1 - 4/8
    [{ axis: "x", distanceA: -3 }, 0, 0.125], // 1 - 7/8
    [{ axis: "x", distanceA: -4 }, 0, 0], // 1 - 8/8
    [{ axis: "y", distanceA: 4 }, 0, 0], // wrong axis
  ] as const)("answer %j scores exact %d, partial %d", (answer, exact, partial) => {
    expect(task.score(answer, gold)).toEqual({ exact, partial });
  });

  it("uses a configured R and validates it", () => {
    expect(task.score({ axis: "x", distanceA: 2 }, gold, { partialRangeA: 4 })).toEqual({ exact: 0, partial: 0.5 });
    expect(task.score({ axis: "x", distanceA: -4 }, gold, { partialRangeA: 4 })).toEqual({ exact: 0, partial: 0 });
    expect(() => task.score(gold, gold, { partialRangeA: 0 })).toThrow(/partialRangeA/);
  });

  it("keeps partial in [0, 1] and exact ⇔ same answer over all 18 × 18 pairs", () => {
    const all: TranslationAnswer[] = [];
    for (const axis of ["x", "y"] as const) for (let d = -4; d <= 4; d++) all.push({ axis, distanceA: d });
    for (const g of all) {
      for (const a of all) {
        const s = task.score(a, g);
        expect(s.exact).toBe(a.axis === g.axis && a.distanceA === g.distanceA ? 1 : 0);
        expect(s.partial).toBeGreaterThanOrEqual(0);
        expect(s.partial).toBeLessThanOrEqual(1);
        if (a.axis !== g.axis) expect(s.partial).toBe(0);
      }
    }
  });

  it("rejects stored gold outside the grammar", () => {
    expect(task.goldSchema.safeParse({ axis: "x", distanceA: 5 }).success).toBe(false);
    expect(task.goldSchema.safeParse({ axis: "z", distanceA: 1 }).success).toBe(false);
    expect(task.goldSchema.safeParse({ axis: "x", distanceA: 1.5 }).success).toBe(false);
  });
});
