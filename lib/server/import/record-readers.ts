import "server-only";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { parse as parseCsv } from "csv-parse";
import {
  JsonRecordSplitter,
  JsonStructureError,
  LineSplitter,
  MAX_RECORD_CHARS,
  RecordTooLargeError,
} from "@/lib/import/json-records";

/**
 * Line-by-line and record-by-record readers over byte streams. Each yields as soon as a record is
 * complete, so memory stays at one record plus one chunk whatever the file size.
 */

/** A problem that makes the rest of a file unreadable (broken JSON structure, unterminated quote). */
export class FileReadError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

async function* decodeChunks(stream: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let first = true;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let text = decoder.write(chunk);
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, "");
      first = false;
    }
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

export async function* readTextLines(stream: Readable): AsyncGenerator<{ line: number; text: string }> {
  const splitter = new LineSplitter();
  try {
    for await (const chunk of decodeChunks(stream)) yield* splitter.push(chunk);
    yield* splitter.end();
  } catch (e) {
    if (e instanceof RecordTooLargeError) throw new FileReadError(e.line, e.message);
    throw e;
  }
}

export type JsonRecordResult =
  | { line: number; ok: true; value: unknown; key: string | null; container: string | null }
  | { line: number; ok: false; problem: string };

/** JSON Lines: one JSON value per non-empty line. */
export async function* readJsonlRecords(stream: Readable): AsyncGenerator<JsonRecordResult> {
  for await (const { line, text } of readTextLines(stream)) {
    if (text.trim() === "") continue;
    try {
      yield { line, ok: true, value: JSON.parse(text), key: null, container: null };
    } catch (e) {
      yield { line, ok: false, problem: `not valid JSON: ${(e as Error).message}` };
    }
  }
}

/** A JSON document holding records (see JsonRecordSplitter for the accepted shapes). */
export async function* readJsonRecords(stream: Readable): AsyncGenerator<JsonRecordResult> {
  const splitter = new JsonRecordSplitter();
  const parse = (f: { text: string; line: number; key: string | null; container: string | null }): JsonRecordResult => {
    try {
      return { line: f.line, ok: true, value: JSON.parse(f.text), key: f.key, container: f.container };
    } catch (e) {
      return { line: f.line, ok: false, problem: `not valid JSON: ${(e as Error).message}` };
    }
  };
  try {
    for await (const chunk of decodeChunks(stream)) for (const f of splitter.push(chunk)) yield parse(f);
    for (const f of splitter.end()) yield parse(f);
  } catch (e) {
    if (e instanceof JsonStructureError) throw new FileReadError(e.line, e.message);
    if (e instanceof RecordTooLargeError) throw new FileReadError(e.line, e.message);
    throw e;
  }
}

export type DelimitedRow = { line: number; ok: true; cells: string[] } | { line: number; ok: false; problem: string };

/**
 * CSV or TSV rows (csv-parse, streaming). Quotes follow pandas' to_csv (a field with the delimiter,
 * a quote or a newline is quoted); stray quotes inside unquoted fields are kept (relax_quotes),
 * because atom names such as O5' appear unquoted. Rows are returned as cell arrays with the line
 * they start on; the caller checks them against the header.
 */
export async function* readDelimitedRows(stream: Readable, delimiter: "," | "\t"): AsyncGenerator<DelimitedRow> {
  const parser = parseCsv({
    delimiter,
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  stream.on("error", (e) => parser.destroy(e));
  stream.pipe(parser);
  let previousEnd = 0;
  try {
    for await (const out of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is the line the record ends on; a quoted field may span several lines.
      const end = out.info.lines;
      const spanned = out.record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
      const start = Math.max(previousEnd + 1, end - spanned);
      previousEnd = end;
      yield { line: start, ok: true, cells: out.record };
    }
  } catch (e) {
    const line =
      typeof (e as { lines?: unknown }).lines === "number" ? (e as { lines: number }).lines : previousEnd + 1;
    throw new FileReadError(
      line,
      `cannot read the ${delimiter === "\t" ? "TSV" : "CSV"} file: ${(e as Error).message}`,
    );
  }
}
