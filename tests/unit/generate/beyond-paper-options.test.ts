/**
 * Generator options beyond the paper, off by default: T4 hard negatives and T5/T6 balanced distractors. Each is
 * recorded in the item's provenance; hard negatives satisfy their definition on real structures; balanced option sets
 * are 2 × 2 products of exchangeable partners.
 */
import { describe, expect, it } from "vitest";
import { type GeneratedItem, generateItems } from "@/lib/generate";
import { buildSymmetricMoveSet, drawExchangeablePartner } from "@/lib/generate/distractors";
import type { ViewCommand } from "@/lib/molecule/geometry/commands";
import { createRng } from "@/lib/rng";
import { auditShortcuts } from "@/lib/shortcuts/audit";
import { toShortcutItem } from "@/lib/shortcuts/from-generated";
import { describeWithShared } from "../../helpers/shared-data";
import { loadTestComplexes } from "./complexes";

const POLAR = new Set(["N", "O"]);

function generate(
  tasks: ("residue_ligand" | "translation_rotation" | "rotation_rotation" | "interaction_location")[],
  perTask: number,
  params?: Record<string, unknown>,
): GeneratedItem[] {
  const r = generateItems({
    complexes: loadTestComplexes(),
    tasks,
    perTask,
    seed: "beyond-paper",
    renderSettings: { widthPx: 64, heightPx: 64 },
    ...(params ? { params } : {}),
  });
  if (!r.ok) throw new Error(r.error);
  return r.items;
}

describeWithShared("provenance records the options", () => {
  it("default recipe: no option in force, and the params show the paper's values", () => {
    for (const item of generate(["residue_ligand", "translation_rotation", "rotation_rotation"], 4)) {
      expect(item.provenance.options).toEqual([]);
      expect(item.provenance.generatorVersion).toMatch(/^\d+$/);
      expect(item.provenance.seed).toContain("beyond-paper/");
      if (item.taskId === "residue_ligand") expect(item.provenance.params.negatives).toBe("contact");
      else expect(item.provenance.params.distractors).toBe("paper");
    }
  });
  it("hard negatives and balanced distractors are named in every item's provenance", () => {
    const items = generate(["residue_ligand", "translation_rotation", "rotation_rotation"], 4, {
      residue_ligand: { negatives: "hard" },
      translation_rotation: { distractors: "balanced" },
      rotation_rotation: { distractors: "balanced" },
    });
    expect(items.length).toBe(12);
    for (const item of items) {
      expect(item.provenance.options).toEqual(
        item.taskId === "residue_ligand" ? ["hard-negatives"] : ["balanced-distractors"],
      );
    }
  });
  it("an unknown option value is refused with the param's name", () => {
    const r = generateItems({
      complexes: loadTestComplexes(),
      tasks: ["residue_ligand"],
      perTask: 1,
      seed: "x",
      params: { residue_ligand: { negatives: "harder" } },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/residue_ligand[\s\S]*negatives/);
  });
});

describeWithShared("T4 hard negatives on real structures", () => {
  const items = () => generate(["residue_ligand"], 40, { residue_ligand: { negatives: "hard", positiveShare: 0 } });
  it("every Neg. residue touches the ligand, has a polar atom within 4 Å of a polar ligand atom, and forms no H-bond", () => {
    const negs = items().filter((i) => (i.gold as { kind: string }).kind === "none");
    expect(negs.length).toBeGreaterThan(5);
    for (const item of negs) {
      const complex = item.complexes[0]!;
      const residue = complex.residues.find((r) => r.id === item.views[0]!.residueId)!;
      const atoms = residue.atomIndices.map((i) => complex.pocketAtoms[i]!);
      const d = (a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }) =>
        Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
      const closestPolar = Math.min(
        ...atoms
          .filter((a) => POLAR.has(a.element))
          .flatMap((a) => complex.ligandAtoms.filter((l) => POLAR.has(l.element)).map((l) => d(a, l))),
      );
      expect(closestPolar, `${item.id} ${residue.id}`).toBeLessThanOrEqual(4);
      // No H-bond of any kind between this residue and the ligand (the full list, before the key's partner filter).
      const bonded = complex.hbonds.some(
        (b) =>
          b.proteinAtom.chain === residue.key.chain &&
          b.proteinAtom.resSeq === residue.key.resSeq &&
          b.proteinAtom.iCode === residue.key.iCode &&
          b.proteinAtom.resName === residue.key.resName,
      );
      expect(bonded, `${item.id} ${residue.id}`).toBe(false);
    }
  });
  it("the default (contact) negatives include residues without any polar pair within 4 Å; hard ones never", () => {
    const closest = (item: GeneratedItem) => {
      const complex = item.complexes[0]!;
      const residue = complex.residues.find((r) => r.id === item.views[0]!.residueId)!;
      const polar = residue.atomIndices.map((i) => complex.pocketAtoms[i]!).filter((a) => POLAR.has(a.element));
      return Math.min(
        Infinity,
        ...polar.flatMap((a) =>
          complex.ligandAtoms
            .filter((l) => POLAR.has(l.element))
            .map((l) => Math.hypot(a.x - l.x, a.y - l.y, a.z - l.z)),
        ),
      );
    };
    const contact = generate(["residue_ligand"], 40, { residue_ligand: { positiveShare: 0 } });
    expect(contact.some((i) => closest(i) > 4)).toBe(true);
    expect(items().every((i) => closest(i) <= 4)).toBe(true);
  });
});

describe("balanced distractors", () => {
  it("a partner is exchangeable with its truth: P(truth a, partner b) = P(truth b, partner a) while the truth stays uniform", () => {
    const magnitudes = [15, 30, 45, 60, 75, 90];
    const rng = createRng("exchangeable");
    const pairs = new Map<string, number>();
    const N = 60_000;
    for (let i = 0; i < N; i++) {
      const truth: ViewCommand = { kind: "roll", axis: "x", value: rng.pick(magnitudes) * (rng.next() < 0.5 ? -1 : 1) };
      const p = drawExchangeablePartner(rng, truth, { magnitudes, minChange: 30, kinds: ["sign", "magnitude"] });
      const key = `${truth.value}>${p.command.value}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    for (const [key, n] of pairs) {
      const [a, b] = key.split(">");
      const reverse = pairs.get(`${b}>${a}`) ?? 0;
      // Binomial noise on ~N/60 counts: 5 standard deviations.
      expect(Math.abs(n - reverse), key).toBeLessThan(5 * Math.sqrt(n + reverse));
    }
  });
  describeWithShared("on generated items", () => {
    it("T5 and T6 options are 2 × 2 products: every command value appears in exactly two options", () => {
      const items = generate(["translation_rotation", "rotation_rotation"], 24, {
        translation_rotation: { distractors: "balanced" },
        rotation_rotation: { distractors: "balanced" },
      });
      expect(items.length).toBe(48);
      for (const item of items) {
        const options = (item.gold as { options: string[] }).options.map((o) => o.split(",").map((c) => c.trim()));
        for (const slot of [0, 1]) {
          const values = options.map((o) => o[slot]);
          for (const v of values)
            expect(values.filter((w) => w === v).length, `${item.id}: ${values.join(" | ")}`).toBe(2);
        }
        expect(new Set(options.map((o) => o.join(", "))).size).toBe(4);
      }
    });
    it("no option-text or option-pose strategy beats chance by 5 points over 400 items; the paper's recipe leaks (the audit can fail)", () => {
      const audit = (params?: Record<string, unknown>) => {
        const items = generate(["translation_rotation", "rotation_rotation"], 400, params);
        return auditShortcuts(items.map(toShortcutItem));
      };
      const balanced = audit({
        translation_rotation: { distractors: "balanced" },
        rotation_rotation: { distractors: "balanced" },
      });
      expect(balanced.map((a) => a.items)).toEqual([400, 400]);
      for (const a of balanced) {
        expect(a.strategies.some((s) => s.needs === "option-pose")).toBe(true);
        for (const s of a.strategies) expect(s.exact, `${a.taskId} ${s.id}`).toBeLessThan(0.3);
      }
      for (const a of audit()) expect(a.best!.exact, a.taskId).toBeGreaterThan(0.6);
    });
    it("T8 balanced: the options are a 2 × 2 product and the key's move brings the named bond's midpoint to the centre", () => {
      const items = generate(["interaction_location"], 24, { interaction_location: { distractors: "balanced" } });
      expect(items.length).toBe(24);
      for (const item of items) {
        expect(item.provenance.options).toEqual(["balanced-distractors"]);
        const gold = item.gold as { letter: string; options: string[] };
        const moves = gold.options.map((o) => o.split(",").map((c) => Number(c.trim().split(" ")[2])));
        for (const slot of [0, 1])
          for (const m of moves)
            expect(moves.filter((w) => w[slot] === m[slot]).length, `${item.id}: ${gold.options.join(" | ")}`).toBe(2);
        const bond = item.fields.bond as {
          residue: { residueNumber: number; chainId: string };
          atomName: string;
          ligandAtomName: string;
        };
        const complex = item.complexes[0]!;
        const p = complex.pocketAtoms.find(
          (a) =>
            a.name === bond.atomName && a.resSeq === bond.residue.residueNumber && a.chain === bond.residue.chainId,
        )!;
        const l = complex.ligandAtoms.find((a) => a.name === bond.ligandAtomName)!;
        const centre = item.views[0]!.viewCentre;
        const key = moves["ABCD".indexOf(gold.letter)]!;
        expect(Math.abs((p.x + l.x) / 2 - centre[0] + key[0]!)).toBeLessThan(1e-9);
        expect(Math.abs((p.y + l.y) / 2 - centre[1] + key[1]!)).toBeLessThan(1e-9);
      }
    });
  });
  it("T8 balanced set: the key is one corner of {ax, ax'} × {ay, ay'}, the three distractors the others", () => {
    const rng = createRng("move-set");
    const spec = { minDeltaA: 2, maxDeltaA: 6, minSeparationA: 2, truthSpreadA: 3.5, maxOptionA: 40 };
    for (let i = 0; i < 200; i++) {
      const { truth, distractors } = buildSymmetricMoveSet(rng, spec);
      const all = [truth, ...distractors.map((d) => d.move)];
      expect(new Set(all.map((m) => m.join(","))).size).toBe(4);
      for (const slot of [0, 1]) for (const m of all) expect(all.filter((w) => w[slot] === m[slot]).length).toBe(2);
      expect(distractors.map((d) => [d.move[0] === truth[0], d.move[1] === truth[1]])).toEqual([
        [false, true],
        [true, false],
        [false, false],
      ]);
    }
  });
});
