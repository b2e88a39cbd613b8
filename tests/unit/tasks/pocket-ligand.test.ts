import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PocketBond } from "@/lib/tasks/grammar/hbond";
import { pocketLigandTask as task, type PocketLigandAnswer } from "@/lib/tasks/pocket-ligand";
import { describeWithShared, SHARED_STRUCTURES_DIR } from "../../helpers/shared-data";

function bond(
  residueName: string,
  residueNumber: number,
  atomName: string,
  chainId: string,
  ligandAtomName: string,
  insertionCode = "",
): PocketBond {
  return { residueName, residueNumber, insertionCode, atomName, chainId, ligandAtomName };
}
const bonds = (...list: PocketBond[]): PocketLigandAnswer => ({ kind: "bonds", bonds: list });

const EXAMPLE_5EY0 = "TYR 228 OH A, O5; ASP 104 OD1 A, N2; GLY 229 N A, O3";
const TYR = bond("TYR", 228, "OH", "A", "O5");
const ASP = bond("ASP", 104, "OD1", "A", "N2");
const GLY = bond("GLY", 229, "N", "A", "O3");

describe("T9 pocket–ligand grammar", () => {
  it("reads a 5ey0-style list and canonicalises it sorted by chain and residue number", () => {
    const parsed = task.parseAnswer(EXAMPLE_5EY0);
    expect(parsed).toEqual({
      ok: true,
      value: bonds(ASP, TYR, GLY),
      canonical: "ASP 104 OD1 A, N2; TYR 228 OH A, O5; GLY 229 N A, O3",
    });
    if (parsed.ok) expect(task.parseAnswer(parsed.canonical)).toEqual(parsed);
  });

  it.each([
    ["gly 229 n a, o3; tyr 228 oh a, o5;\nasp 104 od1 a, n2.", "ASP 104 OD1 A, N2; TYR 228 OH A, O5; GLY 229 N A, O3"],
    ["ASP 60B OD1 A, N2", "ASP 60B OD1 A, N2"], // insertion code B, chain A
    ["ASP 60b OD1 a, n2", "ASP 60B OD1 A, N2"],
    ["TYR 228A OH A, O5", "TYR 228A OH A, O5"], // insertion code A, chain A: the chain is always the 4th part
    ["HOH -3 O B, O1; ALA 2 N A, O1", "ALA 2 N A, O1; HOH -3 O B, O1"], // sorted by chain first
    ["No", "No"],
    ["NO 5 N A, O1", "NO 5 N A, O1"], // a residue named NO is not the word "No"
    ["GLY 27 O A, N37", "GLY 27 O A, N37"], // atom O, chain A: the grammar's order
    ["GLY 27 C O, N37", "GLY 27 C O, N37"], // atom C on chain O: without the item the format's order decides (t9-chain-order.test.ts: with it)
    ["SEP 12 P A, O1", "SEP 12 P A, O1"], // a one-letter element on a modified residue is an atom name
  ])("reads %j as %j", (text, canonical) => {
    const parsed = task.parseAnswer(text);
    expect(parsed).toMatchObject({ ok: true, canonical });
    if (parsed.ok) expect(task.parseAnswer(canonical)).toEqual(parsed);
  });

  it("keeps the insertion code and the chain apart", () => {
    const parsed = task.parseAnswer("ASP 60B OD1 A, N2");
    expect(parsed.ok && parsed.value).toEqual(bonds(bond("ASP", 60, "OD1", "A", "N2", "B")));
  });

  const EG = " — e.g. 'TYR 228 OH A, O5; ASP 104 OD1 A, N2'";
  it.each([
    ["", `the answer is empty: expected 'No' or '<RES> <resnum> <atom> <chain>, <ligand atom>; ...'${EG}`],
    [
      "TYR 228 OH, O5",
      `bond 1 ('TYR 228 OH, O5'): expected 4 parts '<RES> <resnum> <atom> <chain>' before the comma (e.g. 'TYR 228 OH A'), got 3: 'TYR 228 OH' (is the chain missing?)${EG}`,
    ],
    [
      "TYR 228 A OH, O5",
      `bond 1 ('TYR 228 A OH, O5'): 'OH' is not a one-character chain id: write the atom name before the chain ('<RES> <resnum> <atom> <chain>'), as in 'TYR 228 OH A'${EG}`,
    ],
    // A chain letter before a one-letter atom name: read by position it would be atom "A" on chain "O" and score 0.
    [
      "GLY 27 A O, N37",
      `bond 1 ('GLY 27 A O, N37'): 'A' is not an atom of GLY: write the atom name before the chain ('<RES> <resnum> <atom> <chain>'), as in 'GLY 27 O A'${EG}`,
    ],
    [
      "TYR 228 OH A, O5; gly 27 b n, n37",
      `bond 2 ('gly 27 b n, n37'): 'b' is not an atom of GLY: write the atom name before the chain ('<RES> <resnum> <atom> <chain>'), as in 'GLY 27 N B'${EG}`,
    ],
    [
      "SEP 12 A P, O1",
      `bond 1 ('SEP 12 A P, O1'): 'A' is not an atom of SEP: write the atom name before the chain ('<RES> <resnum> <atom> <chain>'), as in 'SEP 12 P A'${EG}`,
    ],
    [
      "TYR X228 OH A, O5",
      `bond 1 ('TYR X228 OH A, O5'): expected a residue number as the 2nd part (e.g. 228, or 60B with an insertion code), got 'X228'${EG}`,
    ],
    [
      "TYR 228AB OH A, O5",
      `bond 1 ('TYR 228AB OH A, O5'): expected a residue number as the 2nd part (e.g. 228, or 60B with an insertion code), got '228AB'${EG}`,
    ],
    [
      "TYR 228 OH A, O5 O6",
      `bond 1 ('TYR 228 OH A, O5 O6'): expected one ligand atom name after the comma, got 'O5 O6'${EG}`,
    ],
    ["Yes: TYR 228 OH A, O5", `list the bonds directly, without 'Yes'${EG}`],
    ["No bonds", `unexpected 'bonds' after 'No': answer just 'No' when there are no hydrogen bonds${EG}`],
    [
      "TYR 228 OH A, O5 ASP 104 OD1 A, N2",
      `bond 1 ('TYR 228 OH A, O5 ASP 104 OD1 A, N2'): expected one comma per bond ('<RES> <resnum> <atom> <chain>, <ligand atom>'); separate bonds with ';'${EG}`,
    ],
    ["TYR 228 OH A, O5; ; GLY 229 N A, O3", `bond 2 is empty (two ';' in a row?)${EG}`],
  ])("rejects %j with a specific message", (text, error) => {
    expect(task.parseAnswer(text)).toEqual({ ok: false, error });
  });
});

describe("T9: a chain letter written before the atom name", () => {
  it("is refused on the server's grading path with the same located message the participant sees (never silently scored 0)", () => {
    const graded = task.gradeText("GLY 27 A O, N37", bonds(bond("GLY", 27, "O", "A", "N37")));
    expect(graded).toEqual({
      ok: false,
      stage: "answer",
      error: `bond 1 ('GLY 27 A O, N37'): 'A' is not an atom of GLY: write the atom name before the chain ('<RES> <resnum> <atom> <chain>'), as in 'GLY 27 O A' — e.g. 'TYR 228 OH A, O5; ASP 104 OD1 A, N2'`,
    });
    // Written in the grammar's order, the same bond scores 1.
    const right = task.gradeText("GLY 27 O A, N37", bonds(bond("GLY", 27, "O", "A", "N37")));
    expect(right.ok && right.score).toEqual({ exact: 1, partial: 1 });
  });
});

describe("T9 pocket–ligand scoring", () => {
  const truth = bonds(TYR, ASP);
  it.each([
    ["the same set", 1, 1, bonds(ASP, TYR)],
    ["2 true of 2 + 1 extra", 0, 0.5, bonds(TYR, ASP, GLY)],
    [
      "5 answered vs 2 true",
      0,
      0,
      bonds(TYR, ASP, GLY, bond("SER", 1, "OG", "A", "O1"), bond("SER", 2, "OG", "A", "O1")),
    ],
    ["1 of 2 true and 1 false", 0, 0.5, bonds(TYR, GLY)],
    ["the right atoms with a wrong residue number", 0, 0.5, bonds(TYR, bond("ASP", 105, "OD1", "A", "N2"))],
    ["the right atoms on another chain", 0, 0.5, bonds(TYR, bond("ASP", 104, "OD1", "B", "N2"))],
    ["'No'", 0, 0, { kind: "none" } as const],
  ])("%s scores exact %d, partial %d", (_label, exact, partial, answer) => {
    expect(task.score(answer, truth)).toEqual({ exact, partial });
  });

  it("rejects an item whose gold bonds sit on a chain the question does not list", () => {
    const result = task.itemSchema.safeParse({ fields: { pdbId: "5ey0", chainIds: ["B"] }, gold: truth });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("gold bond on chain A but the question lists chains B");
  });

  it("names the chains in the question", () => {
    expect(task.renderQuestion({ pdbId: "5ey0", chainIds: ["A"] })).toContain("belong to chain A;");
    expect(task.renderQuestion({ pdbId: "1bju", chainIds: ["a", "B", "A"] })).toContain("belong to chains A and B;");
  });
});

/**
 * Every heavy protein/ligand atom of the real PDB entries in the shared data can be named in a T9
 * answer: residue names, atom names with primes (O5'), negative numbers, insertion codes (1bju has
 * 221A, 184A). Reads PDB columns directly so this test depends on no parser.
 */
describeWithShared("T9 grammar on real PDB records", () => {
  const dir = path.join(SHARED_STRUCTURES_DIR, "plip-test-pdb");
  const pdbFiles = () => fs.readdirSync(dir).filter((f) => f.endsWith(".pdb"));

  it("represents every non-water heavy atom of the plip test entries", () => {
    const files = pdbFiles();
    expect(files.length).toBeGreaterThanOrEqual(20);
    let atoms = 0;
    let withInsertionCode = 0;
    for (const file of files) {
      const lines = fs.readFileSync(path.join(dir, file), "utf8").split(/\r?\n/);
      for (const line of lines) {
        if (!line.startsWith("ATOM") && !line.startsWith("HETATM")) continue;
        const atomName = line.slice(12, 16).trim();
        const residueName = line.slice(17, 20).trim();
        const chainId = line.slice(21, 22);
        const residueNumber = Number(line.slice(22, 26));
        const insertionCode = line.slice(26, 27).trim();
        const element = line.slice(76, 78).trim();
        if (residueName === "HOH" || element === "H" || element === "D") continue;
        const text = `${residueName} ${residueNumber}${insertionCode} ${atomName} ${chainId}, ${atomName}`;
        const parsed = task.parseAnswer(text);
        if (!parsed.ok) throw new Error(`${file}: ${line}\n${parsed.error}`);
        expect(parsed.value).toEqual(
          bonds(bond(residueName, residueNumber, atomName, chainId, atomName, insertionCode)),
        );
        atoms++;
        if (insertionCode !== "") withInsertionCode++;
      }
    }
    expect(atoms).toBeGreaterThan(50_000);
    expect(withInsertionCode).toBeGreaterThan(0);
  });
});
