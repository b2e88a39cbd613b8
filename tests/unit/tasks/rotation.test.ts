import { describe, expect, it } from "vitest";
import { rotationTask as task, type RotationAnswer } from "@/lib/tasks/rotation";

describe("T2 rotation grammar", () => {
  it.each([
    ["roll y 15", "roll y 15"],
    ["Roll Y +15.", "roll y 15"],
    ["roll z -90", "roll z -90"],
    ["roll x 90.0", "roll x 90"],
    ["roll\tx\t\u221245", "roll x -45"],
    ["roll y 0", "roll y 0"],
  ])("reads %j as %j", (text, canonical) => {
    const parsed = task.parseAnswer(text);
    expect(parsed).toMatchObject({ ok: true, canonical });
    if (parsed.ok) expect(task.parseAnswer(canonical)).toEqual(parsed);
  });

  it("round-trips all 3 axes × 13 angles", () => {
    let n = 0;
    for (const axis of ["x", "y", "z"] as const) {
      for (let angleDeg = -90; angleDeg <= 90; angleDeg += 15) {
        const value: RotationAnswer = { axis, angleDeg };
        expect(task.parseAnswer(task.canonicalize(value))).toEqual({
          ok: true,
          value,
          canonical: `roll ${axis} ${angleDeg}`,
        });
        n++;
      }
    }
    expect(n).toBe(39);
  });

  it.each([
    ["", "the answer is empty: expected 'roll <x|y|z> <angle>' — e.g. 'roll y 15'"],
    ["turn y 15", "expected 'roll' at the start, got 'turn' — e.g. 'roll y 15'"],
    ["move y 15", "expected 'roll' at the start, got 'move' (this answer is a rotation, 'roll') — e.g. 'roll y 15'"],
    ["roll w 15", "expected an axis x, y or z after 'roll', got 'w' — e.g. 'roll y 15'"],
    ["roll y 20", "the angle must be a multiple of 15°, got 20 — e.g. 'roll y 15'"],
    ["roll y 105", "the angle 105 is out of range: expected a multiple of 15 from -90 to 90° — e.g. 'roll y 15'"],
    ["roll y -180", "the angle -180 is out of range: expected a multiple of 15 from -90 to 90° — e.g. 'roll y 15'"],
    [
      "roll y 15 Å",
      "'Å' is not a unit of angle: write the angle in °, deg or degrees, or as a plain number, after 'roll y' — e.g. 'roll y 15'",
    ],
    ["roll y 20°", "the angle must be a multiple of 15°, got 20 — e.g. 'roll y 15'"],
    [
      "roll y 15 clockwise",
      "unexpected 'clockwise' after 'roll y 15': the answer is one command only — e.g. 'roll y 15'",
    ],
    ["roll y", "expected an angle in degrees after 'roll y' — e.g. 'roll y 15'"],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T2 rotation scoring (R = 180°)", () => {
  it.each([
    [{ axis: "y", angleDeg: 30 }, { axis: "y", angleDeg: 30 }, 1, 1],
    [{ axis: "y", angleDeg: 30 }, { axis: "y", angleDeg: -60 }, 0, 0.5], // 1 - 90/180
    [{ axis: "y", angleDeg: 30 }, { axis: "y", angleDeg: 75 }, 0, 0.75], // 1 - 45/180
    [{ axis: "y", angleDeg: 30 }, { axis: "x", angleDeg: 30 }, 0, 0], // wrong axis
    [{ axis: "z", angleDeg: -90 }, { axis: "z", angleDeg: 90 }, 0, 0], // 1 - 180/180
  ] as const)("gold %j, answer %j → exact %d, partial %d", (gold, answer, exact, partial) => {
    expect(task.score(answer, gold)).toEqual({ exact, partial });
  });

  it("uses a configured R", () => {
    expect(task.score({ axis: "y", angleDeg: -60 }, { axis: "y", angleDeg: 30 }, { partialRangeDeg: 360 })).toEqual({
      exact: 0,
      partial: 0.75,
    });
  });

  it("grades raw text end to end", () => {
    expect(task.gradeText("Roll Y -60.", { axis: "y", angleDeg: 30 })).toEqual({
      ok: true,
      canonical: "roll y -60",
      score: { exact: 0, partial: 0.5 },
    });
  });
});
