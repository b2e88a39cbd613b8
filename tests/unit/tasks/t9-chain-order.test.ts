/**
 * T9 `<RES> <resnum> <atom> <chain>` with one-character atom and chain (`GLY 27 C O`): the spec fixes the order, so
 * the text is atom C on chain O wherever the item has that; where it does not but has the swapped reading (chain C,
 * atom O), the answer is refused with both readings and how to write the swapped one, never silently re-read.
 * Refused characters in a name are named with their code point.
 */
import { describe, expect, it } from "vitest";
import { pocketLigandTask as task, type PocketLigandFields } from "@/lib/tasks/pocket-ligand";

const gly = (chainId: string) => ({
  residueName: "GLY",
  residueNumber: 27,
  insertionCode: "",
  chainId,
  atoms: ["N", "CA", "C", "O"],
});
const fields = (chainIds: string[], residues?: ReturnType<typeof gly>[]): PocketLigandFields => ({
  pdbId: "1abc",
  chainIds,
  ...(residues ? { pickers: { residues, ligandAtoms: ["O5", "N2"] } } : {}),
});

describe("T9: a one-character atom and chain (GLY 27 C O)", () => {
  it("refuses, located and naming both readings, when the item has chain C but no chain O", () => {
    const r = task.parseAnswerFor("TYR 228 OH A, N2; GLY 27 C O, O5", fields(["A", "C"]));
    expect(r.ok).toBe(false);
    const error = !r.ok ? r.error : "";
    expect(error).toMatch(/^bond 2 \('GLY 27 C O, O5'\): ambiguous/);
    expect(error).toContain("atom C on chain O");
    expect(error).toContain("this item has no chain O (its chains: A, C)");
    expect(error).toContain("if you meant chain C, atom O, write the atom before the chain: 'GLY 27 O C'");
  });

  it("with pick lists: refuses when chain O exists but has no GLY 27 (and chain C's GLY 27 has an atom O)", () => {
    const r = task.parseAnswerFor("GLY 27 C O, O5", fields(["C", "O"], [gly("C")]));
    expect(!r.ok && r.error).toContain("chain O has no pocket residue GLY 27");
  });

  it("reads the format's order (atom C on chain O) where the item has it, even when the swapped reading exists too", () => {
    for (const f of [fields(["A", "O"]), fields(["C", "O"], [gly("C"), gly("O")])]) {
      const r = task.parseAnswerFor("GLY 27 C O, O5", f);
      expect(r).toMatchObject({ ok: true, canonical: "GLY 27 C O, O5" });
      expect(r.ok && r.value.kind === "bonds" && r.value.bonds[0]).toMatchObject({ atomName: "C", chainId: "O" });
    }
  });

  it("neither reading in the item: refused, naming the chain the item lacks (a typo, never a bond scored 0)", () => {
    const r = task.parseAnswerFor("GLY 27 C O, O5", fields(["A"]));
    expect(!r.ok && r.error).toMatch(/^bond 1 \('GLY 27 C O, O5'\): this item has no chain O \(its chains: A\)/);
    // Without the item (canonical texts, imported keys) the format's reading stands.
    expect(task.parseAnswer("GLY 27 C O, O5")).toMatchObject({ ok: true, canonical: "GLY 27 C O, O5" });
  });

  it("with pick lists: a residue, atom or ligand atom the item does not have is refused, located; the item's own names parse", () => {
    const f = fields(["A", "C"], [gly("A")]);
    const refused = (text: string) => {
      const r = task.parseAnswerFor(text, f);
      return r.ok ? "" : r.error;
    };
    expect(refused("GLY 28 O A, O5")).toContain("bond 1 ('GLY 28 O A, O5'): chain A has no pocket residue GLY 28");
    expect(refused("GLY 27 OXT A, O5")).toContain("GLY 27 on chain A has no atom OXT");
    expect(refused("GLY 27 O A, O5; GLY 27 N A, Q9")).toContain(
      "bond 2 ('GLY 27 N A, Q9'): the ligand has no atom Q9 (its atoms: O5, N2)",
    );
    expect(task.parseAnswerFor("GLY 27 O A, o5; GLY 27 N A, N2", f)).toMatchObject({ ok: true });
  });

  it("the swapped form the message suggests is accepted for the same item, and scores against a chain-C gold", () => {
    const f = fields(["A", "C"]);
    const r = task.parseAnswerFor("GLY 27 O C, O5", f);
    expect(r).toMatchObject({ ok: true, canonical: "GLY 27 O C, O5" });
    const gold = {
      kind: "bonds" as const,
      bonds: [
        { residueName: "GLY", residueNumber: 27, insertionCode: "", atomName: "O", chainId: "C", ligandAtomName: "O5" },
      ],
    };
    expect(task.gradeText("GLY 27 O C, O5", gold, undefined, f)).toMatchObject({ ok: true, score: { exact: 1 } });
    expect(task.gradeText("GLY 27 C O, O5", gold, undefined, f)).toMatchObject({ ok: false, stage: "answer" });
  });

  it("without the item (canonical texts, imported keys): the format's reading, unchanged", () => {
    expect(task.parseAnswer("GLY 27 C O, O5")).toMatchObject({ ok: true, canonical: "GLY 27 C O, O5" });
    expect(task.parseAnswerFor("GLY 27 C O, O5", undefined)).toMatchObject({ ok: true, canonical: "GLY 27 C O, O5" });
    // Fields that do not validate are not guessed from.
    expect(task.parseAnswerFor("GLY 27 C O, O5", { chainIds: "A" })).toMatchObject({
      ok: true,
      canonical: "GLY 27 C O, O5",
    });
  });

  it("every gold bond's canonical text parses to itself for its own item (the pick lists' output is never refused)", () => {
    const f = fields(["C", "O"], [gly("C"), gly("O")]);
    for (const chain of ["C", "O"])
      for (const atom of ["N", "C", "O"]) {
        const text = `GLY 27 ${atom} ${chain}, O5`;
        expect(task.parseAnswerFor(text, f), text).toMatchObject({ ok: true, canonical: text });
      }
  });
});

describe("T9: refused characters are named", () => {
  it.each([
    ["TYR 228 OH A, O5\u02b9", "'O5ʹ' is not a ligand atom name: the character 'ʹ' (U+02B9) cannot be part of it"],
    ["TYR 228 OH\u200b A, O5", "the character '\u200b' (U+200B) cannot be part of it"],
    [
      "TY\u00ae 228 OH A, O5",
      "'TY®' is not a 3-letter residue code: the character '®' (U+00AE) cannot be part of it (letters and digits only)",
    ],
    ["TYR 228 OH A, O\u20185\u201b", "the character '‛' (U+201B)"],
    ["TYR 228 OH A, O123456", "it has 7 characters, at most 6"],
  ])("%j", (text, message) => {
    const r = task.parseAnswer(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain(message);
    expect(!r.ok && r.error).toMatch(/^bond 1 \(/);
  });
  it("curly apostrophes and primes are read as ' (O5’ is O5')", () => {
    expect(task.parseAnswer("TYR 228 OH A, O5\u2019")).toMatchObject({ ok: true, canonical: "TYR 228 OH A, O5'" });
    expect(task.parseAnswer("TYR 228 OH A, C1\u2032")).toMatchObject({ ok: true, canonical: "TYR 228 OH A, C1'" });
  });
});
