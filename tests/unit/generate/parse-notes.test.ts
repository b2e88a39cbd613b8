/** `npm run generate` keeps what the parser did to a file: on the complex, in every item's provenance. */
import { describe, expect, it } from "vitest";
import { generateItems, loadGeneratorComplex } from "@/lib/generate";
import { TASK_IDS } from "@/lib/tasks/types";

// A ligand in a ring of four residues (an alanine tetrad around a small amide), its C1 record written twice.
const residue = (n: number, name: string, x: number, y: number) =>
  [
    ["N", x - 1.2, y, 0, "N"],
    ["CA", x, y, 0, "C"],
    ["C", x + 1.2, y, 0.5, "C"],
    ["O", x + 1.4, y, 1.7, "O"],
    ["CB", x, y + 1.5, -0.5, "C"],
  ].map(
    ([atom, ax, ay, az, el], k) =>
      `ATOM  ${String(n * 10 + k).padStart(5)}  ${String(atom).padEnd(3)} ${name} A${String(n).padStart(4)}    ${Number(ax).toFixed(3).padStart(8)}${Number(ay).toFixed(3).padStart(8)}${Number(az).toFixed(3).padStart(8)}  1.00 20.00           ${el}`,
  );
const ligand = [
  "HETATM  901  C1  LIG A 900       0.000   0.000   0.000  1.00 20.00           C",
  "HETATM  902  C2  LIG A 900       1.500   0.000   0.000  1.00 20.00           C",
  "HETATM  903  O3  LIG A 900       2.200   1.100   0.000  1.00 20.00           O",
  "HETATM  904  N4  LIG A 900       2.200  -1.200   0.000  1.00 20.00           N",
  "HETATM  905  C1  LIG A 900       0.000   0.000   0.000  1.00 20.00           C",
];
const text = [
  "HEADER    TEST                                    01-JAN-00   1ABC              ",
  ...residue(1, "SER", 5, 0),
  ...residue(2, "THR", -4, 0),
  ...residue(3, "ASN", 1, 4.5),
  ...residue(4, "GLN", 1, -4.5),
  ...ligand,
  "END",
].join("\n");

describe("parse notes in a generated complex", () => {
  const loaded = loadGeneratorComplex({ pdbId: "1abc", file: "1abc.pdb", text, sha256: "0".repeat(64) });
  it("are on the complex, naming the file", () => {
    expect(loaded.ok && loaded.complex.parseNotes).toEqual([
      "1abc.pdb: dropped 1 duplicate atom records, keeping the first record of each atom: 1abc.pdb:26: LIG:A:900 C1 (first at line 22)",
    ]);
  });
  it("and in the provenance of its items", () => {
    if (!loaded.ok) throw new Error(loaded.reason);
    const r = generateItems({ complexes: [loaded.complex], tasks: TASK_IDS, perTask: 1, seed: "notes" });
    if (!r.ok) throw new Error(r.error);
    expect(r.items.length).toBeGreaterThan(0);
    for (const item of r.items)
      expect(item.provenance.structure.parseNotes).toEqual([
        "1abc.pdb: dropped 1 duplicate atom records, keeping the first record of each atom: 1abc.pdb:26: LIG:A:900 C1 (first at line 22)",
      ]);
  });
});
