/**
 * The fair score is computed at results time from the stored canonical answer and the gold
 * (real PostgreSQL): a stored T4 answer "ARG NH1" for a gold "ARG NH2" scores 0 under the paper and 1
 * under fair, on the results page data and in the summary export.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { listResponseRecords } from "@/lib/server/dal/results/list-response-records";
import { getStudyResults } from "@/lib/server/dal/results/get-study-results";
import { getModelComparison } from "@/lib/server/dal/results/compare-with-models";
import { importModelRun } from "@/lib/server/dal/models/import-model-run";
import { buildPaperTable } from "@/lib/results/paper-table";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

let fixture: ResultsStudyFixture;
let changedId: string;

beforeAll(async () => {
  fixture = await createResultsStudy("fair-score");
  // One stored T4 answer on a Pos. item (gold ARG NH2, O1B) becomes the swapped name, scored as the paper scores it.
  const t4 = await db.response.findMany({
    where: { studyId: fixture.studyId, taskId: "residue_ligand", phase: "main" },
    select: { id: true, item: { select: { answerKey: { select: { gold: true } } } } },
    orderBy: { id: "asc" },
  });
  const response = t4.find((r) => (r.item.answerKey?.gold as { kind: string } | undefined)?.kind === "bonds")!;
  changedId = response.id;
  await db.response.update({
    where: { id: changedId },
    data: { rawAnswer: "Yes: ARG NH1, O1B", canonicalAnswer: "Yes: ARG NH1, O1B", exact: 0, partial: 0 },
  });
});

afterAll(async () => {
  await disconnectDb();
});

describe("fair score from stored answers", () => {
  it("the swapped answer is paper 0, fair 1; every T4 record carries a fair score ≥ the paper's", async () => {
    const { records, skipped } = await listResponseRecords([fixture.studyId]);
    expect(skipped).toEqual([]);
    const t4 = records.filter((r) => r.taskId === "residue_ligand");
    expect(t4.length).toBeGreaterThan(0);
    for (const r of t4) {
      expect(r.fairExact).toBeGreaterThanOrEqual(r.exact);
      expect(r.fairPartial).toBeGreaterThanOrEqual(r.partial);
      expect(r.fairF1).toBeDefined();
    }
    const swapped = t4.filter((r) => r.answer === "Yes: ARG NH1, O1B");
    expect(swapped.length).toBeGreaterThanOrEqual(1);
    for (const r of swapped)
      expect([r.exact, r.partial, r.fairExact, r.fairPartial, r.fairF1]).toEqual([0, 0, 1, 1, 1]);
    // Tasks without atom names: no fair fields (fair = paper).
    expect(records.filter((r) => r.taskId === "translation").every((r) => r.fairExact === undefined)).toBe(true);
  });

  it("the results summary shows the fair exact above the paper exact on ResLig+ only", async () => {
    const results = await getStudyResults({ studyId: fixture.studyId, replicates: 50 });
    expect(results.problems).toEqual([]);
    const summary = results.summary!;
    for (const c of summary.overall.columns) {
      if (c.column === "residue_ligand_pos") expect(c.fair.exact.mean).toBeGreaterThan(c.exact.mean);
      else expect(c.fair.exact.mean).toBe(c.exact.mean);
    }
  });
});

describe("late answers (a late swapped answer scores 0 under fair too)", () => {
  it("a late answer is 0 under fair as under the paper, and is no answer for the item analysis", async () => {
    const other = await db.response.findFirstOrThrow({
      where: {
        studyId: fixture.studyId,
        taskId: "residue_ligand",
        phase: "main",
        id: { not: changedId },
        item: {
          id: (await db.response.findUniqueOrThrow({ where: { id: changedId }, select: { itemId: true } })).itemId,
        },
      },
      select: { id: true, rawAnswer: true, canonicalAnswer: true, exact: true, partial: true },
    });
    await db.response.update({
      where: { id: other.id },
      data: { rawAnswer: "Yes: ARG NH1, O1B", canonicalAnswer: "Yes: ARG NH1, O1B", exact: 0, partial: 0, late: true },
    });
    try {
      const { records } = await listResponseRecords([fixture.studyId]);
      const swapped = records.filter((r) => r.taskId === "residue_ligand" && r.answer === "Yes: ARG NH1, O1B");
      expect(swapped).toHaveLength(1); // the late one carries no answer
      const fairTotal = records
        .filter((r) => r.taskId === "residue_ligand")
        .reduce((s, r) => s + (r.fairExact ?? 0), 0);
      const paperTotal = records.filter((r) => r.taskId === "residue_ligand").reduce((s, r) => s + r.exact, 0);
      expect(fairTotal - paperTotal).toBe(1); // only the in-time swapped answer gains under fair
    } finally {
      const { rawAnswer, canonicalAnswer, exact, partial } = other;
      await db.response.update({
        where: { id: other.id },
        data: { rawAnswer, canonicalAnswer, exact, partial, late: false },
      });
    }
  });
});

describe("fair score of imported model runs", () => {
  it("a model's swapped atom name is paper 0, fair 1: the comparison and the fair paper table use it", async () => {
    const user = await db.user.create({
      data: { email: `fair-${fixture.tag}@test.local`, passwordHash: "x", role: "researcher" },
      select: { id: true },
    });
    // Every item gets the correct answer except the swapped T4 one, which says ARG NH1 for the gold ARG NH2.
    const swappedItem = (await db.response.findUniqueOrThrow({ where: { id: changedId }, select: { itemId: true } }))
      .itemId;
    const keys = await db.answerKey.findMany({
      where: { itemId: { in: fixture.items.map((i) => i.id) } },
      select: { itemId: true, canonical: true },
    });
    const canonical = new Map(keys.map((k) => [k.itemId, k.canonical]));
    const rows = fixture.items.map(
      (it) => `${it.id},"${it.id === swappedItem ? "Yes: ARG NH1, O1B" : canonical.get(it.id)}"`,
    );
    const run = await importModelRun({
      fileName: "fair.csv",
      bytes: new TextEncoder().encode(["item_id,prediction", ...rows].join("\n")),
      input: { model: "FairModel" },
      actorId: user.id,
    });
    const comparison = await getModelComparison({ studyId: fixture.studyId, runIds: [run.runId] });
    const pos = comparison.comparison!.columns.find((c) => c.column === "residue_ligand_pos")!.models[0]!;
    expect(pos.model.fair.mean).toBeGreaterThan(pos.model.mean);
    expect(pos.model.fair.mean - pos.model.mean).toBeCloseTo(1 / pos.nItems, 12);
    const translation = comparison.comparison!.columns.find((c) => c.column === "translation")!.models[0]!;
    expect(translation.model.fair.mean).toBe(translation.model.mean);
    const human = (await getStudyResults({ studyId: fixture.studyId, replicates: 50 })).summary!.overall;
    const table = (scoreKind: "paper" | "fair") =>
      buildPaperTable({
        metric: "exact",
        scoreKind,
        human,
        comparison: comparison.comparison,
        includePaperRows: false,
      });
    const cell = (t: ReturnType<typeof table>) =>
      t.rows.find((r) => r.kind === "model")!.cells.residue_ligand_pos!.value;
    expect(cell(table("fair"))).toBeGreaterThan(cell(table("paper")));
  });
});
