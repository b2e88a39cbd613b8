import { describe, expect, it } from "vitest";
import { chooseLigand, listResidues } from "@/lib/molecule/prepare";
import type { Atom, Structure } from "@/lib/molecule/types";
import { parsePdb, formatParseError } from "@/lib/molecule/parse";
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
      "a free amino acid, the entry's ligand when nothing drug-like is bound (11 heavy atoms); passed over: HEM:A:500 (cofactor, 10 heavy atoms)",
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
      "the largest drug-like candidate (3 heavy atoms); passed over: HEM:A:500 (cofactor, 10 heavy atoms), ARG:A:900 (amino acid, 11 heavy atoms)",
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

/** Parses hand-made PDB text (fixed columns, see the fixtures below). */
function parse(text: string): Structure {
  const r = parsePdb(text, "fixture.pdb");
  if (!r.ok) throw new Error(formatParseError(r.error));
  return r.structure;
}

// After 2Q8Q (IsdE with heme): a heme core with its iron, the His ligand on the proximal side, and on the distal side
// whatever the test puts on the iron. Coordinates are the entry's (the porphyrin core without its side chains).
const HEME_SITE = `\
ATOM   1562  N   HIS A 229      51.579  47.039  47.850  1.00 24.59           N
ATOM   1563  CA  HIS A 229      53.036  46.951  47.837  1.00 24.00           C
ATOM   1569  CD2 HIS A 229      55.852  45.271  46.525  1.00 20.92           C
ATOM   1570  CE1 HIS A 229      57.046  45.310  48.364  1.00 20.72           C
ATOM   1571  NE2 HIS A 229      57.123  45.226  47.047  1.00 21.23           N
HETATM 2078  CHA HEM A 300      60.293  46.665  48.583  1.00 30.86           C
HETATM 2079  CHB HEM A 300      58.662  47.876  44.153  1.00 30.43           C
HETATM 2080  CHC HEM A 300      57.021  43.296  43.624  1.00 30.86           C
HETATM 2081  CHD HEM A 300      59.464  41.926  47.551  1.00 30.58           C
HETATM 2082  C1A HEM A 300      59.881  47.437  47.499  1.00 31.87           C
HETATM 2085  C4A HEM A 300      59.127  47.995  45.450  1.00 31.66           C
HETATM 2092  C1B HEM A 300      58.111  46.736  43.592  1.00 31.76           C
HETATM 2095  C4B HEM A 300      57.362  44.618  43.363  1.00 31.35           C
HETATM 2099  C1C HEM A 300      57.493  42.490  44.638  1.00 30.98           C
HETATM 2102  C4C HEM A 300      58.633  41.877  46.454  1.00 31.26           C
HETATM 2106  C1D HEM A 300      59.926  43.047  48.207  1.00 30.86           C
HETATM 2109  C4D HEM A 300      60.314  45.278  48.700  1.00 29.95           C
HETATM 2116  NA  HEM A 300      59.444  46.943  46.286  1.00 31.29           N
HETATM 2117  NB  HEM A 300      57.959  45.511  44.232  1.00 31.73           N
HETATM 2118  NC  HEM A 300      58.334  42.927  45.627  1.00 31.05           N
HETATM 2119  ND  HEM A 300      59.758  44.369  47.802  1.00 30.51           N
HETATM 2120 FE   HEM A 300      58.845  44.944  46.058  1.00 29.54          FE
`;
// An azole coordinated to the iron through N1 (Fe–N 2.1 Å), as the reviewer's 2q8q_azole.pdb.
const AZOLE_ON_IRON = `\
HETATM   20  N1  LIG A 900      60.615  44.678  44.960  1.00 20.00           N
HETATM   21  C2  LIG A 900      61.205  43.521  44.852  1.00 20.00           C
HETATM   22  N3  LIG A 900      62.301  43.745  44.078  1.00 20.00           N
HETATM   23  C4  LIG A 900      62.385  45.093  43.696  1.00 20.00           C
HETATM   24  C5  LIG A 900      61.289  45.646  44.282  1.00 20.00           C
HETATM   25  C6  LIG A 900      63.312  42.816  43.638  1.00 20.00           C
HETATM   26  O7  LIG A 900      64.323  43.150  42.893  1.00 20.00           O
HETATM   27  C8  LIG A 900      63.396  45.816  42.857  1.00 20.00           C
`;
// Carbon monoxide on the iron (Fe–C 1.8 Å) and a small drug beside His 229, as the reviewer's 2q8q_co_drug.pdb.
const CO_AND_DRUG = `\
HETATM   20  C   CMO A 901      60.379  44.714  45.106  1.00 20.00           C
HETATM   21  O   CMO A 901      61.348  44.568  44.504  1.00 20.00           O
HETATM   22  C1  DRG A 950      49.000  47.000  51.000  1.00 20.00           C
HETATM   23  C2  DRG A 950      47.600  47.000  51.000  1.00 20.00           C
HETATM   24  N3  DRG A 950      46.900  48.200  51.000  1.00 20.00           N
HETATM   25  O4  DRG A 950      46.900  45.800  51.000  1.00 20.00           O
`;

describe("metal coordination, diatomic gases and pocket contact in the ligand choice", () => {
  it("an azole on the heme iron is its own candidate and the ligand, not part of the heme", () => {
    const r = chooseLigand(parse(HEME_SITE + AZOLE_ON_IRON));
    expect(r.ok && [r.id, r.residues.map((g) => g.id), r.reason]).toEqual([
      "LIG:A:900",
      ["LIG:A:900"],
      "the largest drug-like candidate (8 heavy atoms); passed over: HEM:A:300 (cofactor, 17 heavy atoms)",
    ]);
  });
  it("heme with CO on its iron is a cofactor; the drug beside it is the ligand", () => {
    const r = chooseLigand(parse(HEME_SITE + CO_AND_DRUG));
    expect(r.ok && [r.id, r.reason]).toEqual([
      "DRG:A:950",
      "the largest drug-like candidate (4 heavy atoms); passed over: HEM:A:300 (cofactor, 17 heavy atoms)",
    ]);
  });
  it("a crystallisation agent is not a candidate, and a ligand far from the protein ranks after one in a pocket", () => {
    // After 1AKU with a succinate and a free arginine: the arginine sits at a crystal contact, 30 Å from the protein.
    const far = `\
HETATM   30  N   ARG X 501      93.106  28.466   2.793  1.00 20.00           N
HETATM   31  CA  ARG X 501      91.983  28.506   1.844  1.00 20.00           C
HETATM   32  C   ARG X 501      92.207  29.493   0.682  1.00 20.00           C
HETATM   33  O   ARG X 501      91.860  29.145  -0.457  1.00 20.00           O
HETATM   34  CB  ARG X 501      90.706  28.806   2.632  1.00 20.00           C
HETATM   35  CG  ARG X 501      89.441  28.934   1.771  1.00 20.00           C
HETATM   40  C1  SIN X 601      49.000  47.000  51.000  1.00 20.00           C
HETATM   41  C2  SIN X 601      47.600  47.000  51.000  1.00 20.00           C
HETATM   42  O1  SIN X 601      46.900  48.200  51.000  1.00 20.00           O
`;
    const s = parse(HEME_SITE + far);
    expect(listResidues(s).find((g) => g.id === "SIN:X:601")!.kind).toBe("buffer");
    const r = chooseLigand(s);
    expect(r.ok && [r.id, r.reason]).toEqual([
      "HEM:A:300",
      "only cofactors or prosthetic groups are bound; the largest of them (17 heavy atoms); passed over: ARG:X:501 (amino acid, 6 heavy atoms, no protein atom within 4.5 Å)",
    ]);
  });
});
