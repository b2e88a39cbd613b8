import { readDelimitedText } from "./delimited-text";
import { readPredictionTable } from "./table-rows";
import type { PredictionFileResult } from "./types";

/** The simplest format: a CSV with a header `item_id,prediction` (item id or external id; extra columns ignored). */
export function parsePlainCsv(file: string, text: string): PredictionFileResult {
  const table = readDelimitedText(file, text, ",");
  if (!table.ok) return { ok: false, format: "plain-csv", errors: table.errors };
  return readPredictionTable(file, table.table.header, table.table.rows, {
    format: "plain-csv",
    keyColumns: ["item_id"],
    predictionColumn: "prediction",
  });
}
