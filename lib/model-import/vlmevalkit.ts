import ExcelJS from "exceljs";
import { zipInflatedSize } from "@/lib/import/zip-inflated-size";
import { readDelimitedText } from "./delimited-text";
import { readPredictionTable, type TableSpec } from "./table-rows";
import type { FileIssue, PredictionFileResult } from "./types";

/**
 * VLMEvalKit prediction files: the dataset's rows without the images plus a `prediction` column,
 * saved as xlsx (the default), tsv or csv (`{model}_{dataset}.xlsx` under outputs/). Matching uses
 * `index`; `answer` is the dataset's own correct answer (compared with our gold as a check) and
 * `category` its task label.
 */
const VLMEVALKIT_SPEC = {
  keyColumns: ["index"],
  predictionColumn: "prediction",
  referenceColumn: "answer",
  categoryColumn: "category",
} as const;

export function parseVlmevalkitDelimited(file: string, text: string, delimiter: "\t" | ","): PredictionFileResult {
  const format = delimiter === "\t" ? "vlmevalkit-tsv" : "vlmevalkit-csv";
  const table = readDelimitedText(file, text, delimiter);
  if (!table.ok) return { ok: false, format, errors: table.errors };
  const spec: TableSpec = { format, ...VLMEVALKIT_SPEC };
  return readPredictionTable(file, table.table.header, table.table.rows, spec);
}

/** Text of an exceljs cell value: numbers and dates as text, rich text joined, formulas by their cached result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((r) => r.text).join("");
    if ("result" in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ("text" in value && typeof value.text === "string") return value.text;
    if ("error" in value) return "";
  }
  return String(value);
}

/**
 * Most bytes an xlsx workbook may declare uncompressed (its XML parts): a full MiSI-Bench test split of predictions is
 * a few MB; a 2.6 MB "xlsx bomb" declared gigabytes, which the workbook reader inflates in memory.
 */
export const DEFAULT_MAX_XLSX_INFLATED_BYTES = 256 * 1024 ** 2;

/** Reads the first worksheet of an xlsx file (header in row 1) as VLMEvalKit predictions. */
export async function parseVlmevalkitXlsx(
  file: string,
  bytes: Uint8Array,
  maxInflatedBytes = DEFAULT_MAX_XLSX_INFLATED_BYTES,
): Promise<PredictionFileResult> {
  const format = "vlmevalkit-xlsx";
  let inflated: number;
  try {
    inflated = await zipInflatedSize(bytes);
  } catch (err) {
    return {
      ok: false,
      format,
      errors: [
        {
          file,
          line: null,
          field: null,
          problem: `not a readable xlsx workbook: ${err instanceof Error ? err.message : String(err)}`,
        },
      ],
    };
  }
  if (inflated > maxInflatedBytes) {
    return {
      ok: false,
      format,
      errors: [
        {
          file,
          line: null,
          field: null,
          problem: `the workbook expands to ${inflated} bytes, more than the limit of ${maxInflatedBytes} bytes (MODEL_XLSX_MAX_INFLATED_BYTES); refused unread`,
        },
      ],
    };
  }
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings predate Node's generic Buffer; the bytes are passed through unchanged.
    await workbook.xlsx.load(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer,
    );
  } catch (err) {
    return {
      ok: false,
      format,
      errors: [
        {
          file,
          line: null,
          field: null,
          problem: `not a readable xlsx workbook: ${err instanceof Error ? err.message : String(err)}`,
        },
      ],
    };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet)
    return { ok: false, format, errors: [{ file, line: null, field: null, problem: "the workbook has no worksheet" }] };
  const errors: FileIssue[] = [];
  let header: string[] = [];
  const rows: { line: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    // row.values is 1-based (index 0 is empty).
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    const cells = values.map((v) => cellText(v as ExcelJS.CellValue));
    if (rowNumber === 1) header = cells;
    else rows.push({ line: rowNumber, cells });
  });
  if (header.length === 0)
    errors.push({ file, line: 1, field: null, problem: "row 1 of the first worksheet must be the header" });
  if (errors.length > 0) return { ok: false, format, errors };
  return readPredictionTable(file, header, rows, { format, ...VLMEVALKIT_SPEC });
}
