import { describe, expect, it } from "vitest";
import { PAPER_ROWS, type PaperMetric, type PaperRow, recomputePaperRowAverage } from "@/lib/results/paper-reference";
import {
  computeAllTaskAverage,
  computePaperAverage,
  PAPER_AVERAGE_COLUMNS,
  RESULT_COLUMN_KEYS,
  toResultColumnKey,
} from "@/lib/results/task-columns";

/** Rows whose printed Avg differs from the mean of their cells by more than the tolerance (in points). */
function listAverageDiscrepancies(
  rows: readonly PaperRow[] = PAPER_ROWS,
  tolerancePoints = 0.015,
): { model: string; metric: PaperMetric; printed: number; recomputed: number }[] {
  return rows
    .map((row) => ({
      model: row.model,
      metric: row.metric,
      printed: row.avgPrinted,
      recomputed: recomputePaperRowAverage(row),
    }))
    .filter((d) => Math.abs(d.printed - d.recomputed) > tolerancePoints);
}

/** One printed row, by model and metric; undefined when the paper has no such row. */
function findPaperRow(model: string, metric: PaperMetric): PaperRow | undefined {
  return PAPER_ROWS.find((r) => r.model === model && r.metric === metric);
}

describe("paper reference rows", () => {
  it("recomputes the human Avg from the paper's own cells (T4 Pos./Neg. as two columns)", () => {
    const partial = findPaperRow("Human", "partial")!;
    const exact = findPaperRow("Human", "exact")!;
    // (100 + 70.18 + 30 + 100 + 100 + 74.54 + 92 + 82.78) / 8 = 649.5 / 8 = 81.1875, printed 81.18.
    expect(computePaperAverage(partial.cells).value).toBeCloseTo(81.1875, 10);
    expect(Math.abs(recomputePaperRowAverage(partial) - partial.avgPrinted)).toBeLessThanOrEqual(0.01);
    // (100 + 58 + 30 + 100 + 100 + 60 + 92 + 70) / 8 = 610 / 8 = 76.25.
    expect(recomputePaperRowAverage(exact)).toBeCloseTo(76.25, 10);
    expect(exact.avgPrinted).toBe(76.25);
  });

  it("counting T4 once would not reproduce the printed human Avg", () => {
    const c = findPaperRow("Human", "partial")!.cells;
    const t4Once =
      (c.translation +
        c.rotation +
        c.zooming +
        (c.residue_ligand_pos + c.residue_ligand_neg) / 2 +
        c.docking +
        c.interaction_location +
        c.pocket_ligand) /
      7;
    expect(t4Once).toBeCloseTo(78.5, 10);
    expect(PAPER_AVERAGE_COLUMNS).toEqual([
      "translation",
      "rotation",
      "zooming",
      "residue_ligand_pos",
      "residue_ligand_neg",
      "docking",
      "interaction_location",
      "pocket_ligand",
    ]);
  });

  it("flags exactly the rows whose printed Avg disagrees with their cells, each with a note", () => {
    const found = listAverageDiscrepancies().map((d) => `${d.model}/${d.metric}`);
    expect(found).toEqual(["GPT-4.1/partial", "Qwen3-VL-235B-A22B-thinking/partial", "o3/exact", "o4-mini/exact"]);
    expect(findPaperRow("GPT-4.1", "partial")!.avgPrinted).toBe(29.2);
    expect(recomputePaperRowAverage(findPaperRow("GPT-4.1", "partial")!)).toBeCloseTo(28.19875, 10);
    expect(recomputePaperRowAverage(findPaperRow("o3", "exact")!)).toBeCloseTo(23.25, 10);
    for (const d of listAverageDiscrepancies()) expect(findPaperRow(d.model, d.metric)!.note).toMatch(/Avg/);
    expect(findPaperRow("Gemini 2.5 Flash-Lite", "exact")!.note).toMatch(/repeats the partial/);
  });

  it("holds 12 models × 2 metrics with every cell, all labelled as reported", () => {
    expect(PAPER_ROWS).toHaveLength(24);
    for (const row of PAPER_ROWS) {
      expect(Object.keys(row.cells).sort()).toEqual([...RESULT_COLUMN_KEYS].sort());
      expect(row.provenance).toBe("as reported");
      expect(findPaperRow(row.model, row.metric === "exact" ? "partial" : "exact")).toBeDefined();
    }
    expect(PAPER_ROWS.filter((r) => r.kind === "human")).toHaveLength(2);
    expect(PAPER_ROWS.filter((r) => r.itemSet === "full_test").map((r) => r.model)).toEqual([
      "Qwen2.5-VL-7B SFT",
      "Qwen2.5-VL-7B SFT",
    ]);
    // Spot checks against spec §5.
    expect(findPaperRow("Claude Sonnet 4.5", "partial")!.cells.docking).toBe(34.12);
    expect(findPaperRow("GPT-5-mini", "exact")!.cells.interaction_location).toBe(47.82);
    expect(findPaperRow("o4-mini", "exact")!.cells.zooming).toBe(2.08);
  });
});

describe("task columns", () => {
  it("maps task ids (and T4 polarity) to columns", () => {
    expect(toResultColumnKey("residue_ligand", "pos")).toBe("residue_ligand_pos");
    expect(toResultColumnKey("residue_ligand", "neg")).toBe("residue_ligand_neg");
    expect(toResultColumnKey("residue_ligand")).toBeNull();
    expect(toResultColumnKey("docking")).toBe("docking");
    expect(toResultColumnKey("docking", "pos")).toBeNull();
  });

  it("averages name their missing columns instead of averaging fewer", () => {
    const r = computePaperAverage({ translation: 1, rotation: 0.5 });
    expect(r.value).toBeNull();
    expect(r.missing).toHaveLength(6);
    expect(computeAllTaskAverage(findPaperRow("Human", "exact")!.cells).value).toBeCloseTo(668 / 10, 10);
  });
});
