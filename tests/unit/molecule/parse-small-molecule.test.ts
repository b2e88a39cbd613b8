// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  detectFormat,
  formatParseError,
  parseMol2,
  parseSdf,
  parseStructure,
  type ParseResult,
} from "@/lib/molecule/parse";
import type { Structure } from "@/lib/molecule/types";
import { sharedStructurePath } from "@/tests/helpers/shared-data";

const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/molecule");

function ok(result: ParseResult): Structure {
  if (!result.ok) throw new Error(formatParseError(result.error));
  return result.structure;
}
function err(result: ParseResult) {
  if (result.ok) throw new Error("expected a parse error");
  return result.error;
}
function bondLength(s: Structure, i: number, j: number): number {
  const a = s.atoms[i]!;
  const b = s.atoms[j]!;
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

const SUCCINATE_SDF = fs.readFileSync(
  sharedStructurePath("posebusters-conftest", "7ECR_SIN", "7ECR_SIN_ligand.sdf"),
  "utf8",
);

describe("parseSdf V2000 (7ECR succinate)", () => {
  const s = ok(parseSdf(SUCCINATE_SDF, "7ECR_SIN_ligand.sdf", { resName: "SIN" }));
  it("reads 8 atoms and 7 bonds with orders", () => {
    expect(s.atoms).toHaveLength(8);
    expect(s.bonds).toHaveLength(7);
    expect(s.bonds[0]).toEqual({ a: 0, b: 1, order: 2 });
    expect(s.hasBondOrders).toBe(true);
  });
  it("names atoms element + count and applies the residue options", () => {
    expect(s.atoms.map((a) => a.name)).toEqual(["C1", "O1", "O2", "C2", "C3", "C4", "O3", "O4"]);
    expect(s.atoms[0]).toMatchObject({ resName: "SIN", hetero: true, x: -57.553 });
  });
  it("has textbook bond lengths: C=O 1.224 Å, C–C 1.534 Å (hand-computed from the file)", () => {
    // C1 (-57.553,-27.124,-42.789) – O1 (-56.811,-27.726,-43.554): √(0.742²+0.602²+0.765²) = 1.2240
    expect(bondLength(s, 0, 1)).toBeCloseTo(1.224, 3);
    // C1 – C2 (-58.819,-27.806,-42.256): √(1.266²+0.682²+0.533²) = 1.5336
    expect(bondLength(s, 0, 3)).toBeCloseTo(1.5336, 3);
  });
});

describe("parseSdf V3000", () => {
  const s = ok(parseSdf(fs.readFileSync(path.join(FIXTURES, "succinate-v3000.mol"), "utf8"), "succinate-v3000.mol"));
  it("reads the same molecule as the V2000 file, including a continued line and CHG", () => {
    const v2000 = ok(parseSdf(SUCCINATE_SDF, "7ECR_SIN_ligand.sdf"));
    expect(s.atoms.map((a) => [a.element, a.x, a.y, a.z])).toEqual(v2000.atoms.map((a) => [a.element, a.x, a.y, a.z]));
    expect(s.bonds).toEqual(v2000.bonds);
    expect(s.atoms[2]?.formalCharge).toBe(-1);
  });
});

describe("parseSdf errors name the line", () => {
  const lines = SUCCINATE_SDF.split("\n");
  const edit = (lineNo: number, text: string) => lines.map((l, i) => (i === lineNo - 1 ? text : l)).join("\n");

  it("bad counts line", () => {
    expect(err(parseSdf(edit(4, "  x  7  0  0  0  0  0  0  0  0999 V2000"), "c.sdf"))).toMatchObject({
      line: 4,
      column: 1,
    });
  });
  it("bad coordinate", () => {
    const line5 = lines[4]!;
    const e = err(parseSdf(edit(5, line5.slice(0, 10) + "   -2x.1240" + line5.slice(20)), "x.sdf"));
    expect(e).toMatchObject({ line: 5, column: 11, field: "y coordinate (columns 11-20)" });
  });
  it("unknown element", () => {
    const line6 = lines[5]!;
    expect(err(parseSdf(edit(6, line6.slice(0, 31) + "Qx " + line6.slice(34)), "e.sdf"))).toMatchObject({
      line: 6,
      column: 32,
    });
  });
  it("atom block shorter than declared", () => {
    const e = err(parseSdf(edit(4, "  9  7  0  0  0  0  0  0  0  0999 V2000"), "n.sdf"));
    expect(e.line).toBe(13);
    expect(e.reason).toMatch(/expected atom 9 of 9/);
  });
  it("bond to a missing atom", () => {
    expect(err(parseSdf(edit(13, "  1  9  2  0"), "b.sdf"))).toMatchObject({ line: 13, column: 4 });
  });
  it("unsupported bond type", () => {
    expect(err(parseSdf(edit(13, "  1  2  8  0"), "t.sdf"))).toMatchObject({ line: 13, column: 7 });
  });
  it("missing M  END", () => {
    const e = err(parseSdf(lines.filter((l) => !l.startsWith("M  END")).join("\n"), "m.sdf"));
    expect(e.reason).toMatch(/M {2}END/);
    expect(e.line).toBe(20); // the $$$$ line, where the record ends
  });
  it("V3000 count mismatch", () => {
    const v3 = fs.readFileSync(path.join(FIXTURES, "succinate-v3000.mol"), "utf8").replace("COUNTS 8 7", "COUNTS 9 7");
    expect(err(parseSdf(v3, "v3.mol"))).toMatchObject({ line: 6, field: "COUNTS" });
  });
  it("V3000 unknown element", () => {
    const v3 = fs.readFileSync(path.join(FIXTURES, "succinate-v3000.mol"), "utf8").replace("M  V30 4 C", "M  V30 4 Qq");
    expect(err(parseSdf(v3, "v3.mol"))).toMatchObject({ line: 11, field: "atom type" });
  });
  it("empty file", () => {
    expect(err(parseSdf("", "empty.sdf")).line).toBe(0);
  });
});

describe("parseMol2", () => {
  const s = ok(
    parseMol2(
      fs.readFileSync(sharedStructurePath("posebusters-conftest", "5ze6", "5ze6_true.mol2"), "utf8"),
      "5ze6_true.mol2",
    ),
  );
  it("keeps atom names, elements from Tripos types, residue from the substructure", () => {
    expect(s.atoms).toHaveLength(58);
    expect(s.bonds).toHaveLength(58);
    expect(s.atoms[1]).toMatchObject({ name: "OAB", element: "O", resName: "HJX", resSeq: 1, x: 12.067 });
  });
  it("reads aromatic bonds as order 1.5", () => {
    expect(s.bonds.some((b) => b.order === 1.5)).toBe(true);
  });
  const text = fs.readFileSync(sharedStructurePath("posebusters-conftest", "misc", "mol_1a30_ligand.mol2"), "utf8");
  const lines = text.split("\n");
  const edit = (lineNo: number, t: string) => lines.map((l, i) => (i === lineNo - 1 ? t : l)).join("\n");
  it("errors: bad coordinate names the line", () => {
    expect(
      err(
        parseMol2(edit(13, "      1 N           4.8410   2x.5760    5.3100 N.4       1 GLU         0.2380"), "a.mol2"),
      ),
    ).toMatchObject({
      line: 13,
      field: "y coordinate",
    });
  });
  it("errors: dummy atom type", () => {
    expect(
      err(
        parseMol2(edit(13, "      1 N           4.8410   27.5760    5.3100 Du       1 GLU         0.2380"), "a.mol2"),
      ),
    ).toMatchObject({
      line: 13,
      field: "atom_type",
    });
  });
  it("errors: count mismatch is reported on the counts line", () => {
    expect(err(parseMol2(edit(7, "   50    48     1     0     0"), "a.mol2"))).toMatchObject({ line: 7 });
  });
  it("errors: bond to an unknown atom", () => {
    expect(err(parseMol2(edit(63, "     1    3   99 1  "), "a.mol2"))).toMatchObject({
      line: 63,
      field: "target_atom_id",
    });
  });
  it("errors: unknown bond type", () => {
    expect(err(parseMol2(edit(63, "     1    3    2 7  "), "a.mol2"))).toMatchObject({ line: 63, field: "bond_type" });
  });
  it("errors: not a MOL2 file", () => {
    expect(err(parseMol2("hello\n", "x.mol2")).line).toBe(1);
    expect(err(parseMol2("", "x.mol2")).line).toBe(0);
  });
});

describe("format detection", () => {
  it("uses the extension, then the content", () => {
    expect(detectFormat("a.PDB", "")).toBe("pdb");
    expect(detectFormat("a.mol", "")).toBe("sdf");
    expect(detectFormat("upload", "@<TRIPOS>MOLECULE\n")).toBe("mol2");
    expect(detectFormat("upload", SUCCINATE_SDF)).toBe("sdf");
    expect(detectFormat("upload", "HETATM    1  C1  LIG")).toBe("pdb");
    expect(detectFormat("upload", "hello")).toBeNull();
    expect(err(parseStructure("hello", "upload")).reason).toMatch(/unknown format/);
  });
});
