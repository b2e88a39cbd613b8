import { formatFixed, toPercent } from "@/lib/results/rounding";
import {
  type PaperTable,
  type PaperTableFormatOptions,
  averageText,
  cellText,
  intervalDigits,
  PAPER_TABLE_SCORE_KINDS,
} from "@/lib/results/paper-table";
import { INTERVAL_RULE_NOTE } from "@/lib/results/interval-rule";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";
import { neutralizeFormula } from "./csv-cell";

/** A column of the paper-table CSV as the codebook describes it (the CSV's header is made from these keys). */
export interface PaperTableCsvColumn {
  key: string;
  type: "string" | "number";
  unit?: string;
  values?: readonly string[];
  description: string;
}

const PERCENT = "percent";

/**
 * The paper-table CSV's 37 columns in order: 5 labels, value / low / high for each of the 10 result columns, Avg and
 * note. paperTableCsvRecords writes its header from this list, and the codebook documents it, so the two cannot drift.
 */
export const PAPER_TABLE_CSV_COLUMNS: readonly PaperTableCsvColumn[] = [
  {
    key: "table",
    type: "string",
    values: ["Table 1", "Table 2"],
    description: "The paper's table this row belongs to: Table 1 (partial credit) or Table 2 (exact match).",
  },
  {
    key: "metric",
    type: "string",
    values: ["partial", "exact"],
    description: "Score of the row's cells: partial credit or exact match (spec §4).",
  },
  {
    key: "score_kind",
    type: "string",
    values: PAPER_TABLE_SCORE_KINDS,
    description:
      "paper: the paper's scoring; fair: chemically equivalent atom names count as one on ResLig and PocLig (the paper's published rows keep the paper score).",
  },
  {
    key: "row",
    type: "string",
    description:
      "Row label: 'Human (this study)', an imported model run's name, a model of the paper's published rows, or (Table 2, paper score, both conditions answered) 'Human: interactive − static (pp)', the condition effect.",
  },
  {
    key: "provenance",
    type: "string",
    values: ["this study", "imported run", "as reported", "as reported, full test set", "this study, condition effect"],
    description:
      "Where the row's numbers come from: this study's humans, an imported model run scored on the items the humans answered (item-matched), the paper's printed values on its own items, or this study's condition effect (interactive − static exact accuracy, crossed participant × item bootstrap; docs/condition-effect.md).",
  },
  ...RESULT_COLUMN_KEYS.flatMap((k): PaperTableCsvColumn[] => {
    const label = RESULT_COLUMNS[k].label;
    return [
      {
        key: label,
        type: "number",
        unit: PERCENT,
        description: `${label} (result column ${k}): the row's accuracy in percent, study rows rounded to 1 decimal (half away from zero, as on the results page), the paper's rows as printed (2 decimals); on the condition-effect row the difference in percentage points (negative when static is higher); empty when the row has no answers in this column.`,
      },
      {
        key: `${label} low`,
        type: "number",
        unit: PERCENT,
        description: `${label}: lower limit of the 95 % interval of the human row (percent) or of the condition-effect row (percentage points, Welch t interval on participants), with the decimals (1 to 3) needed for low and high to print differently; empty on other rows. Human row: ${INTERVAL_RULE_NOTE}`,
      },
      {
        key: `${label} high`,
        type: "number",
        unit: PERCENT,
        description: `${label}: upper limit of the human row's 95 % interval (as ${label} low).`,
      },
    ];
  }),
  {
    key: "Avg",
    type: "number",
    unit: PERCENT,
    description:
      "The paper's Avg: mean of Trans, Rot, Zoom, ResLig+, ResLig−, Dock, InterLoc and PocLig (TransRot and RotRot excluded); empty when one of them has no data and on the condition-effect row; the paper's rows carry their printed Avg.",
  },
  {
    key: "note",
    type: "string",
    description:
      "Footnote of a paper row (e.g. which item set it was reported on); on the condition-effect row the effect over all tasks pooled ('All tasks pooled: +4.2 pp [−1.0, +9.8]'); empty otherwise.",
  },
];

/** One CSV record per row: labels, then value / 95 % low / high per column (percent, same rounding), then Avg. */
export function paperTableCsvRecords(
  tables: readonly PaperTable[],
  options: Pick<PaperTableFormatOptions, "digits"> = {},
): string[][] {
  const digits = options.digits ?? 1;
  const header = PAPER_TABLE_CSV_COLUMNS.map((c) => c.key);
  const out: string[][] = [header];
  for (const t of tables) {
    for (const row of t.rows) {
      const rec = [t.paperTableName, t.metric, t.scoreKind, neutralizeFormula(row.label), row.provenance];
      for (const k of RESULT_COLUMN_KEYS) {
        const c = row.cells[k];
        const text = cellText(row, c, digits);
        rec.push(text === "–" ? "" : text);
        const d = c?.low === undefined || c.high === undefined ? digits : intervalDigits(c.low, c.high, digits);
        rec.push(c?.low === undefined ? "" : formatFixed(toPercent(c.low), d));
        rec.push(c?.high === undefined ? "" : formatFixed(toPercent(c.high), d));
      }
      const avg = averageText(row, digits);
      rec.push(avg === "–" ? "" : avg, neutralizeFormula(row.note ?? ""));
      out.push(rec);
    }
  }
  return out;
}
