// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/**
 * Every task's generated items: deterministic, valid for the task's schemas, gold scores 1, its
 * canonical text round-trips through the grammar, distractors score 0, and nothing in the public
 * part names the answer.
 */
import { describe, expect, it } from "vitest";
import { toBundleAnswer, toBundleItem } from "@/lib/generate/bundle";
import { GENERATOR_VERSION, type GeneratedItem, generateItems, toStableJson } from "@/lib/generate";
import { Scene3dSchema } from "@/lib/scene3d";
import { getTask } from "@/lib/tasks/registry";
import { MC_LETTERS, TASK_IDS, type TaskId } from "@/lib/tasks/types";
import { loadTestComplexes } from "./complexes";

const complexes = loadTestComplexes();
const PER_TASK = 4;
const SETTINGS = { widthPx: 256, heightPx: 256 };

function run(seed: string, tasks: readonly TaskId[] = TASK_IDS, perTask = PER_TASK) {
  const result = generateItems({ complexes, tasks, perTask, seed, renderSettings: SETTINGS });
  if (!result.ok) throw new Error(result.error);
  return result;
}

/** What a bundle would store for an item (public record + private record). */
function serialise(items: readonly GeneratedItem[]): string {
  return items.map((item) => toStableJson([toBundleItem(item, []), toBundleAnswer(item)])).join("\n");
}

const first = run("contract");
const again = run("contract");
const other = run("contract-2");

/** Images per item, spec §3. */
const IMAGE_COUNTS: Record<TaskId, number> = {
  translation: 4,
  rotation: 4,
  zooming: 4,
  residue_ligand: 6,
  translation_rotation: 11,
  rotation_rotation: 8,
  docking: 7,
  interaction_location: 6,
  pocket_ligand: 6,
};
const WITH_SCENE3D: ReadonlySet<TaskId> = new Set([
  "translation",
  "rotation",
  "zooming",
  "residue_ligand",
  "docking",
  "interaction_location",
  "pocket_ligand",
]);

describe.each(TASK_IDS)("generated %s items", (taskId) => {
  const task = getTask(taskId);
  const items = first.items.filter((i) => i.taskId === taskId);
  const report = first.reports.find((r) => r.taskId === taskId)!;

  it(`makes ${PER_TASK} items without failures`, () => {
    expect(report.failures).toEqual([]);
    expect(items).toHaveLength(PER_TASK);
  });

  it("is deterministic for a seed and changes with the seed", () => {
    const same = again.items.filter((i) => i.taskId === taskId);
    const different = other.items.filter((i) => i.taskId === taskId);
    expect(serialise(same)).toBe(serialise(items));
    expect(serialise(different)).not.toBe(serialise(items));
  });

  it("validates against the task's item schema and fills the question template", () => {
    for (const item of items) {
      const parsed = task.itemSchema.safeParse({ fields: item.fields, gold: item.gold });
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(item.question).toBe(
        task.renderStoredQuestion(item.fields).ok && (task.renderStoredQuestion(item.fields) as { text: string }).text,
      );
      expect(item.taskVersion).toBe(task.version);
    }
  });

  it("scores its own gold exactly 1, and the canonical gold text round-trips through the grammar", () => {
    for (const item of items) {
      // The registry's union of task types cannot call a member with its own gold type; erase it.
      const erased = task as unknown as {
        score(a: unknown, g: unknown): unknown;
        toCorrectAnswer(g: unknown): unknown;
      };
      expect(erased.score(erased.toCorrectAnswer(item.gold), item.gold)).toEqual({ exact: 1, partial: 1 });
      const graded = task.gradeText(item.canonicalAnswer, item.gold);
      expect(graded).toEqual({ ok: true, canonical: item.canonicalAnswer, score: { exact: 1, partial: 1 } });
    }
  });

  it("shows the spec's number of images, with captions that carry no values", () => {
    for (const item of items) {
      expect(item.views).toHaveLength(IMAGE_COUNTS[taskId]);
      item.views.forEach((v, i) => {
        expect(v.caption.startsWith(`Image ${i + 1}: `)).toBe(true);
        expect(v.caption.slice(`Image ${i + 1}: `.length)).toMatch(/^[a-zA-Z ,]+$/);
      });
    }
  });

  it(
    WITH_SCENE3D.has(taskId)
      ? "carries a valid scene3d of its first view"
      : "carries no scene3d (the options are the question)",
    () => {
      for (const item of items) {
        if (!WITH_SCENE3D.has(taskId)) {
          expect(item.fields.scene3d).toBeUndefined();
          continue;
        }
        expect(Scene3dSchema.safeParse(item.fields.scene3d).success).toBe(true);
      }
    },
  );

  it("records provenance: generator version, per-item seed, render settings, structure hash", () => {
    items.forEach((item) => {
      const p = item.provenance;
      expect(p.generatorVersion).toBe(GENERATOR_VERSION);
      expect(p.seed).toBe(`contract/${taskId}/${p.index}`);
      expect(p.renderSettings.widthPx).toBe(256);
      expect(p.renderSettingsVersion).toBe(p.renderSettings.version);
      expect(p.structure.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(p.structure.pdbId).toBe(item.pdbId);
    });
  });
});

describe.each(["translation_rotation", "rotation_rotation", "interaction_location"] as const)(
  "%s options",
  (taskId) => {
    const task = getTask(taskId);
    const items = first.items.filter((i) => i.taskId === taskId);

    it("has four distinct options; every distractor scores 0 and the truth 1", () => {
      for (const item of items) {
        const gold = item.gold as { letter: (typeof MC_LETTERS)[number]; options: string[] };
        expect(new Set(gold.options).size).toBe(4);
        for (const letter of MC_LETTERS) {
          const score = task.score({ letter }, gold as never);
          expect(score.exact).toBe(letter === gold.letter ? 1 : 0);
        }
        const schemes = item.distractors!.map((d) => d.scheme);
        expect(schemes.filter((s) => s === "truth")).toHaveLength(1);
        expect(item.distractors!.find((d) => d.scheme === "truth")!.letter).toBe(gold.letter);
        expect(item.distractors!.map((d) => d.option)).toEqual(gold.options);
      }
    });
  },
);

describe("planning", () => {
  it("balances the right letter of MC items: 8 items use each letter twice", () => {
    const result = run("letters", ["translation_rotation", "rotation_rotation", "interaction_location"], 8);
    for (const taskId of ["translation_rotation", "rotation_rotation", "interaction_location"]) {
      const letters = result.items.filter((i) => i.taskId === taskId).map((i) => (i.gold as { letter: string }).letter);
      expect(letters.sort()).toEqual(["A", "A", "B", "B", "C", "C", "D", "D"]);
    }
  });

  it("never asks about the same residue (T4) or bond (T8) twice", () => {
    const result = run("distinct", ["residue_ligand", "interaction_location"], 30);
    const t4 = result.items
      .filter((i) => i.taskId === "residue_ligand")
      .map((i) => `${i.pdbId} ${JSON.stringify(i.fields.residue)}`);
    const t8 = result.items
      .filter((i) => i.taskId === "interaction_location")
      .map((i) => `${i.pdbId} ${JSON.stringify(i.fields.bond)}`);
    expect(t4).toHaveLength(30);
    expect(new Set(t4).size).toBe(30);
    expect(new Set(t8).size).toBe(t8.length);
    for (const r of result.reports) expect(r.failures).toEqual([]);
  });
});

describe("task-specific content", () => {
  it("T5 uses two different complexes", () => {
    for (const item of first.items.filter((i) => i.taskId === "translation_rotation")) {
      const f = item.fields as { referencePdbId: string; targetPdbId: string };
      expect(f.referencePdbId).not.toBe(f.targetPdbId);
      expect(item.complexes.map((c) => c.pdbId)).toEqual([f.referencePdbId, f.targetPdbId]);
    }
  });

  it("T8 shows its options to participants exactly as keyed", () => {
    for (const item of first.items.filter((i) => i.taskId === "interaction_location")) {
      expect(item.fields.options).toEqual((item.gold as { options: string[] }).options);
    }
  });

  it("T9 uses only complexes with H-bonds and lists every one of them", () => {
    const report = first.reports.find((r) => r.taskId === "pocket_ligand")!;
    expect(report.ineligible.map((x) => x.file)).toEqual(["plip-test-pdb/1acj.pdb"]);
    for (const item of first.items.filter((i) => i.taskId === "pocket_ligand")) {
      const complex = item.complexes[0]!;
      const gold = item.gold as { kind: string; bonds: unknown[] };
      expect(gold.kind).toBe("bonds");
      const distinct = new Set(
        complex.hbonds.map(
          (b) => `${b.proteinAtom.chain}${b.proteinAtom.resSeq}${b.proteinAtom.name}-${b.ligandAtom.name}`,
        ),
      );
      expect(item.canonicalAnswer.split("; ")).toHaveLength(distinct.size);
    }
  });

  it("T9 never repeats an item: a complex gives one T9 item, so 5 eligible complexes give at most 5", () => {
    const result = run("repeat", ["pocket_ligand"], 8);
    expect(new Set(result.items.map((i) => i.pdbId)).size).toBe(5);
    expect(result.items).toHaveLength(5);
    expect(result.reports[0]!.notes).toContain(
      "one item per complex: 5 eligible complexes give 5 of the 8 items asked for",
    );
  });

  it("redraws an item that repeats an earlier one, and reports it when no redraw helps", () => {
    // T1 on one complex with one axis and two distances has exactly 2 distinct items.
    const one = generateItems({
      complexes: [complexes[0]!],
      tasks: ["translation"],
      perTask: 3,
      seed: "dup",
      renderSettings: SETTINGS,
      params: { translation: { axes: ["x"], minDistanceA: 3, maxDistanceA: 4 } },
    });
    if (!one.ok) throw new Error(one.error);
    expect(one.items.map((i) => i.canonicalAnswer).sort()).toEqual(["move x 3", "move x 4"]);
    expect(one.reports[0]!.failures).toHaveLength(1);
    expect(one.reports[0]!.failures[0]!.reason).toMatch(/every redraw repeated an earlier item/);
  });

  it("refuses invalid generator params with the task and the field", () => {
    const bad = generateItems({
      complexes,
      tasks: ["residue_ligand"],
      perTask: 1,
      seed: "x",
      params: { residue_ligand: { positiveShare: 2 } },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/residue_ligand[\s\S]*positiveShare/);
  });
});
