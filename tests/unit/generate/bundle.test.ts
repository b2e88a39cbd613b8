// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/**
 * Generated items as bundle records: valid for lib/bundle/format.ts, accepted by the bundle importer's
 * planner, and the public record never carries the answer.
 */
import { describe, expect, it } from "vitest";
import { BundleAnswerSchema, BundleItemSchema, BundleManifestSchema } from "@/lib/bundle/format";
import { createBundleManifest, toBundleAnswer, toBundleItem, toJsonLines } from "@/lib/generate/bundle";
import { generateItems, renderItemImages, toStableJson } from "@/lib/generate";
import { planBundleItem } from "@/lib/import/bundle-record";
import { TASK_IDS } from "@/lib/tasks/types";
import { loadTestComplexes } from "./complexes";

const complexes = loadTestComplexes();
const run = () => {
  const result = generateItems({
    complexes,
    tasks: TASK_IDS,
    perTask: 2,
    seed: "bundle",
    renderSettings: { widthPx: 64, heightPx: 64 },
  });
  if (!result.ok) throw new Error(result.error);
  return result;
};
const { items } = run();
const imageNames = (item: (typeof items)[number]) =>
  item.views.map((v, i) => ({ file: `images/${item.id}-${i}.svg`, caption: v.caption }));

describe("bundle records", () => {
  it("validate against the bundle schemas and the importer's planner", () => {
    for (const item of items) {
      const record = JSON.parse(toStableJson(toBundleItem(item, imageNames(item))));
      const answer = JSON.parse(toStableJson(toBundleAnswer(item)));
      expect(BundleItemSchema.safeParse(record).success).toBe(true);
      expect(BundleAnswerSchema.safeParse(answer).success).toBe(true);
      const plan = planBundleItem(record, {
        root: "",
        file: "items.jsonl",
        line: 1,
        answersFile: "answers.jsonl",
        findAnswer: () => ({ answer: BundleAnswerSchema.parse(answer), line: 1 }),
      });
      expect(plan.ok ? plan.warnings : plan.skips).toEqual([]);
      // The importer keeps the optional public fields (scene3d, pickers) that the participant UI reads.
      if (plan.ok) expect(Object.keys(plan.plan.payload).sort()).toEqual(Object.keys(item.fields).sort());
    }
    expect(BundleManifestSchema.safeParse(createBundleManifest({ seed: "bundle" }, items)).success).toBe(true);
  });

  it("keep the answer out of the public record (cloze tasks: the canonical answer text; all: the view commands)", () => {
    for (const item of items) {
      // The question is the task's fixed template (its example answer may equal a gold by chance).
      const { question: _question, ...record } = toBundleItem(item, imageNames(item));
      const publicText = toStableJson(record);
      expect(publicText).not.toContain("modelCommands");
      expect(publicText).not.toContain("ligandCommands");
      if (
        !["translation_rotation", "rotation_rotation", "interaction_location"].includes(item.taskId) &&
        item.canonicalAnswer !== "No"
      ) {
        expect(publicText).not.toContain(item.canonicalAnswer);
      }
    }
  });

  it("serialise to the same bytes for the same seed (sorted keys, one record per line)", () => {
    const again = run().items;
    expect(toJsonLines(again.map((i) => toBundleItem(i, imageNames(i))))).toBe(
      toJsonLines(items.map((i) => toBundleItem(i, imageNames(i)))),
    );
    expect(toJsonLines([{ b: 1, a: { d: [1, { f: 0, e: -0 }], c: "x" } }])).toBe(
      '{"a":{"c":"x","d":[1,{"e":0,"f":0}]},"b":1}\n',
    );
  });

  it("render to byte-identical, opaquely named images", () => {
    const item = items.find((i) => i.taskId === "translation")!;
    const first = renderItemImages(item, "png");
    const second = renderItemImages(item, "png");
    expect(first.map((i) => i.file)).toEqual(second.map((i) => i.file));
    expect(first.every((img, k) => Buffer.from(img.bytes).equals(Buffer.from(second[k]!.bytes)))).toBe(true);
    for (const img of first) expect(img.file).toMatch(/^images\/[0-9a-f]{16}\.png$/);
    expect(first.map((i) => i.caption)).toEqual(item.views.map((v) => v.caption));
  });
});
