import { describe, expect, it } from "vitest";
import { buildCodebook, CODEBOOK_TABLE, EXPORT_TABLES, formatCodebookMarkdown } from "@/lib/export/codebook";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { buildPaperTable } from "@/lib/results/paper-table";
import { paperTableCsvRecords } from "@/lib/export/paper-table-csv";

describe("codebook", () => {
  const codebook = buildCodebook();

  it("has one entry per column of every exported file, each with a real description", () => {
    const totalColumns = EXPORT_TABLES.reduce((s, t) => s + t.columns.length, 0);
    expect(codebook).toHaveLength(totalColumns);
    for (const table of [...EXPORT_TABLES, CODEBOOK_TABLE]) {
      expect(table.description.length, table.id).toBeGreaterThan(10);
      for (const column of table.columns) {
        expect(column.description.trim().length, `${table.id}.${column.key}`).toBeGreaterThanOrEqual(5);
        expect(["string", "integer", "number", "boolean", "datetime", "json"]).toContain(column.type);
      }
    }
  });

  it("lists the files in a fixed order and numbers columns from 1", () => {
    expect([...new Set(codebook.map((e) => e.table))]).toEqual([
      "responses",
      "task_summary",
      "item_summary",
      "participants",
      "three_d_usage",
      "vlmevalkit_items",
      "paper_table",
      "psychds_trials",
      "psychds_participants",
      "psychds_items",
      "psychds_usage3d",
      "psychds_analysis_settings",
    ]);
    const responses = codebook.filter((e) => e.table === "responses");
    expect(responses.map((e) => e.position)).toEqual(responses.map((_, i) => i + 1));
    expect(responses.map((e) => e.column)).toEqual(RESPONSES_TABLE.columns.map((c) => c.key));
  });

  it("covers every field the issue asks the long-format responses file to carry", () => {
    const keys = RESPONSES_TABLE.columns.map((c) => c.key);
    for (const required of [
      "study_id",
      "participant_id",
      "cohort",
      "condition",
      "item_id",
      "item_external_id",
      "task_id",
      "raw_answer",
      "canonical_answer",
      "gold_answer",
      "exact",
      "partial",
      "rt_ms",
      "shown_at",
      "submitted_at",
      "device",
    ]) {
      expect(keys).toContain(required);
    }
  });

  it("gives units to times and scores and closed value sets to categorical columns", () => {
    const rt = codebook.find((e) => e.table === "responses" && e.column === "rt_ms");
    expect(rt).toMatchObject({ type: "integer", unit: "ms" });
    const phase = codebook.find((e) => e.table === "responses" && e.column === "phase");
    expect(phase?.values).toBe("practice | main | attention");
  });

  it("documents the paper-table CSV's 37 columns from the list that writes its header", () => {
    const table = buildPaperTable({ metric: "exact", human: null, comparison: null });
    const [header] = paperTableCsvRecords([table]);
    expect(header).toHaveLength(37);
    const documented = codebook.filter((e) => e.table === "paper_table");
    expect(documented.map((e) => e.column)).toEqual(header);
    expect(documented.find((e) => e.column === "ResLig− low")).toMatchObject({ type: "number", unit: "percent" });
    for (const e of documented) expect(e.description.length, e.column).toBeGreaterThan(20);
  });

  it("renders Markdown with a row per column and escapes pipes", () => {
    const md = formatCodebookMarkdown();
    for (const e of codebook) expect(md).toContain(`| \`${e.column}\` |`);
    expect(md).toContain("practice, main, attention");
  });
});
