// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/**
 * The 3D scene names what a participant may point at (every atom's name, every residue's name) and marks the
 * atoms the question names (T8: the bond's protein atom and ligand atom), and nothing that depends on a key.
 */
import { describe, expect, it } from "vitest";
import { generateItems, toStableJson } from "@/lib/generate";
import { Scene3dSchema, type Scene3d } from "@/lib/scene3d";
import { loadComplex, loadTestComplexes } from "./complexes";

const r = generateItems({
  complexes: loadTestComplexes(),
  tasks: ["interaction_location", "pocket_ligand", "residue_ligand"],
  perTask: 4,
  seed: "scene3d-names",
});
if (!r.ok) throw new Error(r.error);
const sceneOf = (fields: unknown) => Scene3dSchema.parse((fields as { scene3d: unknown }).scene3d);

describe("T8: the atoms the question names are marked in the 3D scene", () => {
  const t8 = r.items.filter((i) => i.taskId === "interaction_location");
  it("there are T8 items", () => expect(t8.length).toBeGreaterThanOrEqual(3));

  it.each(t8.map((i) => [i.id, i] as const))("%s", (_id, item) => {
    const scene = sceneOf(item.fields);
    const bond = (
      item.fields as {
        bond: {
          residue: { residueName: string; residueNumber: number; insertionCode: string; chainId: string };
          atomName: string;
          ligandAtomName: string;
        };
      }
    ).bond;
    const res = `${bond.residue.residueName} ${bond.residue.residueNumber}${bond.residue.insertionCode} ${bond.residue.chainId}`;
    expect(scene.named).toEqual([
      { atom: expect.any(Number), text: `${res} ${bond.atomName}` },
      { atom: expect.any(Number), text: bond.ligandAtomName },
    ]);
    const [protein, ligand] = scene.named!;
    // The marked atoms really are those atoms: names, roles and residue agree with the question.
    expect(scene.roles[protein!.atom]).toBe("p");
    expect(scene.atomNames![protein!.atom]).toBe(bond.atomName);
    expect(scene.residueNames![scene.residueIndex[protein!.atom]!]).toBe(res);
    expect(scene.roles[ligand!.atom]).toBe("l");
    expect(scene.atomNames![ligand!.atom]).toBe(bond.ligandAtomName);
    // The question text names both.
    expect(item.question).toContain(bond.atomName);
    expect(item.question).toContain(bond.ligandAtomName);
  });
});

describe("every scene names its atoms and residues", () => {
  it.each(r.items.map((i) => [i.id, i] as const))("%s", (_id, item) => {
    const scene: Scene3d = sceneOf(item.fields);
    expect(scene.atomNames).toHaveLength(scene.elements.length);
    expect(scene.atomNames!.every((n) => n.length > 0)).toBe(true);
    expect(scene.residueNames!.length).toBeGreaterThan(0);
    if (item.taskId !== "interaction_location") expect(scene.named).toBeUndefined();
  });
});

describe("the 3D scene never depends on the answer key", () => {
  it("1bju T9 keyed on amino acids and on every pocket group: different keys, the same scene", () => {
    const bju = loadComplex({ pdbId: "1bju", file: "plip-test-pdb/1bju.pdb" });
    const make = (hbondPartners: "amino-acids" | "all-pocket-groups") => {
      const g = generateItems({
        complexes: [bju],
        tasks: ["pocket_ligand"],
        perTask: 1,
        seed: "key-free",
        params: { pocket_ligand: { hbondPartners } },
      });
      if (!g.ok) throw new Error(g.error);
      return g.items[0]!;
    };
    const amino = make("amino-acids");
    const all = make("all-pocket-groups");
    expect(all.canonicalAnswer).not.toBe(amino.canonicalAnswer);
    expect(toStableJson(sceneOf(all.fields))).toBe(toStableJson(sceneOf(amino.fields)));
  });
});
