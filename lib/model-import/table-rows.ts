import type { FileIssue, PredictionFormat, PredictionFileResult, PredictionRow } from "./types";

/**
 * Shared reading of a header + rows table (VLMEvalKit TSV/CSV/XLSX, plain CSV) into prediction rows.
 * Header names are matched case-insensitively after trimming.
 */
export interface TableSpec {
  format: PredictionFormat;
  /** Accepted header names for the item key, first found wins. */
  keyColumns: readonly string[];
  predictionColumn: string;
  referenceColumn?: string;
  categoryColumn?: string;
}

/** pandas writes a missing value as an empty cell, or "nan" when the column was stringified first. */
function cleanCell(value: string | undefined): string {
  const v = (value ?? "").trim();
  return v.toLowerCase() === "nan" ? "" : v;
}

/**
 * Maps a table to prediction rows. A missing key or prediction column fails the file; a row
 * without a key, or repeating an earlier key, is skipped and reported; an empty prediction is kept
 * (the model gave no answer, which scores as unparseable).
 */
export function readPredictionTable(
  file: string,
  header: readonly string[],
  rows: readonly { line: number; cells: readonly string[] }[],
  spec: TableSpec,
): PredictionFileResult {
  const names = header.map((h) => h.trim().toLowerCase());
  const find = (name: string | undefined) => (name === undefined ? -1 : names.indexOf(name.toLowerCase()));
  const keyName = spec.keyColumns.find((k) => find(k) >= 0);
  const errors: FileIssue[] = [];
  if (keyName === undefined) {
    errors.push({
      file,
      line: 1,
      field: spec.keyColumns[0] ?? null,
      problem: `missing column ${spec.keyColumns.map((k) => `'${k}'`).join(" or ")} (columns are: ${header.join(", ")})`,
    });
  }
  const predictionAt = find(spec.predictionColumn);
  if (predictionAt < 0) {
    errors.push({
      file,
      line: 1,
      field: spec.predictionColumn,
      problem: `missing column '${spec.predictionColumn}' (columns are: ${header.join(", ")})`,
    });
  }
  if (errors.length > 0 || keyName === undefined) return { ok: false, format: spec.format, errors };
  const keyAt = find(keyName);
  const referenceAt = find(spec.referenceColumn);
  const categoryAt = find(spec.categoryColumn);

  const out: PredictionRow[] = [];
  const skipped: FileIssue[] = [];
  const seen = new Map<string, number>();
  for (const { line, cells } of rows) {
    if (cells.every((c) => c.trim() === "")) continue;
    const key = cleanCell(cells[keyAt]);
    if (key === "") {
      skipped.push({ file, line, field: keyName, problem: `empty ${keyName}: the row cannot be matched to an item` });
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      skipped.push({
        file,
        line,
        field: keyName,
        problem: `${keyName} '${key}' repeats line ${earlier}; only the first prediction is used`,
      });
      continue;
    }
    seen.set(key, line);
    const row: PredictionRow = { line, key, keyField: keyName, prediction: cleanCell(cells[predictionAt]) };
    const reference = referenceAt >= 0 ? cleanCell(cells[referenceAt]) : "";
    if (reference !== "") row.reference = reference;
    const category = categoryAt >= 0 ? cleanCell(cells[categoryAt]) : "";
    if (category !== "") row.category = category;
    out.push(row);
  }
  if (out.length === 0 && skipped.length === 0) {
    return {
      ok: false,
      format: spec.format,
      errors: [{ file, line: null, field: null, problem: "the file has a header but no prediction rows" }],
    };
  }
  return { ok: true, format: spec.format, rows: out, skipped, warnings: [] };
}
