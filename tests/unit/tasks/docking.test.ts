import { describe, expect, it } from "vitest";
import { dockingTask as task, type DockingAnswer } from "@/lib/tasks/docking";

const dock = (rollAxis: "x" | "y" | "z", rollAngleDeg: number, moveDistanceA: number): DockingAnswer => ({
  rollAxis,
  rollAngleDeg,
  moveDistanceA,
});

describe("T7 docking grammar", () => {
  it.each([
    ["roll x 75, move x -14", "roll x 75, move x -14"],
    ["ROLL X 75 , MOVE X -14.", "roll x 75, move x -14"],
    ["roll z -90,move x +20", "roll z -90, move x 20"],
    ["roll\ty 15,\tmove x 10.0;", "roll y 15, move x 10"],
  ])("reads %j as %j", (text, canonical) => {
    const parsed = task.parseAnswer(text);
    expect(parsed).toMatchObject({ ok: true, canonical });
    if (parsed.ok) expect(task.parseAnswer(canonical)).toEqual(parsed);
  });

  it("reads the paper's example into its parts", () => {
    expect(task.parseAnswer("roll x 75, move x -14")).toEqual({
      ok: true,
      value: dock("x", 75, -14),
      canonical: "roll x 75, move x -14",
    });
  });

  it("round-trips all 3 × 13 × 41 answers", () => {
    let n = 0;
    for (const axis of ["x", "y", "z"] as const) {
      for (let a = -90; a <= 90; a += 15) {
        for (let d = -20; d <= 20; d++) {
          const value = dock(axis, a, d);
          const parsed = task.parseAnswer(task.canonicalize(value));
          expect(parsed.ok && parsed.value).toEqual(value);
          n++;
        }
      }
    }
    expect(n).toBe(1599);
  });

  const EG = " — e.g. 'roll x 75, move x -14'";
  it.each([
    ["", `the answer is empty: expected 'roll <x|y|z> <angle>, move x <distance>'${EG}`],
    [
      "move x -14, roll x 75",
      `the commands are in the wrong order: expected 'roll <x|y|z> <angle>, move x <distance>'${EG}`,
    ],
    [
      "roll x 75 move x -14",
      `command 1 ('roll x 75 move x -14'): unexpected 'move x -14' after 'roll x 75': separate the commands with a comma${EG}`,
    ],
    [
      "roll x 75; move x -14",
      `separate the commands with a comma, not ';': expected 'roll <x|y|z> <angle>, move x <distance>'${EG}`,
    ],
    ["roll x 75", `expected 2 commands separated by commas, 'roll <x|y|z> <angle>, move x <distance>', got 1${EG}`],
    ["turn x 75, move x -14", `command 1 ('turn x 75'): expected 'roll' at the start, got 'turn'${EG}`],
    ["roll w 75, move x -14", `command 1 ('roll w 75'): expected an axis x, y or z after 'roll', got 'w'${EG}`],
    ["roll x 75, move y -14", `command 2 ('move y -14'): expected an axis x after 'move', got 'y'${EG}`],
    ["roll x 70, move x -14", `command 1 ('roll x 70'): the angle must be a multiple of 15°, got 70${EG}`],
    [
      "roll x 105, move x -14",
      `command 1 ('roll x 105'): the angle 105 is out of range: expected a multiple of 15 from -90 to 90°${EG}`,
    ],
    [
      "roll x 75, move x -25",
      `command 2 ('move x -25'): the distance -25 is out of range: expected a whole number from -20 to 20 Å${EG}`,
    ],
    ["roll x 75, move x -14.5", `command 2 ('move x -14.5'): the distance must be a whole number of Å, got -14.5${EG}`],
    [
      "roll x 75, move x -14, move y 2",
      `unexpected 'move y 2' after the 2 commands: expected exactly 'roll <x|y|z> <angle>, move x <distance>'${EG}`,
    ],
    [
      "roll x 75, move x -14 thanks",
      `command 2 ('move x -14 thanks'): unexpected 'thanks' after 'move x -14': expected the end of the answer there${EG}`,
    ],
    ["roll x 75, ", `command 2 is empty: expected 'move x <distance>' there${EG}`],
    [", move x -14", `command 1 is empty: expected 'roll <x|y|z> <angle>' there${EG}`],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T7 docking scoring (0.5 roll + 0.5 move, R = 180°, 40 Å)", () => {
  const gold = dock("x", 75, -14);
  it.each([
    ["the gold itself", 1, 1, dock("x", 75, -14)],
    ["angle off 30°, distance off 4 Å", 0, 0.5 * (1 - 30 / 180) + 0.5 * (1 - 4 / 40), dock("x", 45, -10)], // 0.8667
    ["angle off 165°, distance off 6 Å", 0, 0.5 * (1 - 165 / 180) + 0.5 * (1 - 6 / 40), dock("x", -90, -20)], // 0.4667
    ["wrong roll axis, move right", 0, 0.5, dock("y", 75, -14)],
    ["roll right, move in the wrong direction", 0, 0.5, dock("x", 75, 14)],
    ["roll right, no move (0 has no direction)", 0, 0.5, dock("x", 75, 0)],
    ["wrong axis and wrong direction", 0, 0, dock("z", 75, 10)],
  ])("%s → exact %d, partial %f", (_label, exact, partial, answer) => {
    const score = task.score(answer, gold);
    expect(score.exact).toBe(exact);
    expect(score.partial).toBeCloseTo(partial, 12);
  });

  it("checks the two mixed cases against hand-computed decimals", () => {
    expect(task.score(dock("x", 45, -10), gold).partial).toBeCloseTo(0.8666666667, 9);
    expect(task.score(dock("x", -90, -20), gold).partial).toBeCloseTo(0.4666666667, 9);
  });

  it("waives the sign condition for a gold move of 0 and does not crash", () => {
    const zeroGold = dock("x", 75, 0);
    expect(task.score(dock("x", 75, 4), zeroGold)).toEqual({ exact: 0, partial: 0.5 + 0.5 * (1 - 4 / 40) }); // 0.95
    expect(task.score(dock("x", 75, -4), zeroGold)).toEqual({ exact: 0, partial: 0.95 });
    expect(task.score(dock("x", 75, 0), zeroGold)).toEqual({ exact: 1, partial: 1 });
  });

  it("uses configured ranges", () => {
    expect(task.score(dock("x", 75, -10), gold, { movePartialRangeA: 20 }).partial).toBeCloseTo(
      0.5 + 0.5 * (1 - 4 / 20),
      12,
    ); // 0.9
    expect(task.score(dock("x", 15, -14), gold, { rollPartialRangeDeg: 120 }).partial).toBeCloseTo(
      0.5 * (1 - 60 / 120) + 0.5,
      12,
    ); // 0.75
  });

  it("keeps partial in [0, 1] and exact ⇔ same answer over every answer for several golds", () => {
    const golds = [gold, dock("z", -90, 20), dock("y", 15, -10)];
    for (const g of golds) {
      for (const axis of ["x", "y", "z"] as const) {
        for (let a = -90; a <= 90; a += 15) {
          for (let d = -20; d <= 20; d++) {
            const s = task.score(dock(axis, a, d), g);
            expect(s.exact).toBe(axis === g.rollAxis && a === g.rollAngleDeg && d === g.moveDistanceA ? 1 : 0);
            expect(s.partial).toBeGreaterThanOrEqual(0);
            expect(s.partial).toBeLessThanOrEqual(1);
          }
        }
      }
    }
  });
});
