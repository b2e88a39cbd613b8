import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatReportEntry } from "@/lib/import/report";
import { db, disconnectDb } from "@/lib/server/db";
import { runImport } from "@/lib/server/import/run-import";
import { T8_OPTIONS, pngBytes, toTsv, vlmevalkitRows } from "../fixtures/import/build-fixtures";

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-import-tsv-"));
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await disconnectDb();
});

function writeTsv(name: string, text: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
}

const tagged = () => `t${randomBytes(3).toString("hex")}-`;

describe("VLMEvalKit TSV import", () => {
  it("detects the layout and imports every row: base64 images, lists, row pointers, MC options", async () => {
    const tag = tagged();
    const result = await runImport({ inputPath: writeTsv("MiSI_bench.tsv", toTsv(vlmevalkitRows(tag))) });
    expect(result.status).toBe("succeeded");
    expect(result.report).toMatchObject({
      kind: "vlmevalkit",
      imported: 5,
      duplicates: 0,
      counts: { skipped: 0, errors: 0 },
    });
    expect(result.report.byTask).toEqual({
      translation: 2,
      rotation: 1,
      interaction_location: 1,
      rotation_rotation: 1,
    });

    const items = await db.item.findMany({
      where: { importBatchId: result.batchId },
      include: { answerKey: true, images: { orderBy: { position: "asc" } } },
      orderBy: { externalId: "asc" },
    });
    expect(
      items.map((i) => [i.externalId, i.source, i.taskId, i.status, i.answerKey?.canonical, i.images.length]),
    ).toEqual([
      [`${tag}1`, "vlmevalkit", "translation", "active", "move y -2", 1],
      [`${tag}2`, "vlmevalkit", "rotation", "active", "roll z 30", 2],
      [`${tag}3`, "vlmevalkit", "interaction_location", "active", "B", 1],
      [`${tag}4`, "vlmevalkit", "rotation_rotation", "active", "D", 1],
      [`${tag}5`, "vlmevalkit", "translation", "active", "move x 4", 1],
    ]);
    const byIndex = new Map(items.map((i) => [i.externalId, i]));
    // Row 5 points to row 1's image: the same bytes are stored again for item 5.
    expect(Buffer.from(byIndex.get(`${tag}5`)!.images[0]!.data).equals(pngBytes("red"))).toBe(true);
    expect(byIndex.get(`${tag}5`)!.images[0]!.sha256).toBe(byIndex.get(`${tag}1`)!.images[0]!.sha256);
    // A list of two base64 images in one cell.
    expect(
      byIndex
        .get(`${tag}2`)!
        .images.map((im) => Buffer.from(im.data).equals(pngBytes(im.position === 0 ? "green" : "blue"))),
    ).toEqual([true, true]);
    // The quoted cell kept its newline and tab.
    expect(byIndex.get(`${tag}2`)!.question).toBe(`Which rotation?\nAnswer\twith roll <axis> <angle>. [${tag}]`);
    // MC: options in the payload, the question and the key.
    const mc = byIndex.get(`${tag}3`)!;
    expect(mc.payload).toEqual({ options: [...T8_OPTIONS] });
    expect(mc.answerKey?.gold).toEqual({ letter: "B", options: [...T8_OPTIONS] });
    expect(mc.question).toContain(`\nOptions:\nA. ${T8_OPTIONS[0]}\nB. ${T8_OPTIONS[1]}`);
    // Option images ("Image 8") are not commands: the key is the letter alone (MC items score the letter), the item is
    // active and the shown options stay in the payload.
    expect(byIndex.get(`${tag}4`)!.answerKey?.gold).toEqual({ letter: "D" });
    expect(byIndex.get(`${tag}4`)!.statusReason).toBeNull();
  });

  it("fails the whole file on a wrong header and imports nothing", async () => {
    const tag = tagged();
    const text = toTsv(vlmevalkitRows(tag), [
      "index",
      "image",
      "question",
      "A",
      "B",
      "C",
      "D",
      "gold_answer",
      "category",
    ]);
    const result = await runImport({ inputPath: writeTsv("wrong-column.tsv", text), kind: "vlmevalkit" });
    expect(result.status).toBe("failed");
    expect(result.report.errors.map(formatReportEntry)).toEqual([
      "wrong-column.tsv:1: header: missing column 'answer' (columns are: index, image, question, A, B, C, D, gold_answer, category)",
    ]);
    expect(await db.item.count({ where: { importBatchId: result.batchId } })).toBe(0);
  });

  it("skips a row with a wrong cell count or a bad answer, and a pointer to a skipped row (its image was never read)", async () => {
    const tag = tagged();
    const rows = vlmevalkitRows(tag);
    rows[0] = { ...rows[0]!, answer: "move y 7" }; // out of range; row 5 points to this row's image
    const lines = toTsv(rows).split("\n");
    lines[3] = `${lines[3]}\textra`; // the 2nd data row spans lines 3–4: break its last line
    const result = await runImport({ inputPath: writeTsv("rows.tsv", lines.join("\n")) });
    expect(result.status).toBe("succeeded");
    expect(result.report.skipped.map(formatReportEntry)).toEqual([
      expect.stringMatching(/^rows\.tsv:2: answer: 'move y 7' does not parse as a translation answer: /),
      "rows.tsv:3: row: has 11 cells, the header has 10 (a tab inside an unquoted field?)",
      `rows.tsv:7: image: points to the image of row index '${tag}1', but no earlier row with that index had its image read (missing, or skipped before its image was read)`,
    ]);
    expect(result.report.imported).toBe(2);
  });

  it("copies a pointed-to image that was stored by an earlier import (a duplicate row)", async () => {
    const tag = tagged();
    const rows = vlmevalkitRows(tag);
    await runImport({ inputPath: writeTsv("first.tsv", toTsv(rows.slice(0, 1))) });
    // Row 1 is now a duplicate; row 5 points to it and must get its bytes from the stored image.
    const result = await runImport({ inputPath: writeTsv("second.tsv", toTsv([rows[0]!, rows[4]!])) });
    expect(result.report).toMatchObject({ imported: 1, duplicates: 1 });
    const pointer = await db.item.findFirst({
      where: { importBatchId: result.batchId, externalId: `${tag}5` },
      include: { images: true },
    });
    expect(Buffer.from(pointer!.images[0]!.data).equals(pngBytes("red"))).toBe(true);
  });
});
