import { describe, expect, it } from "vitest";
import { rotationRotationTask as task } from "@/lib/tasks/rotation-rotation";

const GOLD = {
  letter: "A" as const,
  options: ["roll x 30, roll z -45", "roll x 60, roll z -30", "roll z -45, roll x 30", "roll x 15, roll z -60"] as [
    string,
    string,
    string,
    string,
  ],
};

describe("T6 rotation + rotation", () => {
  it("scores the letter; partial equals exact", () => {
    expect(task.gradeText("Option A", GOLD)).toEqual({ ok: true, canonical: "A", score: { exact: 1, partial: 1 } });
    expect(task.gradeText("D)", GOLD)).toEqual({ ok: true, canonical: "D", score: { exact: 0, partial: 0 } });
    expect(task.gradeText("A or D", GOLD)).toMatchObject({ ok: false, stage: "answer" });
  });

  it("treats rotation order as meaningful in option descriptions", () => {
    // Options A and C list the same two rotations in opposite orders: distinct options.
    expect(task.goldSchema.safeParse(GOLD).success).toBe(true);
  });

  it("tells which images are the options", () => {
    expect(task.renderQuestion({ pdbId: "2reg" })).toContain("Options A, B, C and D are images 5, 6, 7 and 8.");
  });
});
