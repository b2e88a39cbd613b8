import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  FileReadError,
  readDelimitedRows,
  readJsonRecords,
  readJsonlRecords,
} from "@/lib/server/import/record-readers";

/**
 * A lazily produced byte stream that remembers, for each chunk it hands out, how many records the
 * consumer had already finished. A reader that collected the whole file first would have finished
 * none when the last chunk was produced.
 */
function lazySource(chunks: number, makeChunk: (i: number) => string, consumed: () => number) {
  const seenAtChunk: number[] = [];
  let bytes = 0;
  const stream = Readable.from(
    (function* () {
      for (let i = 0; i < chunks; i++) {
        seenAtChunk.push(consumed());
        const buf = Buffer.from(makeChunk(i));
        bytes += buf.length;
        yield buf;
      }
    })(),
  );
  return { stream, seenAtChunk, bytes: () => bytes };
}

const CHUNKS = 400;
const LINES_PER_CHUNK = 200;
const TOTAL = CHUNKS * LINES_PER_CHUNK;
/** Larger than any buffer on the way (stream high-water marks are 16 KB / 16 objects): 5+ MB. */
const MIN_STREAMED_BYTES = 5 * 1024 * 1024;

describe("streaming readers", () => {
  it("yields JSONL records while the file is still being produced", async () => {
    let consumed = 0;
    const src = lazySource(
      CHUNKS,
      (i) =>
        Array.from({ length: LINES_PER_CHUNK }, (_, k) =>
          JSON.stringify({ id: i * LINES_PER_CHUNK + k, pad: "x".repeat(60) }),
        ).join("\n") + "\n",
      () => consumed,
    );
    let lastId = -1;
    let bad = 0;
    for await (const rec of readJsonlRecords(src.stream)) {
      if (rec.ok) lastId = (rec.value as { id: number }).id;
      else bad += 1;
      consumed += 1;
    }
    expect(bad).toBe(0);
    expect(consumed).toBe(TOTAL);
    expect(lastId).toBe(TOTAL - 1);
    expect(src.bytes()).toBeGreaterThan(MIN_STREAMED_BYTES);
    // When the last chunk was produced, nearly all earlier records had been handled.
    expect(src.seenAtChunk.at(-1)!).toBeGreaterThan(TOTAL * 0.9);
  });

  it("streams a JSON array the same way, with start lines", async () => {
    let consumed = 0;
    const src = lazySource(
      CHUNKS,
      (i) =>
        (i === 0 ? "[\n" : "") +
        Array.from(
          { length: LINES_PER_CHUNK },
          (_, k) => `${i === 0 && k === 0 ? "" : ",\n"}{"id": ${i * LINES_PER_CHUNK + k}, "pad": "${"y".repeat(60)}"}`,
        ).join("") +
        (i === CHUNKS - 1 ? "\n]\n" : ""),
      () => consumed,
    );
    let misplaced = 0;
    for await (const rec of readJsonRecords(src.stream)) {
      if (!rec.ok) throw new Error(rec.problem);
      if (rec.line !== consumed + 2) misplaced += 1;
      consumed += 1;
    }
    expect(misplaced).toBe(0);
    expect(consumed).toBe(TOTAL);
    expect(src.bytes()).toBeGreaterThan(MIN_STREAMED_BYTES);
    expect(src.seenAtChunk.at(-1)!).toBeGreaterThan(TOTAL * 0.9);
  });

  it("streams TSV rows through csv-parse", async () => {
    let consumed = 0;
    const src = lazySource(
      CHUNKS,
      (i) =>
        (i === 0 ? "index\tquestion\n" : "") +
        Array.from({ length: LINES_PER_CHUNK }, (_, k) => `${i * LINES_PER_CHUNK + k}\t${"z".repeat(80)}`).join("\n") +
        "\n",
      () => consumed,
    );
    let bad = 0;
    for await (const row of readDelimitedRows(src.stream, "\t")) {
      if (!row.ok || row.cells.length !== 2) bad += 1;
      consumed += 1;
    }
    expect(bad).toBe(0);
    expect(consumed).toBe(TOTAL + 1);
    expect(src.bytes()).toBeGreaterThan(MIN_STREAMED_BYTES);
    expect(src.seenAtChunk.at(-1)!).toBeGreaterThan(TOTAL * 0.9);
  });
});

describe("line numbers and broken input", () => {
  it("numbers TSV rows by the line they start on, across quoted newlines and blank lines", async () => {
    const tsv = 'index\tquestion\n1\t"two\nlines"\n\n2\tplain\n3\t"a ""quoted"" word"\n';
    const rows = [];
    for await (const r of readDelimitedRows(Readable.from([Buffer.from(tsv)]), "\t")) rows.push(r);
    expect(rows).toEqual([
      { line: 1, ok: true, cells: ["index", "question"] },
      { line: 2, ok: true, cells: ["1", "two\nlines"] },
      { line: 5, ok: true, cells: ["2", "plain"] },
      { line: 6, ok: true, cells: ["3", 'a "quoted" word'] },
    ]);
  });

  it("keeps atom names with primes in unquoted cells", async () => {
    const rows = [];
    for await (const r of readDelimitedRows(Readable.from([Buffer.from("a\tb\nO5'\tC1''\n")]), "\t")) rows.push(r);
    expect(rows[1]).toEqual({ line: 2, ok: true, cells: ["O5'", "C1''"] });
  });

  it("skips a bad JSONL line with its number and reads on; strips a UTF-8 BOM", async () => {
    const out = [];
    for await (const r of readJsonlRecords(Readable.from([Buffer.from('\uFEFF{"a":1}\n{oops\n\n{"a":3}\n')])))
      out.push(r);
    expect(out.map((r) => [r.line, r.ok])).toEqual([
      [1, true],
      [2, false],
      [4, true],
    ]);
  });

  it("fails the file on a truncated JSON document, with the line", async () => {
    const read = async () => {
      for await (const _ of readJsonRecords(Readable.from([Buffer.from('[{"a":1},\n{"a":2')]))) {
        // drain
      }
    };
    await expect(read()).rejects.toBeInstanceOf(FileReadError);
    await expect(read()).rejects.toThrow(/truncated/);
  });

  it("decodes UTF-8 split across chunks", async () => {
    const bytes = Buffer.from('{"q":"Å–ß"}\n');
    const out = [];
    for await (const r of readJsonlRecords(Readable.from([...bytes].map((b) => Buffer.from([b]))))) out.push(r);
    expect(out).toEqual([{ line: 1, ok: true, value: { q: "Å–ß" }, key: null, container: null }]);
  });
});
