import { describe, expect, it } from "vitest";
import { parsePdb } from "@/lib/molecule/parse";
import { listResidues } from "@/lib/molecule/prepare";
import { residueKeyOf, residueKeyText } from "@/lib/molecule/types";
import { pdbLine } from "./pdb-line";

describe("residueKeyText: the one residue key of the molecule code", () => {
  const base = { chain: "A", resSeq: 12, iCode: "", resName: "SER" };
  it("differs when any of chain, number, insertion code or name differs", () => {
    const variants = [
      base,
      { ...base, chain: "B" },
      { ...base, resSeq: 13 },
      { ...base, iCode: "A" },
      { ...base, resName: "THR" },
    ];
    expect(new Set(variants.map(residueKeyText)).size).toBe(variants.length);
  });
  it("keeps the fields apart: number 1 with insertion code 2 is not number 12", () => {
    expect(residueKeyText({ ...base, resSeq: 1, iCode: "2" })).not.toBe(residueKeyText(base));
    expect(residueKeyText({ ...base, iCode: "S", resName: "ER" })).not.toBe(residueKeyText(base));
  });
  it("is the same for an atom and its residue key", () => {
    const atom = { ...base, name: "OG", element: "O", serial: 7, x: 0, y: 0, z: 0 };
    expect(residueKeyText(residueKeyOf(atom))).toBe(residueKeyText(base));
  });
  it("groups a PDB file's atoms into the residues listResidues reports (27 and 27A of chain B apart)", () => {
    const text = [
      pdbLine({ serial: 1, name: " N  ", element: "N", resName: "GLY", chain: "B", resSeq: 27, x: 0, y: 0, z: 0 }),
      pdbLine({ serial: 2, name: " CA ", element: "C", resName: "GLY", chain: "B", resSeq: 27, x: 1.45, y: 0, z: 0 }),
      pdbLine({
        serial: 3,
        name: " N  ",
        element: "N",
        resName: "GLY",
        chain: "B",
        resSeq: 27,
        iCode: "A",
        x: 3,
        y: 0,
        z: 0,
      }),
    ].join("\n");
    const r = parsePdb(text, "x.pdb");
    if (!r.ok) throw new Error("parse");
    expect(listResidues(r.structure).map((g) => [g.id, g.atomIndices])).toEqual([
      ["GLY:B:27", [0, 1]],
      ["GLY:B:27A", [2]],
    ]);
  });
});
