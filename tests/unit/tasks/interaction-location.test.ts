import { describe, expect, it } from "vitest";
import { interactionLocationTask as task } from "@/lib/tasks/interaction-location";

const OPTIONS = ["move x 3, move y -2", "move x -3, move y -2", "move x 3, move y 2", "move x 6, move y -4"] as [
  string,
  string,
  string,
  string,
];
const FIELDS = {
  pdbId: "5ey0",
  bond: {
    residue: { residueName: "TYR", residueNumber: 228, insertionCode: "", chainId: "A" },
    atomName: "OH",
    ligandAtomName: "O5",
  },
  options: OPTIONS,
};
const GOLD = { letter: "A" as const, options: OPTIONS };

describe("MC letter grammar (T5, T6, T8 share it)", () => {
  it.each([
    ["A", "A"],
    ["a", "A"],
    ["(A)", "A"],
    ["( b )", "B"],
    ["C)", "C"],
    ["D.", "D"],
    ["Option A", "A"],
    ["option (c)", "C"],
    ["  b ;", "B"],
  ])("reads %j as %j", (text, canonical) => {
    expect(task.parseAnswer(text)).toEqual({ ok: true, value: { letter: canonical }, canonical });
  });

  const EG = " — e.g. 'B'";
  it.each([
    ["", `the answer is empty: answer with one letter A, B, C or D${EG}`],
    ["E", `'E' is not an option: answer with one letter A, B, C or D${EG}`],
    ["(e)", `'E' is not an option: answer with one letter A, B, C or D${EG}`],
    ["A or B", `give exactly one letter, got 'A or B': answer with one letter A, B, C or D${EG}`],
    ["A, B", `give exactly one letter, got 'A, B': answer with one letter A, B, C or D${EG}`],
    ["AB", `give exactly one letter, got 'AB': answer with one letter A, B, C or D${EG}`],
    ["(A)/(C)", `give exactly one letter, got '(A)/(C)': answer with one letter A, B, C or D${EG}`],
    ["B because it is centred", `unexpected 'because it is centred' after 'B': answer with the letter only${EG}`],
    ["A: move x 3, move y -2", `unexpected 'move x 3, move y -2' after 'A': answer with the letter only${EG}`],
    ["answer: A", `expected one letter A, B, C or D (also accepted: '(B)', 'B)', 'Option B'), got 'answer: A'${EG}`],
    ["first", `expected one letter A, B, C or D (also accepted: '(B)', 'B)', 'Option B'), got 'first'${EG}`],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T8 interaction location", () => {
  it("scores the letter; partial equals exact", () => {
    expect(task.score({ letter: "A" }, GOLD)).toEqual({ exact: 1, partial: 1 });
    expect(task.score({ letter: "C" }, GOLD)).toEqual({ exact: 0, partial: 0 });
  });

  it("renders the named bond and the four options in the question", () => {
    const text = task.renderQuestion(FIELDS);
    expect(text).toContain("between atom OH of residue TYR 228 (chain A) and ligand atom O5");
    expect(text).toContain(
      "A. move x 3, move y -2\nB. move x -3, move y -2\nC. move x 3, move y 2\nD. move x 6, move y -4",
    );
  });

  it("validates the option texts in the answer key", () => {
    expect(task.goldSchema.safeParse(GOLD).success).toBe(true);
    expect(
      task.goldSchema.safeParse({
        letter: "A",
        options: [
          "move x 2.5, move y -1.5",
          "move x -2.5, move y -1.5",
          "move x 2.5, move y 1.5",
          "move x 5, move y -3",
        ],
      }).success,
    ).toBe(true);
    const swapped = task.goldSchema.safeParse({ letter: "A", options: ["move y -2, move x 3", ...OPTIONS.slice(1)] });
    expect(swapped.error?.issues[0]?.message).toBe(
      "option A: command 1 ('move y -2'): expected an axis x after 'move', got 'y' — e.g. 'move x 3, move y -2'",
    );
    const repeated = task.goldSchema.safeParse({
      letter: "B",
      options: [OPTIONS[0], "Move X 3.0, move y -2", OPTIONS[2], OPTIONS[3]],
    });
    expect(repeated.error?.issues[0]?.message).toBe("option B repeats option A (move x 3, move y -2)");
    expect(task.goldSchema.safeParse({ letter: "E", options: OPTIONS }).success).toBe(false);
  });

  it("rejects an item whose shown options differ from the key's", () => {
    expect(task.itemSchema.safeParse({ fields: FIELDS, gold: GOLD }).success).toBe(true);
    const shown = { ...FIELDS, options: ["move x 3, move y 2", OPTIONS[1], OPTIONS[2], OPTIONS[3]] };
    const result = task.itemSchema.safeParse({ fields: shown, gold: GOLD });
    expect(result.error?.issues[0]?.message).toBe(
      "option A shown (move x 3, move y 2) differs from the answer key (move x 3, move y -2)",
    );
  });
});
