/**
 * Streaming splitters for record files, fed with text chunks of any size. Neither ever holds more
 * than one record (plus one chunk) in memory, so a multi-gigabyte file is read in constant memory.
 */

/** Longest line or JSON record accepted, in characters (a record with several base64 images fits). */
export const MAX_RECORD_CHARS = 64 * 1024 * 1024;

export class RecordTooLargeError extends Error {
  constructor(readonly line: number) {
    super(`a record starting on line ${line} is longer than ${MAX_RECORD_CHARS} characters`);
  }
}

export interface TextLine {
  /** 1-based line number. */
  line: number;
  text: string;
}

/** Splits text into lines (\n, \r\n; a lone \r inside a line is kept). */
export class LineSplitter {
  private partial: string[] = [];
  private partialLength = 0;
  private lineNumber = 1;

  constructor(private readonly maxChars = MAX_RECORD_CHARS) {}

  push(chunk: string): TextLine[] {
    const out: TextLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf("\n", start);
      if (nl === -1) break;
      const piece = chunk.slice(start, nl);
      this.partial.push(piece);
      const text = this.partial.join("");
      this.partial = [];
      this.partialLength = 0;
      out.push({ line: this.lineNumber, text: text.endsWith("\r") ? text.slice(0, -1) : text });
      this.lineNumber += 1;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.slice(start);
      this.partialLength += rest.length;
      if (this.partialLength > this.maxChars) throw new RecordTooLargeError(this.lineNumber);
      this.partial.push(rest);
    }
    return out;
  }

  end(): TextLine[] {
    if (this.partial.length === 0) return [];
    const text = this.partial.join("");
    this.partial = [];
    return [{ line: this.lineNumber, text: text.endsWith("\r") ? text.slice(0, -1) : text }];
  }
}

/** One record of a JSON document: its source text, where it starts, and the keys that led to it. */
export interface JsonFragment {
  text: string;
  line: number;
  /** The record's key in a top-level object (`{"q1": {...}}`), if any. */
  key: string | null;
  /** The top-level key of the array holding the record (`{"questions": [...]}`), if any. */
  container: string | null;
}

export class JsonStructureError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

interface Frame {
  type: "{" | "[";
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** Arrays whose elements are records. */
  records: boolean;
  /** For record arrays inside the top-level object: the key holding the array. */
  containerKey: string | null;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d, 0xfeff]);

/**
 * Splits a JSON document into records without parsing it whole. Records are the elements of a
 * top-level array (`[{...}, ...]`), the elements of arrays under a top-level object's keys
 * (`{"data": [...], "test": [...]}`), or the object values of a top-level object
 * (`{"q1": {...}, "q2": {...}}`, pandas' orient="index"). Scalars beside them are metadata and are
 * ignored. Each fragment is parsed later on its own, so a broken record skips only itself; a broken
 * structure (unbalanced brackets, a truncated file) throws JsonStructureError.
 */
export class JsonRecordSplitter {
  private readonly stack: Frame[] = [];
  private started = false;
  private finished = false;
  private inString = false;
  private escaped = false;
  private line = 1;
  private keyCapture: string[] | null = null;
  private currentKey: string | null = null;
  private capture: {
    parentDepth: number;
    parts: string[];
    length: number;
    line: number;
    key: string | null;
    container: string | null;
  } | null = null;
  private captureStart = 0;

  push(chunk: string): JsonFragment[] {
    const out: JsonFragment[] = [];
    this.captureStart = 0;
    let keyStart = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.keyCapture) {
            this.keyCapture.push(chunk.slice(keyStart, i));
            this.currentKey = this.decodeKey(this.keyCapture.join(""));
            this.keyCapture = null;
          }
        } else if (c === 0x0a) this.line += 1;
        continue;
      }
      if (c === 0x0a) {
        this.line += 1;
        continue;
      }
      if (WS.has(c)) continue;
      if (this.finished)
        throw new JsonStructureError(this.line, `unexpected '${chunk[i]}' after the end of the JSON document`);
      const depth = this.stack.length;
      const top = this.stack[depth - 1];
      if (!this.started) {
        if (c !== 0x5b && c !== 0x7b)
          throw new JsonStructureError(
            this.line,
            `expected '[' or '{' at the start of the document, found '${chunk[i]}'`,
          );
        this.started = true;
        this.stack.push({
          type: c === 0x5b ? "[" : "{",
          expectKey: c === 0x7b,
          records: c === 0x5b,
          containerKey: null,
        });
        continue;
      }
      // Closing a frame or separating values may end a capture.
      if (c === 0x2c || c === 0x5d || c === 0x7d) {
        if (this.capture && depth === this.capture.parentDepth) out.push(this.endCapture(chunk, i));
        if (c === 0x2c) {
          if (top?.type === "{") top.expectKey = true;
          continue;
        }
        const closing = c === 0x5d ? "[" : "{";
        if (!top || top.type !== closing) throw new JsonStructureError(this.line, `unbalanced '${chunk[i]}'`);
        this.stack.pop();
        if (this.stack.length === 0) this.finished = true;
        continue;
      }
      if (c === 0x3a) {
        if (top?.type === "{") top.expectKey = false;
        continue;
      }
      // A value (or key) starts here.
      if (c === 0x22 && top?.type === "{" && top.expectKey) {
        this.inString = true;
        if (depth === 1) {
          this.keyCapture = [];
          keyStart = i + 1;
        }
        continue;
      }
      if (!this.capture) {
        if (top?.records) this.startCapture(i, depth, null, top.containerKey);
        else if (depth === 1 && top?.type === "{") {
          if (c === 0x7b) this.startCapture(i, depth, this.currentKey, null);
          else if (c === 0x5b) {
            this.stack.push({ type: "[", expectKey: false, records: true, containerKey: this.currentKey });
            continue;
          }
        }
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b)
        this.stack.push({ type: c === 0x5b ? "[" : "{", expectKey: c === 0x7b, records: false, containerKey: null });
    }
    if (this.keyCapture) this.keyCapture.push(chunk.slice(keyStart));
    if (this.capture) this.appendCapture(chunk.slice(this.captureStart));
    return out;
  }

  /** Checks the document ended properly; a truncated file throws. */
  end(): JsonFragment[] {
    if (!this.started) throw new JsonStructureError(this.line, "the file is empty: expected a JSON array or object");
    if (!this.finished)
      throw new JsonStructureError(this.line, "unexpected end of the file inside the JSON document (truncated?)");
    return [];
  }

  private decodeKey(raw: string): string {
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return raw;
    }
  }

  private startCapture(i: number, parentDepth: number, key: string | null, container: string | null) {
    this.capture = { parentDepth, parts: [], length: 0, line: this.line, key, container };
    this.captureStart = i;
  }

  private appendCapture(text: string) {
    const capture = this.capture!;
    capture.length += text.length;
    if (capture.length > MAX_RECORD_CHARS) throw new RecordTooLargeError(capture.line);
    capture.parts.push(text);
  }

  private endCapture(chunk: string, i: number): JsonFragment {
    this.appendCapture(chunk.slice(this.captureStart, i));
    const capture = this.capture!;
    this.capture = null;
    return { text: capture.parts.join("").trim(), line: capture.line, key: capture.key, container: capture.container };
  }
}
