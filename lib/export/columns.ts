import { formatCell, type CellValue, type FormatCellOptions } from "./csv-cell";

/** How a column's text is to be read. */
export type ColumnType = "string" | "integer" | "number" | "boolean" | "datetime" | "json";

/**
 * One exported column, declared as data (like jsPsych's `data` info on a plugin): the header, the
 * type, a description for the codebook and the getter. The codebook is generated from these same
 * objects, so a column cannot be exported without being described.
 */
export interface ExportColumn<Row> {
  /** Stable snake_case header. Never rename one; add a new column instead. */
  key: string;
  type: ColumnType;
  /** What the value means, for the codebook. */
  description: string;
  /** Unit of a numeric column (ms, Å, fraction in [0, 1]…). */
  unit?: string;
  /** The closed set of values of a categorical column. */
  values?: readonly string[];
  get(row: Row): CellValue;
}

/** A CSV file's definition: its columns plus what one row is. */
export interface ExportTable<Row> {
  /** Stable id, also the codebook's `table` value and the file-name stem. */
  id: string;
  title: string;
  /** What one row is and which rows are included. */
  description: string;
  columns: readonly ExportColumn<Row>[];
}

/** Declares a table (a typed identity helper so columns are checked against the row type). */
export function defineExportTable<Row>(table: ExportTable<Row>): ExportTable<Row> {
  const seen = new Set<string>();
  for (const column of table.columns) {
    // snake_case, except where a consumer fixes the header (VLMEvalKit's option columns A–D).
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(column.key))
      throw new Error(`export table ${table.id}: column key '${column.key}' is not an identifier`);
    if (seen.has(column.key)) throw new Error(`export table ${table.id}: column '${column.key}' is declared twice`);
    seen.add(column.key);
  }
  return table;
}

export function listHeader<Row>(table: ExportTable<Row>): string[] {
  return table.columns.map((c) => c.key);
}

/** One row as cell texts, in column order (formula-neutralised unless the options turn it off). */
export function toCsvRecord<Row>(table: ExportTable<Row>, row: Row, options: FormatCellOptions = {}): string[] {
  return table.columns.map((c) => formatCell(c.get(row), options));
}
