import { describe, expect, it } from "vitest";
import {
  ImportReportBuilder,
  ImportReportSchema,
  MAX_REPORT_ENTRIES_PER_LIST,
  formatReportEntry,
  formatReportLines,
} from "@/lib/import/report";

describe("report lines", () => {
  it("formats file:line: field: problem, leaving out line 0", () => {
    expect(formatReportEntry({ file: "items.jsonl", line: 12, field: "answer", problem: "bad" })).toBe(
      "items.jsonl:12: answer: bad",
    );
    expect(formatReportEntry({ file: "a.zip", line: 0, field: "archive", problem: "truncated" })).toBe(
      "a.zip: archive: truncated",
    );
  });

  it("keeps exact counts but cuts long lists, and says how many are not listed", () => {
    const b = new ImportReportBuilder({ kind: "misi", source: "x", dryRun: false });
    for (let i = 1; i <= MAX_REPORT_ENTRIES_PER_LIST + 3; i++)
      b.skip({ file: "f", line: i, field: "answer", problem: "p" });
    const report = b.finish();
    expect(report.skipped).toHaveLength(MAX_REPORT_ENTRIES_PER_LIST);
    expect(report.counts.skipped).toBe(MAX_REPORT_ENTRIES_PER_LIST + 3);
    expect(formatReportLines(report)).toContain("  … 3 more not listed");
    expect(ImportReportSchema.parse(report)).toEqual(report);
  });

  it("reports nothing as imported when there are fatal errors (the batch was rolled back)", () => {
    const b = new ImportReportBuilder({ kind: "bundle", source: "b", dryRun: false });
    b.imported("translation");
    b.imported("translation");
    b.error({ file: "items.jsonl", line: 7, field: "file", problem: "truncated" });
    const report = b.finish();
    expect(report.imported).toBe(0);
    expect(report.byTask).toEqual({});
    expect(formatReportLines(report)[0]).toBe("b (bundle): FAILED with 1 error(s); nothing was imported");
    expect(formatReportLines(report)).toContain("  items.jsonl:7: file: truncated");
  });

  it("summarises a successful run with per-list sections", () => {
    const b = new ImportReportBuilder({ kind: "vlmevalkit", source: "t.tsv", dryRun: true });
    b.imported("rotation");
    b.duplicate({ file: "t.tsv", line: 3, field: "item", problem: "already in the database (item c1)" });
    b.note({ file: "t.tsv", line: 0, field: "fields", problem: "read as …" });
    const lines = formatReportLines(b.finish());
    expect(lines[0]).toBe("t.tsv (vlmevalkit, dry run): would import 1, duplicates 1, skipped 0, warnings 0");
    expect(lines).toEqual(
      expect.arrayContaining(["duplicates (1):", "  t.tsv:3: item: already in the database (item c1)", "notes (1):"]),
    );
  });
});

describe("grouped warnings", () => {
  it("lists a warning shared by many records once, with how many more there are", () => {
    const b = new ImportReportBuilder({ kind: "misi", source: "r", dryRun: false });
    for (let line = 1; line <= 4; line++)
      b.warn({ file: "a.jsonl", line, field: "payload", problem: "pdbId: missing" });
    b.warn({ file: "b.jsonl", line: 1, field: "payload", problem: "pdbId: missing" });
    const report = b.finish();
    expect(report.counts.warnings).toBe(5);
    expect(report.warnings.map(formatReportEntry)).toEqual([
      "a.jsonl:1: payload: pdbId: missing (and 3 more record(s) like it)",
      "b.jsonl:1: payload: pdbId: missing",
    ]);
    expect(formatReportLines(report).some((l) => l.includes("more not listed"))).toBe(false);
  });
});
