/**
 * Spreadsheet formula injection (CSV injection): a cell whose text starts with = + - @ tab or CR may
 * be run as a formula when the file is opened in Excel, LibreOffice or Google Sheets (OWASP,
 * "CSV Injection"). Such cells get a leading apostrophe, which spreadsheets treat as "text, not a
 * formula" and hide. Plain numbers (-4, +2.5, -1e-3) are left alone so they stay numeric: a
 * negative distance is data, not an attack.
 *
 * csv-stringify's own `escape_formulas` option is not used because it would also turn -4 into '-4.
 */

/** First characters that make a spreadsheet read a cell as a formula. */
export const FORMULA_TRIGGER_CHARS: readonly string[] = ["=", "+", "-", "@", "\t", "\r"];

/** A number as spreadsheets read it: optional sign, digits with an optional fraction, optional exponent. */
const PLAIN_NUMBER_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True for text a spreadsheet reads as a plain number (and therefore never as a formula). */
export function isPlainNumber(text: string): boolean {
  return PLAIN_NUMBER_PATTERN.test(text);
}

/** Prefixes an apostrophe to text a spreadsheet would run as a formula; plain numbers pass unchanged. */
export function neutralizeFormula(text: string): string {
  const first = text[0];
  if (first === undefined || !FORMULA_TRIGGER_CHARS.includes(first)) return text;
  return isPlainNumber(text) ? text : `'${text}`;
}

/** What a column getter may return. */
export type CellValue = string | number | boolean | Date | null | undefined | object;

export interface FormatCellOptions {
  /** Off only for files meant for programs, never spreadsheets (the VLMEvalKit TSV). Default on. */
  neutralizeFormulas?: boolean;
}

/**
 * The text of one cell: empty for null/undefined/NaN, decimal text for numbers, 1/0 for
 * booleans, UTC "YYYY-MM-DD HH:MM:SS.mmm" for dates, JSON for objects and arrays; then formula-neutralised.
 */
export function formatCell(value: CellValue, options: FormatCellOptions = {}): string {
  const guard = options.neutralizeFormulas === false ? (t: string) => t : neutralizeFormula;
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "1" : "0";
  // ISO 8601 with a space for the "T" and no "Z": the form R's as.POSIXct(x, tz = "UTC") and pandas read to the
  // millisecond without a format (R drops the time of "…T…Z" silently); the unit of every datetime column says UTC.
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? "" : value.toISOString().replace("T", " ").slice(0, -1);
  if (typeof value === "string") return guard(value);
  return guard(JSON.stringify(value));
}
