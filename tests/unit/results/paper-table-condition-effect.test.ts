import { describe, expect, it } from "vitest";
import { formatConditionEffect, formatPp } from "@/lib/results/condition-effect";
import {
  buildPaperTable,
  formatPaperTableLatex,
  formatPaperTableMarkdown,
  PAPER_TABLE_HEADERS,
} from "@/lib/results/paper-table";
import { paperTableCsvRecords } from "@/lib/export/paper-table-csv";
import type { ResponseRecord } from "@/lib/results/response-records";
import { formatFractionAsPercent } from "@/lib/results/rounding";
import { summarizeHumanResults } from "@/lib/results/summarize";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";

// P1, P2 static; P3, P4 interactive; three items per column; exact = ((2·participant + item + column) mod 5) < 3.
const HUMANS: ResponseRecord[] = RESULT_COLUMN_KEYS.flatMap((column, ci) => {
  const def = RESULT_COLUMNS[column];
  return ["P1", "P2", "P3", "P4"].flatMap((participantId, pi) =>
    [0, 1, 2].map((i) => {
      const exact = ((pi * 2 + i + ci) % 5 < 3 ? 1 : 0) as 0 | 1;
      return {
        participantId,
        itemId: `${column}-${i}`,
        taskId: def.taskId,
        ...(def.t4Polarity ? { t4Polarity: def.t4Polarity } : {}),
        exact,
        partial: exact,
        condition: pi < 2 ? "static" : "interactive",
        cohort: "crowd",
      };
    }),
  );
});

const summarized = summarizeHumanResults(HUMANS, { seed: "pt-effect", replicates: 300 });
if (!summarized.ok) throw new Error("fixture");
const SUMMARY = summarized.value;
const EFFECT = SUMMARY.conditionEffect;

function latexCells(line: string): string[] {
  return line
    .replace(/\\\\$/, "")
    .split(/(?<!\\)&/)
    .map((c) => c.trim());
}

describe("paper tables: the condition-effect row block", () => {
  const base = { metric: "exact" as const, human: SUMMARY.overall, comparison: null };
  const plain = buildPaperTable(base);
  const withEffect = buildPaperTable({ ...base, conditionEffect: EFFECT });

  it("adds one last row to Table 2 and leaves every existing row as it was", () => {
    expect(withEffect.rows.slice(0, -1)).toEqual(plain.rows);
    const row = withEffect.rows.at(-1)!;
    expect(row).toMatchObject({
      kind: "effect",
      label: "Human: interactive − static (pp)",
      average: null,
      asPrinted: false,
    });
    // Hand count: Trans static P1 3/3 + P2 1/3, interactive P3 2/3 + P4 2/3 → 4/6 − 4/6 = 0.
    // Rot static P1 2/3 + P2 1/3 = 3/6, interactive P3 3/3 + P4 1/3 = 4/6 → +1/6.
    expect(row.cells.translation!.value).toBe(0);
    expect(row.cells.rotation!.value).toBeCloseTo(1 / 6, 15);
    for (const c of EFFECT.columns)
      expect(row.cells[c.column]).toEqual({ value: c.effect.estimate, low: c.effect.low, high: c.effect.high });
    expect(row.note).toBe(`All tasks pooled: ${formatConditionEffect(EFFECT.overall)}`);
    expect(withEffect.notes.at(-1)).toMatch(/95% Welch t interval on participants, about this study's questions/);
  });

  it("is left out of Table 1, of the fair-score tables and when one condition is missing", () => {
    expect(
      buildPaperTable({ ...base, metric: "partial", conditionEffect: EFFECT }).rows.some((r) => r.kind === "effect"),
    ).toBe(false);
    expect(
      buildPaperTable({ ...base, scoreKind: "fair", conditionEffect: EFFECT }).rows.some((r) => r.kind === "effect"),
    ).toBe(false);
    const oneCondition = summarizeHumanResults(
      HUMANS.filter((r) => r.condition === "static"),
      { seed: "x", replicates: 50 },
    );
    if (!oneCondition.ok) throw new Error("fixture");
    expect(
      buildPaperTable({ ...base, conditionEffect: oneCondition.value.conditionEffect }).rows.some(
        (r) => r.kind === "effect",
      ),
    ).toBe(false);
  });

  it("prints signed differences with their intervals in LaTeX, Markdown and CSV", () => {
    const tex = formatPaperTableLatex(withEffect).split("\n");
    const header = latexCells(tex.find((l) => l.startsWith("Model &"))!);
    const at = header.indexOf("Rot");
    const i = tex.findIndex((l) => l.startsWith("Human: interactive $-$ static (pp) &"));
    expect(i).toBeGreaterThan(0);
    expect(tex[i - 1]).toBe("\\midrule");
    const cells = latexCells(tex[i]!);
    expect(cells).toHaveLength(PAPER_TABLE_HEADERS.length + 1);
    expect(cells[at]).toBe("$+$16.7");
    expect(cells[header.indexOf("Trans")]).toBe("0.0");
    expect(cells.at(-1)).toBe("--");
    const rot = EFFECT.columns.find((c) => c.column === "rotation")!.effect;
    const sign = (x: number) => formatPp(x).replace("−", "$-$").replace("+", "$+$");
    expect(latexCells(tex[i + 1]!)[at]).toBe(`{\\scriptsize [${sign(rot.low!)}, ${sign(rot.high!)}]}`);

    const md = formatPaperTableMarkdown(withEffect)
      .split("\n")
      .find((l) => l.startsWith("| Human: interactive − static (pp) |"))!;
    expect(md.split(" | ")[at]).toBe(`+16.7<br>[${formatPp(rot.low!)}, ${formatPp(rot.high!)}]`);

    const records = paperTableCsvRecords([withEffect]);
    const rec = records.find((r) => r[3] === "Human: interactive − static (pp)")!;
    const col = records[0]!.indexOf("Rot");
    expect(rec.slice(col, col + 3)).toEqual([
      "16.7",
      formatFractionAsPercent(rot.low!),
      formatFractionAsPercent(rot.high!),
    ]);
    expect(rec.at(-1)).toBe(`All tasks pooled: ${formatConditionEffect(EFFECT.overall)}`);
    expect(records).toHaveLength(paperTableCsvRecords([plain]).length + 1);
  });
});
