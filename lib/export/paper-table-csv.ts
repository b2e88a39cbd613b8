import { formatFixed, toPercent } from "@/lib/results/rounding";
import { type PaperTable, type PaperTableFormatOptions, averageText, cellText, intervalDigits } from "@/lib/results/paper-table";
import { RESULT_COLUMN_KEYS, RESULT_COLUMNS } from "@/lib/results/task-columns";
import { neutralizeFormula } from "./csv-cell";

/** One CSV record per row: labels, then value / 95 % low / high per column (percent, same rounding), then Avg. */
export function paperTableCsvRecords(tables: readonly PaperTable[], options: Pick<PaperTableFormatOptions, "digits"> = {}): string[][] {
  const digits = options.digits ?? 1;
  const header = ["table", "metric", "score_kind", "row", "provenance"];
  for (const k of RESULT_COLUMN_KEYS) header.push(RESULT_COLUMNS[k].label, `${RESULT_COLUMNS[k].label} low`, `${RESULT_COLUMNS[k].label} high`);
  header.push("Avg", "note");
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
