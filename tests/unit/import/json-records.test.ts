import { describe, expect, it } from "vitest";
import { JsonRecordSplitter, JsonStructureError, LineSplitter, type JsonFragment } from "@/lib/import/json-records";

function splitAll(doc: string, chunkSize: number): JsonFragment[] {
  const s = new JsonRecordSplitter();
  const out: JsonFragment[] = [];
  for (let i = 0; i < doc.length; i += chunkSize) out.push(...s.push(doc.slice(i, i + chunkSize)));
  out.push(...s.end());
  return out;
}

describe("JSON record splitter", () => {
  const array =
    '[\n  {"id": 1, "q": "a, [b] {c}", "nested": {"x": [1, 2]}},\n  {"id": 2, "q": "quote \\" and \\\\"},\n  {"id": 3}\n]\n';

  it("returns each element of a top-level array with the line it starts on", () => {
    const out = splitAll(array, 1 << 20);
    expect(out.map((f) => JSON.parse(f.text))).toEqual(JSON.parse(array));
    expect(out.map((f) => f.line)).toEqual([2, 3, 4]);
    expect(out.every((f) => f.key === null && f.container === null)).toBe(true);
  });

  it("gives the same records however the text is chunked (every split point, including inside escapes)", () => {
    const expected = JSON.parse(array);
    for (let size = 1; size <= array.length; size++) {
      expect(splitAll(array, size).map((f) => JSON.parse(f.text))).toEqual(expected);
    }
  });

  it("reads arrays under top-level keys as records of that container, and object values as keyed records", () => {
    const doc = '{"version": 2, "test": [{"id": "t1"}, {"id": "t2"}], "train": [{"id": "r1"}]}';
    expect(splitAll(doc, 7).map((f) => [JSON.parse(f.text).id, f.container])).toEqual([
      ["t1", "test"],
      ["t2", "test"],
      ["r1", "train"],
    ]);
    const byId = '{"q1": {"question": "a"}, "q\\"2": {"question": "b"}}';
    expect(splitAll(byId, 3).map((f) => [f.key, JSON.parse(f.text).question])).toEqual([
      ["q1", "a"],
      ['q"2', "b"],
    ]);
  });

  it("passes scalars in a record array through (the importer reports them), and handles empty arrays", () => {
    expect(splitAll('[1, "x", null]', 2).map((f) => f.text)).toEqual(["1", '"x"', "null"]);
    expect(splitAll("[]", 1)).toEqual([]);
  });

  it("keeps a broken record as text so only that record is skipped", () => {
    const out = splitAll('[{"id": 1}, {"id": 2,}, {"id": 3}]', 4);
    expect(out).toHaveLength(3);
    expect(() => JSON.parse(out[1]!.text)).toThrow();
  });

  it("throws with the line for a truncated document or unbalanced brackets", () => {
    expect(() => splitAll('[\n{"id": 1},\n{"id": 2', 5)).toThrow(JsonStructureError);
    expect(() => splitAll('[\n{"id": 1},\n{"id": 2', 5)).toThrow(
      /unexpected end of the file inside the JSON document \(truncated\?\)/,
    );
    let error: unknown;
    try {
      splitAll('[\n{"id": 1}\n]]', 100);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonStructureError);
    expect((error as JsonStructureError).line).toBe(3);
    expect(() => splitAll("id,question\n1,x", 100)).toThrow(/expected '\[' or '\{' at the start/);
    expect(() => splitAll("   ", 100)).toThrow(/the file is empty/);
  });
});

describe("line splitter", () => {
  it("splits on \\n and \\r\\n across chunk boundaries, numbering lines from 1", () => {
    const text = "a\r\nbb\n\nccc\r\nlast";
    for (let size = 1; size <= text.length; size++) {
      const s = new LineSplitter();
      const lines = [];
      for (let i = 0; i < text.length; i += size) lines.push(...s.push(text.slice(i, i + size)));
      lines.push(...s.end());
      expect(lines).toEqual([
        { line: 1, text: "a" },
        { line: 2, text: "bb" },
        { line: 3, text: "" },
        { line: 4, text: "ccc" },
        { line: 5, text: "last" },
      ]);
    }
  });

  it("refuses a line longer than its limit", () => {
    const s = new LineSplitter(10);
    expect(() => s.push("x".repeat(11))).toThrow(/longer than/);
  });
});
