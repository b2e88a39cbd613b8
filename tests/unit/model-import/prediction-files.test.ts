import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { createItemMatcher } from "@/lib/model-import/match-items";
import { detectPredictionFormat, parsePredictionFile } from "@/lib/model-import/parse-prediction-file";
import type { PredictionFileResult } from "@/lib/model-import/types";

const enc = (text: string) => new TextEncoder().encode(text);

function ok(result: PredictionFileResult) {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

// pandas DataFrame.to_csv(sep="\t") style: quotes only where needed, NaN as an empty cell.
const VLMEVALKIT_TSV = [
  "index\tquestion\tA\tB\tC\tD\tanswer\tprediction\tcategory",
  "11\tWhich move?\t\t\t\t\tmove x 3\tmove x 3\ttranslation",
  '12\t"Which option?\nA. x"\tmove x 1, move y 1\tmove x 2, move y 1\tmove x 1, move y 2\tmove x 2, move y 2\tB\t"The answer is (B), because ""B"" is central."\tinteraction_location',
  "13\tWhich move?\t\t\t\t\tmove y -2\t\ttranslation",
  "\t\t\t\t\t\t\torphan\t",
  "11\tdup\t\t\t\t\t\tmove x 4\ttranslation",
  "14\tq\t\t\t\t\tNo\tnan\tresidue_ligand",
].join("\n");

describe("VLMEvalKit TSV", () => {
  it("reads rows with their lines, keeps multi-line quoted cells, and reports skipped rows", async () => {
    const result = ok(await parsePredictionFile({ fileName: "GPT4o_MiSI.tsv", bytes: enc(VLMEVALKIT_TSV) }));
    expect(result.format).toBe("vlmevalkit-tsv");
    expect(result.rows).toEqual([
      { line: 2, key: "11", keyField: "index", prediction: "move x 3", reference: "move x 3", category: "translation" },
      {
        line: 3,
        key: "12",
        keyField: "index",
        prediction: 'The answer is (B), because "B" is central.',
        reference: "B",
        category: "interaction_location",
      },
      { line: 5, key: "13", keyField: "index", prediction: "", reference: "move y -2", category: "translation" },
      { line: 8, key: "14", keyField: "index", prediction: "", reference: "No", category: "residue_ligand" },
    ]);
    expect(result.skipped).toEqual([
      { file: "GPT4o_MiSI.tsv", line: 6, field: "index", problem: "empty index: the row cannot be matched to an item" },
      {
        file: "GPT4o_MiSI.tsv",
        line: 7,
        field: "index",
        problem: "index '11' repeats line 2; only the first prediction is used",
      },
    ]);
  });

  it("fails the file, naming line 1 and the column, when prediction is missing", async () => {
    const result = await parsePredictionFile({ fileName: "x.tsv", bytes: enc("index\tanswer\n1\tA\n") });
    expect(result).toEqual({
      ok: false,
      format: "vlmevalkit-tsv",
      errors: [
        {
          file: "x.tsv",
          line: 1,
          field: "prediction",
          problem: "missing column 'prediction' (columns are: index, answer)",
        },
      ],
    });
  });
});

async function makeXlsx(rows: (string | number | null)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Sheet1");
  for (const row of rows) sheet.addRow(row);
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}

describe("VLMEvalKit xlsx", () => {
  it("reads the first sheet, numbers as text, rich text and empty cells", async () => {
    const bytes = await makeXlsx([
      ["index", "question", "A", "B", "C", "D", "answer", "prediction", "category"],
      [21, "q1", "x", "y", "z", "w", "C", "C", "rotation_rotation"],
      [22, "q2", null, null, null, null, "roll x 45", "Answer: roll x 45", "rotation"],
      [23, "q3", null, null, null, null, "No", null, "residue_ligand"],
    ]);
    const result = ok(await parsePredictionFile({ fileName: "Claude_MiSI.xlsx", bytes }));
    expect(result.format).toBe("vlmevalkit-xlsx");
    expect(result.rows).toEqual([
      { line: 2, key: "21", keyField: "index", prediction: "C", reference: "C", category: "rotation_rotation" },
      {
        line: 3,
        key: "22",
        keyField: "index",
        prediction: "Answer: roll x 45",
        reference: "roll x 45",
        category: "rotation",
      },
      { line: 4, key: "23", keyField: "index", prediction: "", reference: "No", category: "residue_ligand" },
    ]);
  });

  it("detects an xlsx by its zip signature even without the extension", async () => {
    const bytes = await makeXlsx([
      ["index", "prediction"],
      ["a", "B"],
    ]);
    expect(detectPredictionFormat("upload.bin", bytes)).toBe("vlmevalkit-xlsx");
  });

  it("refuses a workbook that declares more uncompressed bytes than the limit, before the workbook reader sees it", async () => {
    // One 1 MiB-wide cell: well-formed, small when zipped, over a 512 KiB limit once inflated.
    const bytes = await makeXlsx([
      ["index", "prediction"],
      ["1", "A".repeat(1024 ** 2)],
    ]);
    expect(bytes.length).toBeLessThan(64 * 1024);
    const refused = await parsePredictionFile({ fileName: "big.xlsx", bytes, maxXlsxInflatedBytes: 512 * 1024 });
    expect(refused.ok ? "" : refused.errors[0]?.problem).toMatch(
      /^the workbook expands to \d+ bytes, more than the limit of 524288 bytes \(MODEL_XLSX_MAX_INFLATED_BYTES\); refused unread$/,
    );
    expect((await parsePredictionFile({ fileName: "big.xlsx", bytes, maxXlsxInflatedBytes: 4 * 1024 ** 2 })).ok).toBe(
      true,
    );
  });

  it("fails cleanly on bytes that are not a workbook", async () => {
    const result = await parsePredictionFile({ fileName: "broken.xlsx", bytes: enc("not a zip") });
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.errors[0]?.problem).toMatch(/not a readable xlsx workbook/);
  });
});

describe("lmms-eval samples jsonl", () => {
  const lines = [
    JSON.stringify({
      doc_id: 0,
      doc: { index: "31", question: "q" },
      target: "A",
      resps: [["The answer is A"]],
      filtered_resps: ["A"],
    }),
    JSON.stringify({
      doc_id: 1,
      doc: { item_id: "clx123" },
      target: ["move x 2"],
      resps: [["move x 2"]],
      filtered_resps: [["move x 2"]],
    }),
    "{not json",
    "",
    JSON.stringify({ doc_id: 3, doc: {}, target: "B", resps: [["(B)"]] }),
    JSON.stringify({ doc_id: 4, doc: { index: 31 }, resps: [["C"]] }),
    JSON.stringify({
      doc_id: 5,
      doc: { id: "x9" },
      target: "A",
      resps: [[[-1.5, false]]],
      filtered_resps: [[-1.5, false]],
    }),
  ].join("\n");

  it("reads doc identifiers, prefers filtered_resps, and falls back to doc_id with a warning", async () => {
    const result = ok(await parsePredictionFile({ fileName: "samples_misi_2025.jsonl", bytes: enc(lines) }));
    expect(result.format).toBe("lmms-eval-jsonl");
    expect(result.rows).toEqual([
      { line: 1, key: "31", keyField: "doc.index", prediction: "A", reference: "A" },
      { line: 2, key: "clx123", keyField: "doc.item_id", prediction: "move x 2", reference: "move x 2" },
      { line: 5, key: "3", keyField: "doc_id", prediction: "(B)", reference: "B" },
    ]);
    expect(result.skipped.map((s) => [s.line, s.field])).toEqual([
      [3, null],
      [6, "doc.index"],
      [7, "filtered_resps"],
    ]);
    expect(result.skipped[0]?.problem).toMatch(/^not valid JSON/);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.problem).toMatch(/^1 sample\(s\) had no identifier in doc/);
  });
});

describe("plain CSV item_id,prediction", () => {
  it("reads a BOM-prefixed file with quoted multi-line predictions", async () => {
    const text = '\uFEFFitem_id,prediction\nclx1,"move x 3"\nclx2,"line one\nAnswer: B"\n';
    const result = ok(await parsePredictionFile({ fileName: "preds.csv", bytes: enc(text) }));
    expect(result.format).toBe("plain-csv");
    expect(result.rows).toEqual([
      { line: 2, key: "clx1", keyField: "item_id", prediction: "move x 3" },
      { line: 3, key: "clx2", keyField: "item_id", prediction: "line one\nAnswer: B" },
    ]);
  });

  it("treats a .csv with index/prediction columns as VLMEvalKit output", () => {
    expect(detectPredictionFormat("m.csv", enc("index,question,answer,prediction\n"))).toBe("vlmevalkit-csv");
    expect(detectPredictionFormat("m.csv", enc("item_id,prediction\n"))).toBe("plain-csv");
    expect(detectPredictionFormat("m.txt", enc("x"))).toBeNull();
  });

  it("names the missing column", async () => {
    const result = await parsePredictionFile({ fileName: "p.csv", bytes: enc("item_id,answer\na,b\n") });
    expect(result.ok ? null : result.errors[0]).toMatchObject({ line: 1, field: "prediction" });
  });

  it("rejects text that is not UTF-8", async () => {
    const result = await parsePredictionFile({ fileName: "p.csv", bytes: new Uint8Array([0x69, 0x74, 0xff, 0xfe]) });
    expect(result.ok ? null : result.errors[0]?.problem).toBe("the file is not valid UTF-8 text");
  });
});

describe("createItemMatcher", () => {
  const match = createItemMatcher([
    { id: "clxa", externalId: "1" },
    { id: "clxb", externalId: "2" },
    { id: "clxc", externalId: "2" },
    { id: "clxd", externalId: null },
  ]);

  it("matches by item id first, then by a unique external id", () => {
    expect(match("clxd")).toMatchObject({ ok: true, by: "id", item: { id: "clxd" } });
    expect(match("1")).toMatchObject({ ok: true, by: "externalId", item: { id: "clxa" } });
  });

  it("refuses an external id shared by two items and reports unknown keys", () => {
    expect(match("2")).toMatchObject({ ok: false, reason: "ambiguous" });
    expect(match("zzz")).toEqual({ ok: false, reason: "unknown", problem: "no item has id or external id 'zzz'" });
  });
});
