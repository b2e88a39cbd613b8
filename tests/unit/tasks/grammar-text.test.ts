import { describe, expect, it } from "vitest";
import { formatCommandValue } from "@/lib/tasks/grammar/command";
import { joinAlternatives, normalizeAnswerText, quote } from "@/lib/tasks/grammar/text";
import { fillTemplate } from "@/lib/tasks/template";

describe("answer text normalisation", () => {
  it.each([
    ["  move\t x \n 4  ", "move x 4"],
    ["move x 4.", "move x 4"],
    ["move x 4;", "move x 4"],
    ["move x 4 . ;", "move x 4"],
    ["move x 4.5", "move x 4.5"],
    ["roll y \u221260", "roll y -60"], // U+2212 minus sign
    ["roll y \u201360", "roll y -60"], // U+2013 en dash
    ["move\u00a0x\u00a04", "move x 4"], // no-break spaces
    ["TYR 228 OH A, O5\u2019", "TYR 228 OH A, O5'"], // right single quotation mark, as phones and macOS type it
    ["TYR 228 OH A, O5\u2032; ASP 104 OD1 A, C1`", "TYR 228 OH A, O5'; ASP 104 OD1 A, C1'"], // prime, backtick
    ["TYR 228 OH A, C1\u2033", 'TYR 228 OH A, C1"'], // double prime
    ["", ""],
  ])("%j → %j", (input, output) => {
    expect(normalizeAnswerText(input)).toBe(output);
  });

  it("reads a typographic apostrophe in a ligand atom name as the PDB's prime", async () => {
    const { getTask } = await import("@/lib/tasks/registry");
    const parsed = getTask("pocket_ligand").parseAnswer("TYR 228 OH A, O5\u2019");
    expect(parsed).toMatchObject({ ok: true, canonical: "TYR 228 OH A, O5'" });
  });

  it("quotes and shortens long fragments", () => {
    expect(quote("abc")).toBe("'abc'");
    expect(quote("x".repeat(100))).toBe(`'${"x".repeat(59)}…'`);
  });

  it("joins alternatives", () => {
    expect(joinAlternatives(["x"])).toBe("x");
    expect(joinAlternatives(["x", "y"])).toBe("x or y");
    expect(joinAlternatives(["A", "B", "C"], "and")).toBe("A, B and C");
  });

  it("formats values on a grid without -0 or float noise", () => {
    expect(formatCommandValue(-0, 1)).toBe("0");
    expect(formatCommandValue(0.1 + 0.2, 0.1)).toBe("0.3");
    expect(formatCommandValue(2.5, 0.1)).toBe("2.5");
    expect(formatCommandValue(3, 0.1)).toBe("3");
  });
});

describe("question templates", () => {
  it("fills placeholders and refuses missing ones", () => {
    expect(fillTemplate("complex {pdbId}, residue {residue}", { pdbId: "5ey0", residue: "ARG 45" })).toBe(
      "complex 5ey0, residue ARG 45",
    );
    expect(() => fillTemplate("complex {pdbId}", {})).toThrow("question template placeholder {pdbId} has no value");
  });
});
