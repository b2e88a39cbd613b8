import type { Structure } from "../types";

/** Where and why a file could not be read. Lines and columns are 1-based; line 0 means "the whole file". */
export interface ParseError {
  fileName: string;
  line: number;
  /** First column of the offending field, when the format has fixed columns. */
  column?: number;
  /** Name of the field or record, e.g. "x coordinate (columns 31-38)", "counts line". */
  field?: string;
  reason: string;
}

export type ParseResult = { ok: true; structure: Structure } | { ok: false; error: ParseError };

/** "ligand.sdf:5:32: element symbol (columns 32-34): unknown element "Xx"" */
export function formatParseError(error: ParseError): string {
  const where = [error.fileName, error.line > 0 ? String(error.line) : null, error.column ? String(error.column) : null]
    .filter((part): part is string => part !== null)
    .join(":");
  return `${where}: ${error.field ? `${error.field}: ` : ""}${error.reason}`;
}

/** Internal helper: parsers throw this inside their loop and convert it to a ParseResult at the top. */
export class ParseFailure extends Error {
  constructor(readonly detail: ParseError) {
    super(formatParseError(detail));
  }
}

/** Runs a parser body, turning ParseFailure into `{ ok: false }`; other exceptions are bugs and propagate. */
export function runParser(body: () => Structure): ParseResult {
  try {
    return { ok: true, structure: body() };
  } catch (e) {
    if (e instanceof ParseFailure) return { ok: false, error: e.detail };
    throw e;
  }
}

const FLOAT_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INT_PATTERN = /^[+-]?\d+$/;

/** Strict float: the whole (trimmed) text must be a number. Number("") is 0, so we never use it bare. */
export function parseStrictFloat(text: string): number | null {
  const t = text.trim();
  return FLOAT_PATTERN.test(t) ? Number(t) : null;
}

export function parseStrictInt(text: string): number | null {
  const t = text.trim();
  return INT_PATTERN.test(t) ? Number(t) : null;
}

/** Splits text into lines, accepting \n, \r\n and \r. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
