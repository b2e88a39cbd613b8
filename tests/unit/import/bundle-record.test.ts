import { describe, expect, it } from "vitest";
import { planBundleItem, readBundleManifest, type LocatedAnswer } from "@/lib/import/bundle-record";
import { TASKS } from "@/lib/tasks/registry";

const question = (() => {
  const r = TASKS.translation.renderStoredQuestion({ pdbId: "1acj" });
  if (!r.ok) throw new Error(r.error);
  return r.text;
})();

const item = {
  id: "t-1",
  task: "translation",
  taskVersion: TASKS.translation.version,
  question,
  fields: { pdbId: "1acj" },
  images: [{ file: "images/a1.png", caption: "Image 1" }],
  provenance: { generator: "g", generatorVersion: "1.2.0", seed: "s1", renderSettings: { widthPx: 512 } },
};

function plan(json: unknown, answer: LocatedAnswer["answer"] | undefined, root = "") {
  return planBundleItem(json, {
    root,
    file: "items.jsonl",
    line: 3,
    answersFile: "answers.jsonl",
    findAnswer: (id) => (answer && answer.id === id ? { answer, line: 8 } : undefined),
  });
}

describe("bundle items", () => {
  it("maps a valid item with its answer, provenance and image paths under the bundle root", () => {
    const r = plan(item, { id: "t-1", answer: "move x 3", gold: { axis: "x", distanceA: 3 } }, "bundle-2025");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    expect(r.plan).toMatchObject({
      source: "bundle",
      externalId: "t-1",
      canonical: "move x 3",
      generatorVersion: "1.2.0",
      seed: "s1",
      renderSettings: { widthPx: 512 },
      images: [{ caption: "Image 1", ref: { kind: "path", path: "bundle-2025/images/a1.png" } }],
    });
  });

  it("skips an item made for another task version", () => {
    const r = plan({ ...item, taskVersion: 99 }, { id: "t-1", answer: "move x 3", gold: { axis: "x", distanceA: 3 } });
    expect(r).toEqual({
      ok: false,
      skips: [
        {
          file: "items.jsonl",
          line: 3,
          field: "taskVersion",
          problem: `item was made for translation v99; this app implements v${TASKS.translation.version}`,
        },
      ],
    });
  });

  it("points at answers.jsonl when the gold or the answer text is wrong", () => {
    const badGold = plan(item, { id: "t-1", answer: "move x 3", gold: { axis: "x", distanceA: 30 } });
    expect(!badGold.ok && badGold.skips[0]).toMatchObject({ file: "answers.jsonl", line: 8, field: "gold" });
    const disagree = plan(item, { id: "t-1", answer: "move x 2", gold: { axis: "x", distanceA: 3 } });
    expect(!disagree.ok && disagree.skips[0]).toEqual({
      file: "answers.jsonl",
      line: 8,
      field: "answer",
      problem: "'move x 2' disagrees with the gold, whose canonical answer is 'move x 3'",
    });
  });

  it("reports a missing answer, schema problems by field, and a question that is not the template's", () => {
    expect(plan(item, undefined)).toEqual({
      ok: false,
      skips: [{ file: "items.jsonl", line: 3, field: "id", problem: "no answer for 't-1' in answers.jsonl" }],
    });
    const noImages = plan({ ...item, images: [] }, undefined);
    expect(!noImages.ok && noImages.skips.map((s) => s.field)).toEqual(["images"]);
    const badPath = plan({ ...item, images: [{ file: "../etc/passwd", caption: "x" }] }, undefined);
    expect(!badPath.ok && badPath.skips[0]).toMatchObject({
      field: "images.0.file",
      problem: "must be images/<name>.png|svg|jpg",
    });
    const edited = plan(
      { ...item, question: "Edited text" },
      { id: "t-1", answer: "move x 3", gold: { axis: "x", distanceA: 3 } },
    );
    expect(edited.ok && edited.warnings).toEqual([
      {
        file: "items.jsonl",
        line: 3,
        field: "question",
        problem: "differs from the translation template filled with the item's fields; the bundle's text is kept",
      },
    ]);
  });

  it("accepts only this app's manifest format", () => {
    expect(
      readBundleManifest("manifest.json", '{"format":"misi-baseline-bundle","formatVersion":1,"counts":{}}').ok,
    ).toBe(true);
    const wrong = readBundleManifest("manifest.json", '{"format":"other","formatVersion":1,"counts":{}}');
    expect(!wrong.ok && wrong.errors[0]).toMatchObject({ file: "manifest.json", line: 0, field: "format" });
    const broken = readBundleManifest("manifest.json", "{");
    expect(!broken.ok && broken.errors[0]?.problem).toMatch(/^not valid JSON/);
  });
});
