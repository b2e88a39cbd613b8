import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatPercent } from "@/components/results/format";
import { compareHumansWithModels, type Comparison } from "@/lib/results/compare";
import { PAPER_ROWS } from "@/lib/results/paper-reference";
import {
  buildPaperTable,
  escapeLatex,
  formatPaperTableLatex,
  formatPaperTableMarkdown,
  PAPER_TABLE_HEADERS,
} from "@/lib/results/paper-table";
import { paperTableCsvRecords } from "@/lib/export/paper-table-csv";
import type { ModelResponseRecord, ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults, type HumanResultsSummary } from "@/lib/results/summarize";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";

/** `UPDATE_GOLDEN=1 npx vitest run --project unit tests/unit/results/paper-table.test.ts` rewrites the golden files. */
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === "1";
const FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/results");

// Four participants, three items per column, every column of the paper; a hand-made but varied pattern.
const HUMANS: ResponseRecord[] = RESULT_COLUMN_KEYS.flatMap((column, ci) => {
  const def = RESULT_COLUMNS[column];
  return ["P1", "P2", "P3", "P4"].flatMap((participantId, pi) =>
    [0, 1, 2].map((i) => {
      const exact = (pi * 2 + i + ci) % 5 < 3 ? 1 : 0;
      return {
        participantId,
        itemId: `${column}-${i}`,
        taskId: def.taskId,
        ...(def.t4Polarity ? { t4Polarity: def.t4Polarity } : {}),
        exact: exact as 0 | 1,
        partial: exact === 1 ? 1 : def.multipleChoice || column === "zooming" ? 0 : 0.25 * ((pi + ci) % 4),
        condition: pi < 2 ? "static" : "interactive",
        cohort: "crowd",
      };
    }),
  );
});
// Run "r1" answers every item (right on item 0 and 2); run "r2" only T1 and T8.
const MODELS: ModelResponseRecord[] = RESULT_COLUMN_KEYS.flatMap((column) => {
  const def = RESULT_COLUMNS[column];
  const base = { taskId: def.taskId, ...(def.t4Polarity ? { t4Polarity: def.t4Polarity } : {}) };
  const r1 = [0, 1, 2].map((i) => ({
    ...base,
    modelId: "r1",
    itemId: `${column}-${i}`,
    exact: (i === 1 ? 0 : 1) as 0 | 1,
    partial: i === 1 && !def.multipleChoice && column !== "zooming" ? 0.5 : i === 1 ? 0 : 1,
  }));
  const r2 =
    column === "translation" || column === "interaction_location"
      ? [{ ...base, modelId: "r2", itemId: `${column}-0`, exact: 0 as const, partial: 0 }]
      : [];
  return [...r1, ...r2];
});

function summary(): HumanResultsSummary {
  const s = summarizeHumanResults(HUMANS, { seed: "paper-table", replicates: 400 });
  if (!s.ok) throw new Error(JSON.stringify(s.issues));
  return s.value;
}
function comparison(): Comparison {
  const c = compareHumansWithModels(HUMANS, MODELS);
  if (!c.ok) throw new Error(JSON.stringify(c.issues));
  return c.value;
}
const SUMMARY = summary();
const COMPARISON = comparison();
const RUN_NAMES = { r1: "GPT & friends_v1", r2: "Small model" };

/** Data cells of a LaTeX row, split on unescaped &. */
function latexCells(line: string): string[] {
  return line
    .replace(/\\\\$/, "")
    .split(/(?<!\\)&/)
    .map((c) => c.trim());
}

describe("paper-style tables", () => {
  const exact = buildPaperTable({
    metric: "exact",
    human: SUMMARY.overall,
    comparison: COMPARISON,
    runNames: RUN_NAMES,
  });
  const partial = buildPaperTable({
    metric: "partial",
    human: SUMMARY.overall,
    comparison: COMPARISON,
    runNames: RUN_NAMES,
  });

  it("print Table 2 (exact) as the golden LaTeX file, and Table 1 (partial) as the golden Markdown file", () => {
    const files = [
      ["paper-table-exact.tex", formatPaperTableLatex(exact)],
      ["paper-table-partial.md", formatPaperTableMarkdown(partial, { intervals: "pm" })],
    ] as const;
    for (const [name, text] of files) {
      const file = path.join(FIXTURES, name);
      if (UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, text);
      expect(text).toBe(readFileSync(file, "utf8"));
    }
  });

  it("are LaTeX-shaped: one booktabs tabular, 12 columns in every row, balanced braces, escaped names", () => {
    const tex = formatPaperTableLatex(exact);
    const lines = tex.split("\n");
    expect(lines.filter((l) => l === "\\begin{tabular}{lrrrrrrrrrrr}")).toHaveLength(1);
    for (const cmd of ["\\toprule", "\\bottomrule", "\\end{tabular}", "\\begin{table}[t]", "\\end{table}"])
      expect(lines.filter((l) => l === cmd)).toHaveLength(1);
    const body = lines
      .slice(lines.indexOf("\\toprule") + 1, lines.indexOf("\\bottomrule"))
      .filter((l) => l !== "\\midrule");
    expect(body.length).toBe(1 + 1 + 1 + 2 + PAPER_ROWS.filter((r) => r.metric === "exact").length); // header, human, CI line, 2 runs, paper rows
    for (const l of body) {
      expect(l.endsWith("\\\\")).toBe(true);
      expect(latexCells(l)).toHaveLength(PAPER_TABLE_HEADERS.length + 1);
    }
    let depth = 0;
    for (const ch of tex.replace(/\\[{}]/g, "")) {
      if (ch === "{") depth++;
      if (ch === "}") depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
    expect(tex).toContain("GPT \\& friends\\_v1 (imported run)");
    expect(escapeLatex("50% of #1 ~ $x^2$ \\ {a}")).toBe(
      "50\\% of \\#1 \\textasciitilde{} \\$x\\textasciicircum{}2\\$ \\textbackslash{} \\{a\\}",
    );
  });

  it("print exactly the results page's numbers (same formatter, same rounding)", () => {
    const tex = formatPaperTableLatex(exact).split("\n");
    const header = latexCells(tex.find((l) => l.startsWith("Model &"))!);
    const human = latexCells(tex.find((l) => l.startsWith("Human (this study)"))!);
    const ci = latexCells(tex.find((l) => l.startsWith("\\quad{\\scriptsize 95\\% CI}"))!);
    for (const c of SUMMARY.overall.columns) {
      const at = header.findIndex((h) => h === RESULT_COLUMNS[c.column].label.replace("+", "$+$").replace("−", "$-$"));
      expect(human[at]).toBe(formatPercent(c.exact.mean));
      expect(ci[at]).toBe(
        `{\\scriptsize [${formatPercent(c.exact.interval.low)}, ${formatPercent(c.exact.interval.high)}]}`,
      );
    }
    expect(human.at(-1)).toBe(formatPercent(SUMMARY.overall.paperAverage.exact));
    const r1 = latexCells(tex.find((l) => l.startsWith("GPT"))!);
    for (const col of COMPARISON.columns) {
      const m = col.models.find((x) => x.modelId === "r1")!;
      expect(r1[header.indexOf(RESULT_COLUMNS[col.column].label.replace("+", "$+$").replace("−", "$-$"))]).toBe(
        formatPercent(m.model.mean),
      );
    }
    // r1 is right on 2 of 3 items everywhere: Avg 66.7; r2 misses six of the eight Avg columns.
    expect(r1.at(-1)).toBe("66.7");
    expect(latexCells(tex.find((l) => l.startsWith("Small model"))!).at(-1)).toBe("--");
  });

  it("keep the paper's rows as printed and marked as reported, Avg as printed", () => {
    const rows = exact.rows.filter((r) => r.kind === "paper");
    expect(rows.map((r) => r.label)).toEqual(PAPER_ROWS.filter((r) => r.metric === "exact").map((r) => r.model));
    expect(rows.every((r) => r.provenance.startsWith("as reported"))).toBe(true);
    const md = formatPaperTableMarkdown(exact);
    expect(md).toContain(
      "| Human (as reported) | 100.00 | 58.00 | 30.00 | 100.00 | 100.00 | 32.00 | 26.00 | 60.00 | 92.00 | 70.00 | 76.25 |",
    );
    expect(md).toContain("| o3 (as reported) |");
    expect(
      md
        .split("\n")
        .find((l) => l.startsWith("| o3"))!
        .endsWith("| 33.65 |"),
    ).toBe(true);
  });

  it("write CSV with value, low and high per column, neutralising formula-like names", () => {
    const formula = buildPaperTable({
      metric: "exact",
      human: SUMMARY.overall,
      comparison: COMPARISON,
      runNames: { r1: "=cmd()", r2: "ok" },
      includePaperRows: false,
    });
    const records = paperTableCsvRecords([formula]);
    expect(records[0]!.slice(0, 8)).toEqual([
      "table",
      "metric",
      "score_kind",
      "row",
      "provenance",
      "Trans",
      "Trans low",
      "Trans high",
    ]);
    expect(records).toHaveLength(1 + 3);
    const human = records[1]!;
    const trans = SUMMARY.overall.columns.find((c) => c.column === "translation")!;
    expect(human.slice(0, 8)).toEqual([
      "Table 2",
      "exact",
      "paper",
      "Human (this study)",
      "this study",
      formatPercent(trans.exact.mean),
      formatPercent(trans.exact.interval.low),
      formatPercent(trans.exact.interval.high),
    ]);
    expect(records.find((r) => r[3] === "'=cmd()")).toBeDefined();
  });

  it("use partial credit for Table 1 and leave empty columns as –", () => {
    expect(partial.paperTableName).toBe("Table 1");
    const human = partial.rows[0]!;
    for (const c of SUMMARY.overall.columns) expect(human.cells[c.column]!.value).toBe(c.partial.mean);
    const empty = buildPaperTable({ metric: "exact", human: null, comparison: null, includePaperRows: false });
    expect(empty.rows).toEqual([]);
    const onlyT1 = summarizeHumanResults(
      HUMANS.filter((r) => r.taskId === "translation"),
      { seed: 1, replicates: 50 },
    );
    if (!onlyT1.ok) throw new Error("fixture");
    const one = buildPaperTable({
      metric: "exact",
      human: onlyT1.value.overall,
      comparison: null,
      includePaperRows: false,
    });
    const line = formatPaperTableMarkdown(one)
      .split("\n")
      .find((l) => l.startsWith("| Human"))!;
    expect(
      line
        .split("|")
        .map((x) => x.trim())
        .filter(Boolean)
        .slice(2),
    ).toEqual(["–", "–", "–", "–", "–", "–", "–", "–", "–", "–"]);
    expect(line).toContain(`| ${formatPercent(onlyT1.value.overall.columns[0]!.exact.mean)}<br>[`);
  });
});
