import { describe, expect, it } from "vitest";
import { pickMcLetterFromKey } from "@/components/study/mc-keys";

const LETTERS = ["A", "B", "C", "D"] as const;
const plain = { ctrlKey: false, metaKey: false, altKey: false, target: { tagName: "BODY" } };

describe("pickMcLetterFromKey", () => {
  it("maps 1–4 and a–d (either case) to the option letters", () => {
    expect(["1", "2", "3", "4"].map((key) => pickMcLetterFromKey({ ...plain, key }, LETTERS))).toEqual([
      "A",
      "B",
      "C",
      "D",
    ]);
    expect(["a", "B", "c", "D"].map((key) => pickMcLetterFromKey({ ...plain, key }, LETTERS))).toEqual([
      "A",
      "B",
      "C",
      "D",
    ]);
    expect(pickMcLetterFromKey({ ...plain, key: "5" }, LETTERS)).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "Enter" }, LETTERS)).toBeNull();
  });

  it("leaves shortcuts alone: Ctrl/Cmd+C copies, Ctrl+A selects all, Alt+D focuses the address bar", () => {
    expect(pickMcLetterFromKey({ ...plain, key: "c", ctrlKey: true }, LETTERS)).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "c", metaKey: true }, LETTERS)).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "a", ctrlKey: true }, LETTERS)).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "d", altKey: true }, LETTERS)).toBeNull();
  });

  it("ignores keys typed into text fields, and letters the question does not offer", () => {
    expect(pickMcLetterFromKey({ ...plain, key: "b", target: { tagName: "INPUT", type: "text" } }, LETTERS)).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "b", target: { tagName: "TEXTAREA" } }, LETTERS)).toBeNull();
    expect(
      pickMcLetterFromKey({ ...plain, key: "b", target: { tagName: "DIV", isContentEditable: true } }, LETTERS),
    ).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "b", target: { tagName: "INPUT", type: "radio" } }, LETTERS)).toBe("B");
    expect(pickMcLetterFromKey({ ...plain, key: "4" }, ["A", "B", "C"])).toBeNull();
    expect(pickMcLetterFromKey({ ...plain, key: "d" }, ["A", "B", "C"])).toBeNull();
  });
});
