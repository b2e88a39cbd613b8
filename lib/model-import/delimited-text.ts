import { parse } from "csv-parse/sync";
import type { FileIssue } from "./types";

export interface DelimitedTable {
  header: string[];
  rows: { line: number; cells: string[] }[];
}

export type DelimitedResult = { ok: true; table: DelimitedTable } | { ok: false; errors: FileIssue[] };

interface ParsedRecord {
  record: string[];
  raw: string;
  info: { lines: number };
}

/** 1-based line where a record starts: csv-parse reports the line it ends on, and raw may carry skipped blank lines. */
function startLine(r: ParsedRecord): number {
  const body = r.raw.replace(/^(?:\r?\n)+/, "").replace(/\r?\n$/, "");
  return r.info.lines - (body.match(/\n/g)?.length ?? 0);
}

/**
 * Reads delimited text (pandas `to_csv` output: double-quoted cells where needed) into a header
 * and rows with their line numbers. A UTF-8 BOM is dropped. Quote errors fail the file with the line.
 */
export function readDelimitedText(file: string, text: string, delimiter: "\t" | ","): DelimitedResult {
  let records: ParsedRecord[];
  try {
    records = parse(text, {
      delimiter,
      bom: true,
      info: true,
      raw: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as ParsedRecord[];
  } catch (err) {
    const e = err as { message?: string; lines?: number };
    return {
      ok: false,
      errors: [
        {
          file,
          line: typeof e.lines === "number" ? e.lines : null,
          field: null,
          problem: `not readable as ${delimiter === "\t" ? "TSV" : "CSV"}: ${e.message ?? String(err)}`,
        },
      ],
    };
  }
  const [head, ...body] = records;
  if (head === undefined)
    return { ok: false, errors: [{ file, line: null, field: null, problem: "the file is empty" }] };
  return { ok: true, table: { header: head.record, rows: body.map((r) => ({ line: startLine(r), cells: r.record })) } };
}
