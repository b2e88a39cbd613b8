// needs-shared-structures: whole file
/**
 * Answer keys name amino-acid residues only by default: on 1bju four of the ligand's
 * H-bonds go to a sulfate (SO4 901) in the pocket; T4 and T9 keys (and T8 questions) must not name
 * it unless the generator is asked for every pocket group.
 */
import { describe, expect, it } from "vitest";
import { generateItems } from "@/lib/generate";
import { isAminoAcid } from "@/lib/molecule/chemistry/residues";
import type { PocketBond, ResidueBond } from "@/lib/tasks/grammar/hbond";
import { loadComplex } from "./complexes";

const bju = loadComplex({ pdbId: "1bju", file: "plip-test-pdb/1bju.pdb" });
const n7g = loadComplex({ pdbId: "1n7g", file: "plip-test-pdb/1n7g.pdb" });
const complexes = [bju, n7g];

function goldBonds(gold: unknown): ResidueBond[] {
  const g = gold as { kind: string; bonds?: ResidueBond[] };
  return g.kind === "bonds" ? g.bonds! : [];
}

describe("H-bond key partners", () => {
  it("the complexes really have bonds to non-amino-acid pocket groups (the test can fail)", () => {
    const hetero = [...bju.hbonds, ...n7g.hbonds]
      .filter((b) => !b.proteinIsAminoAcid)
      .map((b) => b.proteinAtom.resName);
    expect(hetero).toContain("SO4");
    expect(hetero).toContain("NDP"); // 1n7g: the NADPH cofactor beside the GDR ligand
  });

  it("T9 and T4 keys and T8 questions name amino acids only by default", () => {
    const r = generateItems({
      complexes,
      tasks: ["pocket_ligand", "residue_ligand", "interaction_location"],
      perTask: 12,
      seed: "partners",
      renderSettings: { widthPx: 64, heightPx: 64 },
    });
    if (!r.ok) throw new Error(r.error);
    const t9 = r.items.filter((i) => i.taskId === "pocket_ligand");
    expect(t9.length).toBe(2);
    for (const item of t9) {
      const bonds = goldBonds(item.gold) as PocketBond[];
      expect(bonds.length).toBeGreaterThan(0);
      for (const b of bonds) expect(isAminoAcid(b.residueName), `${item.pdbId}: ${b.residueName}`).toBe(true);
      expect(item.canonicalAnswer).not.toMatch(/SO4|GDR/);
    }
    const t4 = r.items.filter((i) => i.taskId === "residue_ligand");
    expect(t4.length).toBeGreaterThan(0);
    for (const item of t4) {
      const residue = (item.fields as { residue: { residueName: string } }).residue;
      expect(isAminoAcid(residue.residueName)).toBe(true);
      for (const b of goldBonds(item.gold)) expect(isAminoAcid(b.residueName)).toBe(true);
    }
    for (const item of r.items.filter((i) => i.taskId === "interaction_location"))
      expect(item.question).not.toMatch(/SO4|GDR/);
  });

  it("the generator param hbondPartners = all-pocket-groups keys the sulfate too", () => {
    const r = generateItems({
      complexes: [bju],
      tasks: ["pocket_ligand"],
      perTask: 1,
      seed: "partners",
      params: { pocket_ligand: { hbondPartners: "all-pocket-groups" } },
      renderSettings: { widthPx: 64, heightPx: 64 },
    });
    if (!r.ok) throw new Error(r.error);
    const names = goldBonds(r.items[0]!.gold).map((b) => b.residueName);
    expect(names).toContain("SO4");
    expect(names.some((n) => isAminoAcid(n))).toBe(true);
  });

  it("an unknown partners value is refused with the param named", () => {
    const r = generateItems({
      complexes: [bju],
      tasks: ["pocket_ligand"],
      perTask: 1,
      seed: "x",
      params: { pocket_ligand: { hbondPartners: "everything" } },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/hbondPartners/);
  });
});
