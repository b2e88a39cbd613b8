import { describe, expect, it } from "vitest";
import {
  appendOptionsToQuestion,
  buildPayload,
  extractPdbId,
  getErasedTask,
  readOptions,
  resolveAnswer,
} from "@/lib/import/item-plan";
import { T8_OPTIONS } from "../../fixtures/import/build-fixtures";

describe("answers from sources become gold through the task grammar", () => {
  it("parses cloze answers and keeps the task's canonical text", () => {
    expect(resolveAnswer(getErasedTask("translation"), "Move X 3.", null)).toEqual({
      ok: true,
      gold: { axis: "x", distanceA: 3 },
      canonical: "move x 3",
      goldProblem: null,
    });
    expect(resolveAnswer(getErasedTask("rotation"), "roll y −45", null)).toEqual({
      ok: true,
      gold: { axis: "y", angleDeg: -45 },
      canonical: "roll y -45",
      goldProblem: null,
    });
    expect(resolveAnswer(getErasedTask("residue_ligand"), "no", null)).toMatchObject({
      ok: true,
      gold: { kind: "none" },
      canonical: "No",
    });
  });

  it("accepts a number where the grammar expects text only if it then parses", () => {
    const r = resolveAnswer(getErasedTask("zooming"), 45, null);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/^'45' does not parse as a zooming answer: /);
  });

  it("accepts a gold object and validates it with the task's gold schema", () => {
    expect(resolveAnswer(getErasedTask("translation"), { axis: "y", distanceA: -2 }, null)).toEqual({
      ok: true,
      gold: { axis: "y", distanceA: -2 },
      canonical: "move y -2",
      goldProblem: null,
    });
    const bad = resolveAnswer(getErasedTask("translation"), { axis: "z", distanceA: 2 }, null);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem).toMatch(/^gold object is not a valid translation gold: axis: /);
  });

  it("rejects answers outside the grammar with the grammar's reason", () => {
    const r = resolveAnswer(getErasedTask("translation"), "move x 9", null);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/^'move x 9' does not parse as a translation answer: /);
    expect(resolveAnswer(getErasedTask("translation"), "  ", null)).toEqual({
      ok: false,
      problem: "missing or empty answer",
    });
  });

  it("builds MC gold from the letter and the four option texts", () => {
    const task = getErasedTask("interaction_location");
    expect(resolveAnswer(task, "(b)", [...T8_OPTIONS])).toEqual({
      ok: true,
      gold: { letter: "B", options: [...T8_OPTIONS] },
      canonical: "B",
      goldProblem: null,
    });
    // Answer written as the option's text.
    expect(resolveAnswer(task, "move x 6, move y -4", [...T8_OPTIONS])).toMatchObject({ ok: true, canonical: "C" });
  });

  it("keys MC items by the letter alone when the source's options are absent or images, never inventing options", () => {
    const none = resolveAnswer(getErasedTask("rotation_rotation"), "D", null);
    expect(none).toEqual({ ok: true, gold: { letter: "D" }, canonical: "D", goldProblem: null });
    const images = resolveAnswer(getErasedTask("rotation_rotation"), "D", ["Image 5", "Image 6", "Image 7", "Image 8"]);
    expect(images).toEqual({ ok: true, gold: { letter: "D" }, canonical: "D", goldProblem: null });
    // Command options that parse are kept in the key.
    const t8 = resolveAnswer(getErasedTask("interaction_location"), "B", [
      "move x 1, move y 2",
      "move x -1, move y 2",
      "move x 1, move y -2",
      "move x 2, move y 1",
    ]);
    expect(t8).toMatchObject({
      ok: true,
      gold: {
        letter: "B",
        options: ["move x 1, move y 2", "move x -1, move y 2", "move x 1, move y -2", "move x 2, move y 1"],
      },
    });
  });
});

describe("payload, options and question text", () => {
  it("stores parsed fields when they match the task, or what is there with the reason", () => {
    expect(buildPayload(getErasedTask("translation"), { pdbId: "1acj", options: undefined })).toEqual({
      payload: { pdbId: "1acj" },
      problem: null,
    });
    expect(buildPayload(getErasedTask("translation"), { pdbId: null })).toEqual({
      payload: {},
      problem: "kept as imported; does not match the translation fields (pdbId: missing)",
    });
  });

  it("reads options from lists, letter objects and JSON text, and only as a set of four", () => {
    expect(readOptions(["a", "b", "c", "d"])).toEqual(["a", "b", "c", "d"]);
    expect(readOptions({ a: "1", B: "2", c: "3", D: "4" })).toEqual(["1", "2", "3", "4"]);
    expect(readOptions('["w","x","y","z"]')).toEqual(["w", "x", "y", "z"]);
    expect(readOptions(["a", "b", "c"])).toBeNull();
    expect(readOptions({ A: "1", B: "", C: "3", D: "4" })).toBeNull();
  });

  it("appends the options to an MC question that does not list them", () => {
    expect(appendOptionsToQuestion("Which?", ["p", "q", "r", "s"])).toBe("Which?\nOptions:\nA. p\nB. q\nC. r\nD. s");
    expect(appendOptionsToQuestion("Which? A. p B. q C. r D. s", ["p", "q", "r", "s"])).toBe(
      "Which? A. p B. q C. r D. s",
    );
  });

  it("finds PDB ids in release values", () => {
    expect(extractPdbId("1ACJ")).toBe("1acj");
    expect(extractPdbId("1aku_pocket")).toBe("1aku");
    expect(extractPdbId("pdb5ey0")).toBe("5ey0");
    expect(extractPdbId("protein")).toBeNull();
    expect(extractPdbId(1234)).toBeNull();
  });
});
