import ExcelJS from "exceljs";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { deleteModelRun } from "@/lib/server/dal/models/delete-model-run";
import { importModelRun } from "@/lib/server/dal/models/import-model-run";
import { listModelRuns } from "@/lib/server/dal/models/list-model-runs";
import { getModelComparison } from "@/lib/server/dal/results/compare-with-models";
import { mcnemarExact } from "@/lib/stats/mcnemar-exact";
import { getTask } from "@/lib/tasks/registry";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

let fixture: ResultsStudyFixture;
let actorId: string;

/** Model outputs per fixture item (same order as the fixture's items), with the answer a reader would take from them (null: none). */
const OUTPUTS: [text: string, answer: string | null][] = [
  ["move x 3", "move x 3"],
  ["The complex moved down.\nAnswer: move y -1", "move y -1"],
  ["I think it is move x 4, or maybe not.", "move x 4"],
  ["Cannot determine.", null],
  ["**Yes: ARG NH2, O1B**", "Yes: ARG NH2, O1B"],
  ["No", "No"],
  ["No.", "No"],
  ["Yes: ARG NH2, O1B", "Yes: ARG NH2, O1B"],
  ["<think>A or B?</think>The answer is (B).", "B"],
  ["\\boxed{A}", "A"],
  ["A", "A"],
  ["move z 45", "move z 45"],
  ["Zoom: move z 60 (the complex came much closer)", "move z 60"],
];

const enc = (text: string) => new TextEncoder().encode(text);

function vlmevalkitTsv(keyOf: (i: number) => string, answers?: (i: number) => string): string {
  const rows = fixture.items.map((it, i) => [
    keyOf(i),
    `Question ${i}`,
    "",
    "",
    "",
    "",
    answers ? answers(i) : "",
    OUTPUTS[i]![0],
    it.taskId,
  ]);
  return stringify([["index", "question", "A", "B", "C", "D", "answer", "prediction", "category"], ...rows], {
    delimiter: "\t",
  });
}

function lmmsEvalJsonl(): string {
  return fixture.items
    .map((it, i) =>
      JSON.stringify({
        doc_id: i,
        doc: { index: it.externalId, question: `Question ${i}` },
        target: "",
        resps: [[OUTPUTS[i]![0]]],
        filtered_resps: [OUTPUTS[i]![0]],
      }),
    )
    .join("\n");
}

beforeAll(async () => {
  fixture = await createResultsStudy("results-models");
  const user = await db.user.create({
    data: { email: `models-${fixture.tag}@test.local`, passwordHash: "x", role: "researcher" },
    select: { id: true },
  });
  actorId = user.id;
});

afterAll(async () => {
  await disconnectDb();
});

async function storedScores(runId: string) {
  const rows = await db.modelPrediction.findMany({
    where: { modelRunId: runId },
    select: { itemId: true, exact: true, partial: true, canonical: true, parseError: true, raw: true },
  });
  return new Map(rows.map((r) => [r.itemId, r]));
}

describe("model imports", () => {
  let tsvRunId: string;
  let lmmsRunId: string;

  it("imports a VLMEvalKit TSV keyed by item id and scores each prediction as the task's own grader scores its answer", async () => {
    const result = await importModelRun({
      fileName: "ModelX_MiSI.tsv",
      bytes: enc(vlmevalkitTsv((i) => fixture.items[i]!.id)),
      input: { model: "ModelX" },
      actorId,
    });
    expect(result).toMatchObject({
      status: "created",
      format: "vlmevalkit-tsv",
      nRows: 13,
      nMatched: 13,
      nUnparseable: 1,
    });
    tsvRunId = result.runId;
    const stored = await storedScores(tsvRunId);
    for (const [i, it] of fixture.items.entries()) {
      const [text, answer] = OUTPUTS[i]!;
      const s = stored.get(it.id)!;
      expect(s.raw).toBe(text);
      if (answer === null) {
        expect(s).toMatchObject({ exact: 0, partial: 0, canonical: null });
        expect(s.parseError).toMatch(/expected 'move'/);
        continue;
      }
      const own = getTask(it.taskId).gradeText(answer, it.gold);
      if (!own.ok) throw new Error(own.error);
      expect({ exact: s.exact, partial: s.partial, canonical: s.canonical }).toEqual({
        exact: own.score.exact,
        partial: own.score.partial,
        canonical: own.canonical,
      });
    }
    // Hand checks: item 1 gold move y -2, answer move y -1 → 1 − 1/8; item 2 gold move x -4, answer move x 4 → 1 − 8/8 = 0.
    expect(stored.get(fixture.items[1]!.id)).toMatchObject({ exact: 0, partial: 0.875 });
    expect(stored.get(fixture.items[2]!.id)).toMatchObject({ exact: 0, partial: 0 });
  });

  it("imports the same outputs from lmms-eval samples keyed by external id, with identical scores", async () => {
    const result = await importModelRun({
      fileName: "samples_misi_2025.jsonl",
      bytes: enc(lmmsEvalJsonl()),
      input: { model: "ModelX", name: "ModelX via lmms-eval" },
      actorId,
    });
    expect(result).toMatchObject({ status: "created", format: "lmms-eval-jsonl", nMatched: 13, nUnparseable: 1 });
    lmmsRunId = result.runId;
    const a = await storedScores(tsvRunId);
    const b = await storedScores(lmmsRunId);
    for (const it of fixture.items) {
      const { exact, partial, canonical, parseError } = a.get(it.id)!;
      expect(b.get(it.id)).toMatchObject({ exact, partial, canonical, parseError });
    }
  });

  it("reads an xlsx and a plain CSV of the same outputs to the same scores", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Sheet1");
    sheet.addRow(["index", "question", "answer", "prediction", "category"]);
    fixture.items.forEach((it, i) => sheet.addRow([it.id, `Question ${i}`, "", OUTPUTS[i]![0], it.taskId]));
    const xlsx = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const fromXlsx = await importModelRun({
      fileName: "ModelX_MiSI.xlsx",
      bytes: xlsx,
      input: { model: "ModelX" },
      actorId,
    });
    const csv = stringify([["item_id", "prediction"], ...fixture.items.map((it, i) => [it.id, OUTPUTS[i]![0]])]);
    const fromCsv = await importModelRun({
      fileName: "modelx.csv",
      bytes: enc(csv),
      input: { model: "ModelX" },
      actorId,
    });
    expect([fromXlsx.format, fromCsv.format]).toEqual(["vlmevalkit-xlsx", "plain-csv"]);
    const reference = await storedScores(tsvRunId);
    for (const runId of [fromXlsx.runId, fromCsv.runId]) {
      const stored = await storedScores(runId);
      for (const it of fixture.items) expect(stored.get(it.id)!.exact).toBe(reference.get(it.id)!.exact);
    }
    await deleteModelRun({ runId: fromXlsx.runId, actorId });
    await deleteModelRun({ runId: fromCsv.runId, actorId });
  });

  it("is idempotent by content hash", async () => {
    const again = await importModelRun({
      fileName: "renamed.tsv",
      bytes: enc(vlmevalkitTsv((i) => fixture.items[i]!.id)),
      input: { model: "Other" },
      actorId,
    });
    expect(again).toMatchObject({ status: "duplicate", runId: tsvRunId, nMatched: 13 });
    expect(await db.modelPrediction.count({ where: { modelRunId: tsvRunId } })).toBe(13);
  });

  it("reports unknown keys, ambiguous external ids and answers that disagree with the gold", async () => {
    // Another source numbers an item with the same external id as the fixture's first item.
    const twin = await db.item.create({
      data: {
        source: "vlmevalkit",
        externalId: fixture.items[0]!.externalId,
        taskId: "translation",
        taskVersion: 1,
        question: "twin",
        payload: { pdbId: "1abc" },
        contentHash: `twin-${fixture.tag}`,
        answerKey: { create: { gold: { axis: "y", distanceA: 1 }, canonical: "move y 1" } },
      },
      select: { id: true },
    });
    const text = vlmevalkitTsv(
      (i) => (i === 12 ? "no-such-item" : fixture.items[i]!.externalId),
      (i) =>
        i === 3 ? "move y 4" : getTask(fixture.items[i]!.taskId).canonicalizeGold(fixture.items[i]!.gold as never),
    );
    const loose = await importModelRun({ fileName: "keys.tsv", bytes: enc(text), input: { model: "Loose" }, actorId });
    expect(loose.nMatched).toBe(11);
    expect(loose.skipped.map((s) => [s.line, s.problem.split(":")[0]])).toEqual([
      [
        2,
        `external id '${fixture.items[0]!.externalId}' belongs to 2 items (${[fixture.items[0]!.id, twin.id].sort().join(", ")}); import for one study to narrow the match`.split(
          ":",
        )[0],
      ],
      // Item 1's prediction spans two lines (a quoted cell), so the last item sits on line 15.
      [15, "no item has id or external id 'no-such-item'"],
    ]);
    expect(loose.referenceMismatches.map((m) => m.line)).toEqual([6]);
    // Within the study's pool the external id is unique again.
    const scoped = await importModelRun({
      fileName: "keys-scoped.tsv",
      bytes: enc(`${text}\n`),
      input: { model: "Scoped", studyId: fixture.studyId },
      actorId,
    });
    expect(scoped.nMatched).toBe(12);
    await deleteModelRun({ runId: loose.runId, actorId });
    await deleteModelRun({ runId: scoped.runId, actorId });
  });

  it("fails a file that matches nothing with located problems, and stores nothing", async () => {
    const before = await db.modelRun.count();
    await expect(
      importModelRun({
        fileName: "none.csv",
        bytes: enc("item_id,prediction\nnope,A\n"),
        input: { model: "None" },
        actorId,
      }),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      details: {
        problems: [{ file: "none.csv", line: 2, field: "item_id", problem: "no item has id or external id 'nope'" }],
      },
    });
    await expect(
      importModelRun({ fileName: "bad.tsv", bytes: enc("index\tanswer\n1\tA\n"), input: { model: "Bad" }, actorId }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(
      importModelRun({ fileName: "x.csv", bytes: enc("item_id,prediction\n"), input: { model: "" }, actorId }),
    ).rejects.toThrow(/model is required/);
    expect(await db.modelRun.count()).toBe(before);
  });

  it("lists runs with counts", async () => {
    const runs = await listModelRuns();
    const tsv = runs.find((r) => r.id === tsvRunId)!;
    expect(tsv).toMatchObject({ name: "ModelX", nPredictions: 13, nUnparseable: 1, fileName: "ModelX_MiSI.tsv" });
    expect(tsv.byTask).toEqual({ translation: 4, zooming: 2, residue_ligand: 4, interaction_location: 3 });
  });
});

describe("item-matched comparison", () => {
  it("pairs human majorities with the model per column, with McNemar on the discordant items", async () => {
    const comparison = await getModelComparison({ studyId: fixture.studyId });
    expect(comparison.runs.map((r) => r.name).sort()).toEqual(["ModelX", "ModelX via lmms-eval"]);
    const c = comparison.comparison!;
    const responses = await db.response.findMany({
      where: { studyId: fixture.studyId, phase: "main" },
      select: { itemId: true, exact: true },
    });
    const tsvRun = comparison.runs.find((r) => r.name === "ModelX")!;
    const predictions = await storedScores(tsvRun.id);
    for (const column of c.columns) {
      const model = column.models.find((m) => m.modelId === tsvRun.id)!;
      const itemIds = fixture.items
        .filter((it) => predictions.has(it.id) && column.taskId === it.taskId)
        .map((it) => it.id);
      const inColumn =
        column.taskId === "residue_ligand"
          ? itemIds.filter(
              (id) =>
                (column.column === "residue_ligand_neg") ===
                (fixture.items.find((x) => x.id === id)!.gold as { kind: string }).kind.startsWith("none"),
            )
          : itemIds;
      let b = 0;
      let cc = 0;
      for (const id of inColumn) {
        const rs = responses.filter((r) => r.itemId === id);
        const human = 2 * rs.filter((r) => r.exact === 1).length > rs.length ? 1 : 0;
        const m = predictions.get(id)!.exact;
        if (human === 1 && m === 0) b++;
        if (human === 0 && m === 1) cc++;
      }
      expect(model.nItems).toBe(inColumn.length);
      expect(model.mcnemar).toEqual(mcnemarExact(b, cc));
    }
    const translation = c.columns.find((x) => x.column === "translation")!;
    // One of the four translation predictions could not be parsed (counted wrong).
    expect(comparison.unparseable.translation?.[tsvRun.id]).toBe(1);
    expect(translation.best).not.toBeNull();
  });

  it("restricts the human side to one condition when asked", async () => {
    const staticOnly = await getModelComparison({ studyId: fixture.studyId, condition: "static" });
    const all = await getModelComparison({ studyId: fixture.studyId });
    const n = (x: typeof all) =>
      x.comparison!.columns.find((col) => col.column === "translation")!.models[0]!.nHumanResponses;
    expect(n(staticOnly)).toBe(4 * 3);
    expect(n(all)).toBe(4 * 6);
  });
});
