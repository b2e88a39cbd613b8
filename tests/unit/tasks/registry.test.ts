import { describe, expect, it } from "vitest";
import { AXES_CONVENTION, ROTATION_CONVENTION } from "@/lib/tasks/conventions";
import { TASKS, TASK_IDS, findTask, getTask, listTasks, parseTaskId } from "@/lib/tasks/registry";
import { SAMPLES } from "./samples";
import { combineChance, keyAnswerSpace, SPEC_ORIGIN } from "@/lib/tasks/chance";

describe("task registry", () => {
  it("holds nine tasks in T1..T9 order with unique ids and codes", () => {
    const tasks = listTasks();
    expect(tasks).toHaveLength(9);
    expect(tasks.map((t) => t.code)).toEqual(["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9"]);
    expect(tasks.map((t) => t.id)).toEqual([...TASK_IDS]);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(9);
    expect(new Set(tasks.map((t) => t.code)).size).toBe(9);
    for (const id of TASK_IDS) expect(TASKS[id].id).toBe(id);
  });

  it("declares kind and format as in spec §3", () => {
    const shape = listTasks().map((t) => `${t.code}:${t.kind}:${t.format}`);
    expect(shape).toEqual([
      "T1:unit:cloze",
      "T2:unit:cloze",
      "T3:unit:cloze",
      "T4:unit:cloze",
      "T5:composite:mc",
      "T6:composite:mc",
      "T7:composite:cloze",
      "T8:composite:mc",
      "T9:composite:cloze",
    ]);
  });

  it("states the spec §4 chance levels for items from the spec's range (lib/tasks/chance.ts)", () => {
    const chance = Object.fromEntries(
      listTasks().map((t) => [t.code, combineChance([keyAnswerSpace(t.id, SPEC_ORIGIN)]).exact]),
    );
    expect(chance).toEqual({
      T1: 1 / 9,
      T2: 1 / 13,
      T3: 1 / 21,
      T4: null,
      T5: 0.25,
      T6: 0.25,
      T7: null,
      T8: 0.25,
      T9: null,
    });
  });

  it("finds tasks by id and rejects unknown ids clearly", () => {
    expect(getTask("docking").code).toBe("T7");
    expect(findTask("pocket_ligand")?.code).toBe("T9");
    expect(findTask("hbond")).toBeUndefined();
    expect(findTask(undefined)).toBeUndefined();
    expect(() => getTask("Translation")).toThrow(
      "unknown task id 'Translation': expected one of translation, rotation, zooming",
    );
    expect(() => getTask(7)).toThrow("unknown task id a number");
    expect(parseTaskId("zooming")).toEqual({ ok: true, id: "zooming" });
    expect(parseTaskId(null)).toMatchObject({ ok: false, error: expect.stringContaining("a null") });
  });
});

describe.each(TASK_IDS.map((id) => [id]))("task %s contract", (id) => {
  const task = getTask(id);
  const sample = SAMPLES[id];

  it("has a positive integer version, label, instructions with conventions and an example", () => {
    expect(Number.isInteger(task.version) && task.version >= 1).toBe(true);
    expect(task.label.length).toBeGreaterThan(3);
    expect(task.instructions).toContain(AXES_CONVENTION);
    expect(task.instructions).toMatch(/Example/);
    if (["rotation", "translation_rotation", "rotation_rotation", "docking"].includes(id))
      expect(task.instructions).toContain(ROTATION_CONVENTION);
  });

  it("renders its question template with every placeholder filled", () => {
    const text = task.renderStoredQuestion(sample.fields);
    expect(text.ok).toBe(true);
    if (!text.ok) return;
    expect(text.text).not.toMatch(/\{[A-Za-z]+\}/);
    expect(task.questionTemplate).toMatch(/\{[A-Za-z]+\}/);
    const fields = sample.fields as Record<string, unknown>;
    const pdbId = (fields.pdbId ?? fields.referencePdbId) as string;
    expect(text.text).toContain(pdbId);
  });

  it("rejects invalid stored fields with a message naming the task", () => {
    const result = task.renderStoredQuestion({ pdbId: "not-a-pdb-id" });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining(`task ${id} v${task.version}`) });
  });

  it("accepts its sample item and scores the correct answer exact 1, partial 1", () => {
    expect(task.itemSchema.safeParse({ fields: sample.fields, gold: sample.gold }).success).toBe(true);
    const graded = task.gradeText(sample.correctText, sample.gold);
    expect(graded).toMatchObject({ ok: true, score: { exact: 1, partial: 1 } });
    const canonicalGold = task.canonicalizeGold(task.goldSchema.parse(sample.gold) as never);
    expect(task.gradeText(canonicalGold, sample.gold)).toMatchObject({
      ok: true,
      canonical: canonicalGold,
      score: { exact: 1, partial: 1 },
    });
  });

  it("scores a wrong answer below exact and keeps partial in [0, 1)", () => {
    const graded = task.gradeText(sample.wrongText, sample.gold);
    expect(graded.ok).toBe(true);
    if (!graded.ok) return;
    expect(graded.score.exact).toBe(0);
    expect(graded.score.partial).toBeGreaterThanOrEqual(0);
    expect(graded.score.partial).toBeLessThan(1);
  });

  it("round-trips parsed answers through canonical text and stored JSON", () => {
    for (const text of [sample.correctText, sample.wrongText]) {
      const parsed = task.parseAnswer(text);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      const again = task.parseAnswer(parsed.canonical);
      expect(again).toEqual(parsed);
      const stored = JSON.parse(JSON.stringify(parsed.value)) as unknown;
      expect(task.answerSchema.parse(stored)).toEqual(parsed.value);
      expect(task.canonicalize(task.answerSchema.parse(stored) as never)).toBe(parsed.canonical);
    }
  });

  it("reports bad stored gold, bad params and empty answers without throwing", () => {
    expect(task.gradeText(sample.correctText, { nonsense: true })).toMatchObject({ ok: false, stage: "gold" });
    expect(task.gradeText(sample.correctText, sample.gold, "fast")).toMatchObject({ ok: false, stage: "params" });
    expect(task.gradeText("   ", sample.gold)).toMatchObject({
      ok: false,
      stage: "answer",
      error: expect.stringMatching(/empty/),
    });
  });

  it("has default params that validate", () => {
    expect(task.params.parse({})).toEqual(task.defaultParams);
  });
});
