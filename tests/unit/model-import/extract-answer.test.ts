import { describe, expect, it } from "vitest";
import { cleanModelText, extractAnswer } from "@/lib/model-import/extract-answer";
import { scorePrediction } from "@/lib/model-import/score-prediction";
import { getTask } from "@/lib/tasks/registry";

const T1 = getTask("translation");
const T7 = getTask("docking");
const T4 = getTask("residue_ligand");
const T8 = getTask("interaction_location");
const T9 = getTask("pocket_ligand");

function extracted(task: Parameters<typeof extractAnswer>[0], text: string) {
  const out = extractAnswer(task, text);
  return out.ok ? { canonical: out.canonical, step: out.step } : { error: out.error };
}

describe("extractAnswer", () => {
  it("takes a clean answer as a whole", () => {
    expect(extracted(T1, "move x -3")).toEqual({ canonical: "move x -3", step: "whole" });
    expect(extracted(T8, " (c) ")).toEqual({ canonical: "C", step: "whole" });
    expect(extracted(T4, "No.")).toEqual({ canonical: "No", step: "whole" });
  });

  it("reads the last \\boxed{} first", () => {
    expect(extracted(T8, "Between \\boxed{A} and the other... final: \\boxed{D}")).toEqual({
      canonical: "D",
      step: "boxed",
    });
  });

  it("reads the text after the last answer marker", () => {
    expect(extracted(T1, "The ligand moved right.\nAnswer: move x 4\nI am fairly sure.")).toEqual({
      canonical: "move x 4",
      step: "marker",
    });
    expect(extracted(T8, "Let me look at the images. The answer is B")).toEqual({ canonical: "B", step: "marker" });
    expect(extracted(T7, "Final answer:\nroll y -45, move x 12")).toEqual({
      canonical: "roll y -45, move x 12",
      step: "marker",
    });
  });

  it("falls back to the last line that parses", () => {
    expect(extracted(T1, "Comparing image 1 and image 4,\n- move y 2\n")).toEqual({
      canonical: "move y 2",
      step: "line",
    });
    expect(extracted(T4, "Looking at the residue:\nYes: arg NH2, O1B; ARG NE, O2G\nThose are the bonds.")).toEqual({
      canonical: "Yes: ARG NE, O2G; ARG NH2, O1B",
      step: "line",
    });
    expect(extracted(T9, "Bonds found:\nTYR 228 OH A, O5; ASP 104 OD1 A, N2")).toEqual({
      canonical: "ASP 104 OD1 A, N2; TYR 228 OH A, O5",
      step: "line",
    });
  });

  it("finds the last grammar match inside prose", () => {
    expect(
      extracted(T1, "I first thought move x 2 but on reflection it is move x -2 since the shift is leftwards."),
    ).toEqual({
      canonical: "move x -2",
      step: "grammar",
    });
    // roll is the wrong verb for T1, so the earlier move is taken.
    expect(extracted(T1, "It looks like move y 3 rather than roll y 30 here.")).toEqual({
      canonical: "move y 3",
      step: "grammar",
    });
    expect(extracted(T7, "Rotate with roll z 30 and then move x -15 to dock it.")).toEqual({
      canonical: "roll z 30, move x -15",
      step: "grammar",
    });
    expect(extracted(T8, "Option (B) seems closest to the centroid, so I pick it.")).toEqual({
      canonical: "B",
      step: "grammar",
    });
    expect(extracted(T4, "No, there is no hydrogen bond between them.")).toEqual({ canonical: "No", step: "grammar" });
  });

  it("does not read a lower-case article or an unboxed stray letter as an MC answer", () => {
    expect(extracted(T8, "The answer is a bit unclear to me.")).toHaveProperty("error");
    expect(extracted(T8, "A careful look is needed.")).toHaveProperty("error");
  });

  it("ignores reasoning before </think> and markdown decoration", () => {
    expect(cleanModelText("<think>maybe A</think>\n**B**")).toBe("B");
    expect(extracted(T8, "<think>Option A? No, option C.</think>**Answer: D**")).toEqual({
      canonical: "D",
      step: "marker",
    });
    expect(extracted(T1, "```\nmove x 1\n```")).toEqual({ canonical: "move x 1", step: "whole" });
    expect(extracted(T8, "<think>It must be (A) because")).toEqual({
      error: "nothing left after removing the reasoning block",
    });
  });

  it("reports the grammar's error for the whole text when nothing parses", () => {
    const out = extractAnswer(T1, "I cannot tell from these images.");
    expect(out.ok).toBe(false);
    expect(out.ok ? "" : out.error).toMatch(/expected 'move' at the start/);
    expect(extractAnswer(T1, "   ")).toEqual({ ok: false, error: "empty prediction" });
  });
});

describe("scorePrediction", () => {
  const gold = { axis: "x", distanceA: -3 };

  it("scores the extracted answer exactly as gradeText scores the same text", () => {
    for (const text of ["move x -3", "move x -2", "move y -3", "move x 4"]) {
      const direct = T1.gradeText(text, gold);
      const scored = scorePrediction(T1, `Reasoning...\nAnswer: ${text}`, gold);
      expect(direct.ok).toBe(true);
      if (!direct.ok || scored.status !== "scored") throw new Error("unexpected");
      expect({ exact: scored.exact, partial: scored.partial, canonical: scored.canonical }).toEqual({
        ...direct.score,
        canonical: direct.canonical,
      });
    }
    // Hand check: axis right, |−2 − (−3)| = 1 Å of R = 8 Å → partial 7/8.
    expect(scorePrediction(T1, "move x -2", gold)).toMatchObject({ exact: 0, partial: 0.875 });
  });

  it("counts an unparseable answer as wrong on both scores", () => {
    expect(scorePrediction(T1, "no idea", gold)).toMatchObject({ status: "unparseable", exact: 0, partial: 0 });
  });

  it("reports a stored gold the task rejects instead of scoring against it", () => {
    expect(scorePrediction(T1, "move x 1", { axis: "q" })).toMatchObject({ status: "bad-gold" });
  });
});
