import { describe, expect, it } from "vitest";
import { chooseLigand, listResidues } from "@/lib/molecule/prepare";
import type { Atom, Structure } from "@/lib/molecule/types";
import { makeAtom } from "./atoms";

/** Atoms of one residue laid along x from `x0`, 1.5 Å apart (bonded within the residue, far from anything else). */
function residue(resName: string, chain: string, resSeq: number, names: string[], x0: number, hetero: boolean): Atom[] {
  return names.map((name, k) =>
    makeAtom({ name, element: name[0]!, resName, chain, resSeq, hetero, x: x0 + 1.5 * k, y: 0, z: 0 }),
  );
}

const structure = (atoms: Atom[]): Structure => ({
  fileName: "hand.pdb",
  format: "pdb",
  title: "",
  atoms,
  bonds: [],
  hasBondOrders: false,
  notes: [],
});
const HEME_PART = ["NA", "C1A", "C2A", "C3A", "C4A", "CHA", "C1B", "C2B", "C3B", "C4B"];
const ARG = ["N", "CA", "C", "O", "CB", "CG", "CD", "NE", "CZ", "NH1", "NH2"];

describe("ligand choice as a chemist makes it", () => {
  it("a free arginine (HETATM, not in a chain) is the ligand beside a heme", () => {
    const s = structure([...residue("HEM", "A", 500, HEME_PART, 0, true), ...residue("ARG", "A", 900, ARG, 40, true)]);
    const r = chooseLigand(s);
    expect(r.ok && [r.id, r.reason]).toEqual([
      "ARG:A:900",
      "a free amino acid, the entry's ligand when nothing drug-like is bound (11 heavy atoms); passed over: HEM:A:500 (cofactor)",
    ]);
  });
  it("an arginine in ATOM records stays part of the protein", () => {
    const s = structure([...residue("HEM", "A", 500, HEME_PART, 0, true), ...residue("ARG", "A", 900, ARG, 40, false)]);
    expect(listResidues(s).find((g) => g.id === "ARG:A:900")!.kind).toBe("polymer");
    const r = chooseLigand(s);
    expect(r.ok && r.id).toBe("HEM:A:500");
  });
  it("a drug-like ligand beats a free amino acid and a larger cofactor", () => {
    const s = structure([
      ...residue("HEM", "A", 500, HEME_PART, 0, true),
      ...residue("ARG", "A", 900, ARG, 40, true),
      ...residue("LIG", "A", 901, ["C1", "C2", "N3"], 80, true),
    ]);
    const r = chooseLigand(s);
    expect(r.ok && [r.id, r.reason]).toEqual([
      "LIG:A:901",
      "the largest drug-like candidate (3 heavy atoms); passed over: HEM:A:500 (cofactor), ARG:A:900 (amino acid)",
    ]);
  });
  it("a named residue is taken as named, whatever its class", () => {
    const s = structure([
      ...residue("HEM", "A", 500, HEME_PART, 0, true),
      ...residue("LIG", "A", 901, ["C1", "C2", "N3"], 80, true),
    ]);
    const r = chooseLigand(s, { ligandId: "HEM:A:500" });
    expect(r.ok && [r.id, r.reason]).toEqual(["HEM:A:500", "named by the caller"]);
  });
});
