// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeHybrid36, formatParseError, inferElementFromAtomName, parsePdb } from "@/lib/molecule/parse";
import type { ParseResult } from "@/lib/molecule/parse";
import { sharedStructurePath } from "@/tests/helpers/shared-data";
import { pdbLine } from "./pdb-line";

function ok(result: ParseResult) {
  if (!result.ok) throw new Error(formatParseError(result.error));
  return result.structure;
}
function err(result: ParseResult) {
  if (result.ok) throw new Error("expected a parse error");
  return result.error;
}

describe("parsePdb: fields", () => {
  it("reads fixed columns, chains, insertion codes, HETATM and charges", () => {
    const text = [
      "HEADER    TEST                                    01-JAN-00   1ABC              ",
      pdbLine({
        serial: 1,
        name: " N  ",
        resName: "GLY",
        chain: "B",
        resSeq: 27,
        iCode: "A",
        x: 1.5,
        y: -2.25,
        z: 3,
        element: "N",
      }),
      pdbLine({
        record: "HETATM",
        serial: 2,
        name: "ZN  ",
        resName: "ZN",
        chain: "B",
        resSeq: 301,
        x: 0,
        y: 0,
        z: 0,
        element: "ZN",
        charge: "2+",
      }),
      "END",
    ].join("\n");
    const s = ok(parsePdb(text, "t.pdb"));
    expect(s.title).toBe("1ABC");
    expect(s.atoms).toHaveLength(2);
    const [n, zn] = s.atoms;
    expect(n).toMatchObject({
      serial: 1,
      name: "N",
      element: "N",
      resName: "GLY",
      chain: "B",
      resSeq: 27,
      iCode: "A",
      hetero: false,
      x: 1.5,
      y: -2.25,
      z: 3,
    });
    expect(zn).toMatchObject({ element: "Zn", hetero: true, formalCharge: 2, resSeq: 301 });
  });

  it("infers the element from the atom name when columns 77-78 are blank", () => {
    expect(inferElementFromAtomName(" CA ", false)).toBe("C");
    expect(inferElementFromAtomName("CA  ", true)).toBe("Ca");
    expect(inferElementFromAtomName("HG11", false)).toBe("H");
    expect(inferElementFromAtomName("1HB ", false)).toBe("H");
    expect(inferElementFromAtomName("FE  ", true)).toBe("Fe");
    expect(inferElementFromAtomName(" OG1", false)).toBe("O");
    const s = ok(parsePdb(pdbLine({ name: " SG ", resName: "CYS", x: 0, y: 0, z: 0 }), "t.pdb"));
    expect(s.atoms[0]?.element).toBe("S");
  });

  it("keeps the first model only", () => {
    const text = [
      "MODEL        1",
      pdbLine({ serial: 1, name: " CA ", x: 1, y: 1, z: 1, element: "C" }),
      "ENDMDL",
      "MODEL        2",
      pdbLine({ serial: 1, name: " CA ", x: 9, y: 9, z: 9, element: "C" }),
      "ENDMDL",
    ].join("\n");
    const s = ok(parsePdb(text, "t.pdb"));
    expect(s.atoms).toHaveLength(1);
    expect(s.atoms[0]?.x).toBe(1);
    expect(s.notes).toContain("kept model 1 of 2");
  });

  it("keeps the highest-occupancy alternate location per residue", () => {
    const text = [
      pdbLine({ serial: 1, name: " CA ", resName: "SER", altLoc: "A", occupancy: 0.3, x: 1, y: 0, z: 0, element: "C" }),
      pdbLine({ serial: 2, name: " CA ", resName: "SER", altLoc: "B", occupancy: 0.7, x: 2, y: 0, z: 0, element: "C" }),
      pdbLine({ serial: 3, name: " OG ", resName: "SER", altLoc: "A", occupancy: 0.3, x: 1, y: 1, z: 0, element: "O" }),
      pdbLine({ serial: 4, name: " OG ", resName: "SER", altLoc: "B", occupancy: 0.7, x: 2, y: 1, z: 0, element: "O" }),
      pdbLine({ serial: 5, name: " N  ", resName: "SER", x: 0, y: 0, z: 0, element: "N" }),
    ].join("\n");
    const s = ok(parsePdb(text, "t.pdb"));
    expect(s.atoms.map((a) => [a.name, a.altLoc])).toEqual([
      ["CA", "B"],
      ["OG", "B"],
      ["N", ""],
    ]);
    expect(s.atoms.map((a) => a.serial)).toEqual([2, 4, 5]);
    expect(s.notes.join()).toMatch(/dropped 2 atoms/);
  });

  it("decodes hybrid-36 serials and residue numbers", () => {
    expect(decodeHybrid36("A0000", 5)).toBe(100000);
    expect(decodeHybrid36("A000", 4)).toBe(10000);
    expect(decodeHybrid36("a0000", 5)).toBe(100000 + 26 * 36 ** 4);
    expect(decodeHybrid36("12345", 5)).toBeNull();
  });
});

describe("parsePdb: errors name the line, column and field", () => {
  const good = pdbLine({ serial: 1, name: " CA ", x: 0, y: 0, z: 0, element: "C" });

  it("a non-numeric coordinate", () => {
    const bad = good.slice(0, 38) + "   abc.d" + good.slice(46);
    const e = err(parsePdb(`${good}\n${bad}\n`, "bad.pdb"));
    expect(e).toMatchObject({ fileName: "bad.pdb", line: 2, column: 39, field: "y coordinate (columns 39-46)" });
    expect(formatParseError(e)).toBe('bad.pdb:2:39: y coordinate (columns 39-46): "abc.d" is not a number');
  });
  it("a truncated coordinate record", () => {
    const e = err(parsePdb(`${good}\n${good}\n${good.slice(0, 40)}\n`, "cut.pdb"));
    expect(e.line).toBe(3);
    expect(e.reason).toMatch(/40 characters long/);
  });
  it("a bad serial number", () => {
    const bad = "ATOM  " + "  x1 " + good.slice(11);
    expect(err(parsePdb(bad, "s.pdb"))).toMatchObject({
      line: 1,
      column: 7,
      field: "atom serial number (columns 7-11)",
    });
  });
  it("a bad residue number", () => {
    const bad = good.slice(0, 22) + " 1.5" + good.slice(26);
    expect(err(parsePdb(bad, "r.pdb"))).toMatchObject({
      line: 1,
      column: 23,
      field: "residue sequence number (columns 23-26)",
    });
  });
  it("an unknown element symbol", () => {
    const bad = good.slice(0, 76) + "Xq";
    expect(err(parsePdb(bad, "e.pdb"))).toMatchObject({ line: 1, column: 77, reason: 'unknown element "Xq"' });
  });
  it("an element that cannot be inferred from the atom name", () => {
    const bad = pdbLine({ name: " QQ ", x: 0, y: 0, z: 0 });
    expect(err(parsePdb(bad, "q.pdb"))).toMatchObject({ line: 1, column: 13, field: "atom name (columns 13-16)" });
  });
  it("a malformed charge", () => {
    const bad = pdbLine({ name: " N  ", x: 0, y: 0, z: 0, element: "N", charge: "x+" });
    expect(err(parsePdb(bad, "c.pdb"))).toMatchObject({ line: 1, column: 79 });
  });
  it("a bad occupancy", () => {
    const bad = good.slice(0, 54) + "  one " + good.slice(60);
    expect(err(parsePdb(bad, "o.pdb"))).toMatchObject({ line: 1, column: 55, field: "occupancy (columns 55-60)" });
  });
  it("a blank residue name", () => {
    const bad = good.slice(0, 17) + "   " + good.slice(20);
    expect(err(parsePdb(bad, "n.pdb"))).toMatchObject({ line: 1, column: 18 });
  });
  it("a damaged record name (would otherwise drop the atom silently)", () => {
    const e = err(parsePdb(`${good}\nAT0M${good.slice(4)}\n`, "r.pdb"));
    expect(e).toMatchObject({ line: 2, column: 1, reason: 'unknown record type "AT0M" (columns 1-6)' });
  });
  it("a file without coordinates", () => {
    const e = err(parsePdb("HEADER    NOTHING\nEND\n", "empty.pdb"));
    expect(e.line).toBe(0);
    expect(formatParseError(e)).toMatch(/^empty\.pdb: no ATOM or HETATM records/);
  });
});

describe("parsePdb on a real entry (1n7g)", () => {
  const s = ok(parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "1n7g.pdb"), "utf8"), "1n7g.pdb"));
  it("reads every coordinate record (11034 atoms, per the data README)", () => {
    expect(s.atoms).toHaveLength(11034);
  });
  it("reads NDP A 701's phosphorus with its file coordinates", () => {
    // HETATM10258  PA  NDP A 701       7.828  20.770  33.341  1.00 26.62           P
    const pa = s.atoms.find((a) => a.resName === "NDP" && a.chain === "A" && a.resSeq === 701 && a.name === "PA");
    expect(pa).toMatchObject({
      serial: 10258,
      element: "P",
      x: 7.828,
      y: 20.77,
      z: 33.341,
      occupancy: 1,
      tempFactor: 26.62,
      hetero: true,
    });
  });
});

describe("parsePdb alternate locations on a real entry (2efj)", () => {
  const s = ok(parsePdb(fs.readFileSync(sharedStructurePath("plip-test-pdb", "2efj.pdb"), "utf8"), "2efj.pdb"));
  it("keeps one copy of SER A 22 CA (A and B both 0.50: the first id wins)", () => {
    const ca = s.atoms.filter((a) => a.resName === "SER" && a.chain === "A" && a.resSeq === 22 && a.name === "CA");
    expect(ca).toHaveLength(1);
    expect(ca[0]).toMatchObject({ altLoc: "A", serial: 117 });
  });
});
