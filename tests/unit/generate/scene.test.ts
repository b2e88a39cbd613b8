// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/** What each task's views show, the public picker/scene3d fields, and T4's Pos./Neg. planning. */
import { describe, expect, it } from "vitest";
import { type GeneratedItem, generateItems, requireViewScene } from "@/lib/generate";
import { findResidueOfBond } from "@/lib/generate/complex";
import { listNegativeResidues } from "@/lib/generate/tasks/residue-ligand";
import { classifyResidueLigandItem } from "@/lib/tasks/residue-ligand";
import type { TaskId } from "@/lib/tasks/types";
import { loadTestComplexes } from "./complexes";

const complexes = loadTestComplexes();
const SETTINGS = { widthPx: 256, heightPx: 256 };
/** scene3d stores positions to 0.001 Å: half a unit, plus float noise. */
const ROUNDING_A = 0.0005 + 1e-9;

function generate(tasks: TaskId[], perTask: number, seed = "scene", params?: Partial<Record<TaskId, unknown>>) {
  const result = generateItems({ complexes, tasks, perTask, seed, renderSettings: SETTINGS, params });
  if (!result.ok) throw new Error(result.error);
  return result;
}

function sceneOf(item: GeneratedItem, index: number) {
  const view = item.views[index]!;
  return requireViewScene(item.complexes[view.source]!, view, item.provenance.renderSettings);
}

describe("T4 residue–ligand", () => {
  const { items } = generate(["residue_ligand"], 10);

  it("makes exactly half Pos. and half Neg. items by default", () => {
    const classes = items.map((i) => classifyResidueLigandItem(i.gold as never));
    expect(classes.filter((c) => c === "pos")).toHaveLength(5);
    expect(classes.filter((c) => c === "neg")).toHaveLength(5);
  });

  it("honours another share (20% Pos. of 10 = 2)", () => {
    const other = generate(["residue_ligand"], 10, "share", { residue_ligand: { positiveShare: 0.2 } });
    expect(other.items.filter((i) => classifyResidueLigandItem(i.gold as never) === "pos")).toHaveLength(2);
  });

  it("keys Pos. items with exactly the residue's H-bonds and Neg. items with a nearby unbonded residue", () => {
    for (const item of items) {
      const complex = item.complexes[0]!;
      const ref = item.fields.residue as { residueName: string; residueNumber: number; chainId: string };
      const residue = complex.residues.find(
        (r) =>
          r.ref?.residueNumber === ref.residueNumber &&
          r.ref.chainId === ref.chainId &&
          r.ref.residueName === ref.residueName,
      )!;
      const own = complex.hbonds.filter((b) => findResidueOfBond(complex, b) === residue);
      const gold = item.gold as { kind: string; bonds?: { atomName: string; ligandAtomName: string }[] };
      if (gold.kind === "none") {
        expect(own).toHaveLength(0);
        expect(listNegativeResidues(complex, 4)).toContain(residue);
      } else {
        expect(gold.bonds!.map((b) => `${b.atomName}-${b.ligandAtomName}`).sort()).toEqual(
          own.map((b) => `${b.proteinAtom.name}-${b.ligandAtom.name}`).sort(),
        );
      }
    }
  });

  it("shows only that residue and the ligand, and lists their atom names for picking", () => {
    for (const item of items.slice(0, 4)) {
      const complex = item.complexes[0]!;
      const scene = sceneOf(item, 0);
      const pickers = item.fields.pickers as {
        residues: { residueName: string; residueNumber: number; atoms: string[] }[];
        ligandAtoms: string[];
      };
      expect(pickers.residues).toHaveLength(1);
      expect(pickers.ligandAtoms).toEqual(complex.ligandAtoms.map((a) => a.name));
      const pocket = scene.atoms.filter((a) => a.role === "pocket");
      expect(pocket).toHaveLength(pickers.residues[0]!.atoms.length);
      expect(new Set(pocket.map((a) => a.residueIndex))).toEqual(new Set([0]));
      expect(scene.atoms.filter((a) => a.role === "ligand").map((a) => a.label)).toEqual(pickers.ligandAtoms);
      expect(scene.residueLabels.map((l) => l.text)).toEqual([
        `${pickers.residues[0]!.residueName} ${pickers.residues[0]!.residueNumber}`,
      ]);
    }
  });
});

describe("T7 docking views", () => {
  const [item] = generate(["docking"], 1).items;

  it("shows the pocket alone (1–3), the displaced ligand alone (4–6), then both (7)", () => {
    const complex = item!.complexes[0]!;
    const roles = item!.views.map((_, i) => {
      const atoms = sceneOf(item!, i).atoms;
      return [atoms.filter((a) => a.role === "ligand").length, atoms.filter((a) => a.role === "pocket").length];
    });
    const [l, p] = [complex.ligandAtoms.length, complex.pocketAtoms.length];
    expect(roles).toEqual([
      [0, p],
      [0, p],
      [0, p],
      [l, 0],
      [l, 0],
      [l, 0],
      [l, p],
    ]);
  });

  it("stores image 7 (pocket + displaced ligand) as scene3d, not the docked pose", () => {
    const scene = sceneOf(item!, 6);
    const stored = item!.fields.scene3d as { positions: number[] };
    const expected = scene.atoms.flatMap((a) => a.position);
    expect(stored.positions).toHaveLength(expected.length);
    stored.positions.forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(ROUNDING_A));
  });
});

describe("scene3d of the transformation tasks is the BEFORE state", () => {
  it.each(["translation", "rotation", "zooming"] as const)("%s", (taskId) => {
    const [item] = generate([taskId], 1).items;
    const before = sceneOf(item!, 0).atoms.flatMap((a) => a.position);
    const after = sceneOf(item!, 3).atoms.flatMap((a) => a.position);
    const stored = (item!.fields.scene3d as { positions: number[] }).positions;
    expect(stored.every((v, i) => Math.abs(v - before[i]!) <= ROUNDING_A)).toBe(true);
    expect(stored.every((v, i) => Math.abs(v - after[i]!) <= ROUNDING_A)).toBe(false);
    expect((item!.fields.scene3d as { camera: { fovDeg: number } }).camera.fovDeg).toBe(30);
  });
});

describe("T9 pickers", () => {
  it("list every nameable pocket residue with its heavy atoms, and the chains", () => {
    const item = generate(["pocket_ligand"], 5).items.find((i) => i.pdbId === "1hii")!;
    const complex = item.complexes[0]!;
    const pickers = item.fields.pickers as { residues: { atoms: string[] }[]; ligandAtoms: string[] };
    expect(pickers.residues).toHaveLength(complex.residues.length);
    expect(pickers.residues.reduce((n, r) => n + r.atoms.length, 0)).toBe(complex.pocketAtoms.length);
    expect(item.fields.chainIds).toEqual(["A", "B"]);
    expect(item.question).toContain("belong to chains A and B");
  });
});
