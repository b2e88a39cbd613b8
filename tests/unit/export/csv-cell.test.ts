import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { defineExportTable, toCsvRecord } from "@/lib/export/columns";
import { formatCell, isPlainNumber, neutralizeFormula } from "@/lib/export/csv-cell";

describe("neutralizeFormula", () => {
  it.each([
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["=-4", "'=-4"],
    ["+1+2", "'+1+2"],
    ["-2+3", "'-2+3"],
    ["@cmd", "'@cmd"],
    ["\t=1", "'\t=1"],
    ["\rhello", "'\rhello"],
    ["-", "'-"],
    ["--4", "'--4"],
    ["- 4", "'- 4"],
    ["-4 ", "'-4 "],
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
  ])("prefixes an apostrophe to %j", (input, expected) => {
    expect(neutralizeFormula(input)).toBe(expected);
  });

  it.each(["-4", "+4", "-4.5", "-.5", "+0.25", "-1e-3", "2.5E+10", "0", "-0"])(
    "keeps the plain number %j numeric",
    (n) => {
      expect(isPlainNumber(n)).toBe(true);
      expect(neutralizeFormula(n)).toBe(n);
    },
  );

  it.each(["move x -4", "a=b", "Yes: ARG NH2, O1B", "", " =1", "4-2", "'already"])(
    "leaves %j alone (no trigger in first position)",
    (text) => {
      expect(neutralizeFormula(text)).toBe(text);
    },
  );
});

describe("formatCell", () => {
  it("formats each value type", () => {
    expect(formatCell(null)).toBe("");
    expect(formatCell(undefined)).toBe("");
    expect(formatCell(Number.NaN)).toBe("");
    expect(formatCell(Number.POSITIVE_INFINITY)).toBe("");
    expect(formatCell(-4)).toBe("-4");
    expect(formatCell(0.1)).toBe("0.1");
    expect(formatCell(true)).toBe("1");
    expect(formatCell(false)).toBe("0");
    expect(formatCell(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6)))).toBe("2025-01-02 03:04:05.006");
    expect(formatCell({ screen: "1920x1080", dpr: 2 })).toBe('{"screen":"1920x1080","dpr":2}');
    expect(formatCell(["a", 1])).toBe('["a",1]');
    expect(formatCell("=1+1")).toBe("'=1+1");
  });

  it("can leave formulas alone for files meant for programs", () => {
    expect(formatCell("=1+1", { neutralizeFormulas: false })).toBe("=1+1");
  });
});

describe("a neutralised row through csv-stringify and back", () => {
  const table = defineExportTable<{ answer: string; value: number }>({
    id: "t",
    title: "t",
    description: "test table",
    columns: [
      { key: "answer", type: "string", description: "an answer", get: (r) => r.answer },
      { key: "value", type: "number", description: "a value", get: (r) => r.value },
    ],
  });

  it("keeps -4 numeric and defuses a formula, with quoting intact", () => {
    const rows = [
      { answer: '=cmd|" /C calc"!A0', value: -4 },
      { answer: "-4", value: 2.5 },
      { answer: "line one\nline two, with comma", value: 0 },
    ];
    const csv = stringify([["answer", "value"], ...rows.map((r) => toCsvRecord(table, r))]);
    const back = parse(csv, { columns: true }) as { answer: string; value: string }[];
    expect(back).toEqual([
      { answer: `'=cmd|" /C calc"!A0`, value: "-4" },
      { answer: "-4", value: "2.5" },
      { answer: "line one\nline two, with comma", value: "0" },
    ]);
  });

  it("rejects a duplicate or malformed column key", () => {
    const col = { key: "a", type: "string" as const, description: "x", get: () => "" };
    expect(() => defineExportTable({ id: "x", title: "x", description: "x", columns: [col, col] })).toThrow(
      /declared twice/,
    );
    expect(() =>
      defineExportTable({ id: "x", title: "x", description: "x", columns: [{ ...col, key: "bad key" }] }),
    ).toThrow(/not an identifier/);
  });
});
