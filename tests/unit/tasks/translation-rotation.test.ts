import { describe, expect, it } from "vitest";
import { translationRotationTask as task } from "@/lib/tasks/translation-rotation";

const GOLD = {
  letter: "C" as const,
  options: ["move x 6, roll y 60", "move x -3, roll y 45", "move x 3, roll y 30", "move y 3, roll y 75"] as [
    string,
    string,
    string,
    string,
  ],
};

describe("T5 translation + rotation", () => {
  it("scores the letter; partial equals exact", () => {
    expect(task.gradeText("(C)", GOLD)).toEqual({ ok: true, canonical: "C", score: { exact: 1, partial: 1 } });
    expect(task.gradeText("b", GOLD)).toEqual({ ok: true, canonical: "B", score: { exact: 0, partial: 0 } });
  });

  it("requires option descriptions as 'move <axis> <d>, roll <axis> <a>'", () => {
    expect(task.goldSchema.safeParse(GOLD).success).toBe(true);
    const bad = task.goldSchema.safeParse({ ...GOLD, options: ["roll y 60", ...GOLD.options.slice(1)] });
    expect(bad.error?.issues[0]?.message).toMatch(
      /^option A: command 1 \('roll y 60'\): expected 'move' at the start, got 'roll'/,
    );
  });

  it("rejects the same complex as reference and target", () => {
    expect(task.fieldsSchema.safeParse({ referencePdbId: "1ACJ", targetPdbId: "1acj" }).success).toBe(false);
  });

  it("tells which images are the options", () => {
    expect(task.renderQuestion({ referencePdbId: "1acj", targetPdbId: "1bju" })).toContain(
      "Options A, B, C and D are images 8, 9, 10 and 11.",
    );
  });
});

describe("letter-only answer keys (imported MC items)", () => {
  it("validate and score by the letter alone", async () => {
    const { translationRotationTask } = await import("@/lib/tasks/translation-rotation");
    expect(translationRotationTask.goldSchema.safeParse({ letter: "C" }).success).toBe(true);
    expect(translationRotationTask.gradeText("c", { letter: "C" })).toEqual({
      ok: true,
      canonical: "C",
      score: { exact: 1, partial: 1 },
    });
    expect(translationRotationTask.gradeText("B", { letter: "C" })).toEqual({
      ok: true,
      canonical: "B",
      score: { exact: 0, partial: 0 },
    });
    expect(translationRotationTask.goldSchema.safeParse({ letter: "E" }).success).toBe(false);
  });
});
