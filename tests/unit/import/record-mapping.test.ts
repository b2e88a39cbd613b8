import { describe, expect, it } from "vitest";
import { mapFieldNames } from "@/lib/import/field-aliases";
import { inferSplitFromPath, planMisiRecord } from "@/lib/import/misi-record";
import { planVlmevalkitRow, readVlmevalkitHeader } from "@/lib/import/vlmevalkit-row";
import { PNG_BASE64, T8_OPTIONS } from "../../fixtures/import/build-fixtures";

describe("MiSI release records", () => {
  const ctx = (record: Record<string, unknown>, extra: Partial<Parameters<typeof planMisiRecord>[1]> = {}) =>
    planMisiRecord(record, {
      file: "rel/T1_translation/data.jsonl",
      line: 4,
      mapping: mapFieldNames(Object.keys(record)),
      taskFromPath: "translation",
      splitFromPath: null,
      ...extra,
    });

  it("maps odd keys, qualifies the id with the task, and keeps unmapped values in provenance", () => {
    const r = ctx({
      Question_ID: 9,
      Prompt: "Which?",
      GT: "move y 2",
      Image_Paths: ["a.png", "b.png"],
      PDB_ID: "1ACJ",
      Difficulty: "hard",
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan).toMatchObject({
      source: "misi_release",
      externalId: "translation:9",
      taskId: "translation",
      split: "test",
      question: "Which?",
      payload: { pdbId: "1acj" },
      gold: { axis: "y", distanceA: 2 },
      canonical: "move y 2",
      status: "active",
      images: [
        { caption: "Image 1", ref: { kind: "path", path: "a.png" } },
        { caption: "Image 2", ref: { kind: "path", path: "b.png" } },
      ],
      provenance: {
        importedFrom: "misi_release",
        file: "rel/T1_translation/data.jsonl",
        line: 4,
        id: "9",
        unmappedFields: { Difficulty: "hard" },
      },
    });
    expect(r.warnings).toEqual([]);
  });

  it("prefers the record's task field over the path", () => {
    const r = ctx({ id: 1, task: "Rotation", question: "q", answer: "roll x 15", image: "a.png" });
    expect(r.ok && r.plan.taskId).toBe("rotation");
  });

  it("skips with located reasons: bad answer, missing question, unknown task", () => {
    expect(ctx({ id: 1, question: "q", answer: "move q 3", image: "a.png" })).toEqual({
      ok: false,
      skips: [
        {
          file: "rel/T1_translation/data.jsonl",
          line: 4,
          field: "answer",
          problem: expect.stringMatching(/^'move q 3' does not parse as a translation answer: /),
        },
      ],
    });
    const noQuestion = ctx({ id: 1, answer: "move x 1", image: "a.png" });
    expect(!noQuestion.ok && noQuestion.skips[0]).toEqual({
      file: "rel/T1_translation/data.jsonl",
      line: 4,
      field: "question",
      problem: "missing (looked for question, prompt, problem, query)",
    });
    // A task name the app does not know is not replaced by the path's guess.
    const unknown = ctx({ id: 1, category: "Chirality", question: "q", answer: "A", image: "a.png" });
    expect(!unknown.ok && unknown.skips).toEqual([
      {
        file: "rel/T1_translation/data.jsonl",
        line: 4,
        field: "category",
        problem:
          "'Chirality' is not a known task name (expected one of the nine MiSI-Bench tasks, e.g. Translation, T5, RotRot)",
      },
    ]);
    const nowhere = ctx({ id: 1, question: "q", answer: "A", image: "a.png" }, { taskFromPath: null });
    expect(!nowhere.ok && nowhere.skips[0]?.problem).toBe(
      "cannot tell the task: no task field (looked for task, category, tasktype, taskname) and the file and folder names name none",
    );
  });

  it("takes the split from the record, else from the path", () => {
    expect(inferSplitFromPath("MiSI/train/T1/data.jsonl")).toBe("train");
    expect(inferSplitFromPath("MiSI/T1_translation_test.jsonl")).toBe("test");
    expect(inferSplitFromPath("MiSI/data.jsonl")).toBeNull();
    const r = ctx(
      { id: 1, question: "q", answer: "move x 1", image: "a.png", split: "Train" },
      { splitFromPath: "test" },
    );
    expect(r.ok && r.plan.split).toBe("train");
  });
});

describe("VLMEvalKit TSV", () => {
  const header = ["index", "image", "question", "A", "B", "C", "D", "answer", "category", "split"];

  it("checks the header: required columns are fatal, partial options a warning", () => {
    expect(readVlmevalkitHeader(["index", "image", "question", "category"])).toEqual({
      ok: false,
      problems: ["missing column 'answer' (columns are: index, image, question, category)"],
    });
    expect(readVlmevalkitHeader(["index", "question", "answer"])).toEqual({
      ok: false,
      problems: ["missing column 'image' (base64) or 'image_path'"],
    });
    expect(readVlmevalkitHeader(["Index", "Image_Path", "Question", "Answer", "index"])).toEqual({
      ok: false,
      problems: ["column 'index' repeats column 'Index'"],
    });
    const partial = readVlmevalkitHeader(["index", "image", "question", "A", "B", "answer"]);
    expect(partial.ok && partial.warnings).toEqual(["option columns A, B only; MC items need A, B, C and D"]);
  });

  it("maps an MC row: options into payload and question, letter + options into the gold", () => {
    const h = readVlmevalkitHeader(header);
    if (!h.ok) throw new Error("header");
    const row = {
      index: "3",
      image: PNG_BASE64.blue,
      question: "Which moves?",
      A: T8_OPTIONS[0],
      B: T8_OPTIONS[1],
      C: T8_OPTIONS[2],
      D: T8_OPTIONS[3],
      answer: "B",
      category: "Interaction Location",
      split: "test",
    };
    const r = planVlmevalkitRow(row, { file: "x.tsv", line: 4, columns: h.columns, taskFromPath: null });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan).toMatchObject({
      source: "vlmevalkit",
      externalId: "3",
      taskId: "interaction_location",
      canonical: "B",
      gold: { letter: "B", options: [...T8_OPTIONS] },
      payload: { options: [...T8_OPTIONS] },
    });
    expect(r.plan.question).toBe(
      `Which moves?\nOptions:\nA. ${T8_OPTIONS[0]}\nB. ${T8_OPTIONS[1]}\nC. ${T8_OPTIONS[2]}\nD. ${T8_OPTIONS[3]}`,
    );
    expect(r.plan.images).toEqual([{ caption: "Image 1", ref: { kind: "base64", data: PNG_BASE64.blue } }]);
  });

  it("reads a short image cell as a pointer to another row, and a missing category from the file name", () => {
    const h = readVlmevalkitHeader(["index", "image", "question", "answer"]);
    if (!h.ok) throw new Error("header");
    const r = planVlmevalkitRow(
      { index: "9", image: "4", question: "q", answer: "move z 45" },
      { file: "MiSI_zooming.tsv", line: 10, columns: h.columns, taskFromPath: "zooming" },
    );
    expect(r.ok && r.plan.images).toEqual([{ caption: "Image 1", ref: { kind: "row", index: "4" } }]);
    expect(r.ok && r.plan.taskId).toBe("zooming");
  });
});
