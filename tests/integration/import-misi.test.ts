import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatReportEntry } from "@/lib/import/report";
import { checkImageBytes } from "@/lib/import/image-refs";
import { db, disconnectDb } from "@/lib/server/db";
import { runImport } from "@/lib/server/import/run-import";
import {
  hasZipCommand,
  pngBytes,
  svgBytes,
  tarGzFolder,
  writeMisiRelease,
  zipFolder,
} from "../fixtures/import/build-fixtures";

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-import-release-"));
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await disconnectDb();
});

function release(name: string) {
  const tag = `${name}${randomBytes(3).toString("hex")}`;
  const dir = path.join(work, name);
  writeMisiRelease(dir, tag);
  return { dir, tag };
}

const itemsOfBatch = (batchId: string) =>
  db.item.findMany({
    where: { importBatchId: batchId },
    include: { answerKey: true, images: { orderBy: { position: "asc" } } },
    orderBy: { externalId: "asc" },
  });

describe("MiSI-Bench release import", () => {
  it.runIf(hasZipCommand())("reads a zip with nested folders and odd keys, and maps every record", async () => {
    const { dir, tag } = release("zip");
    const zip = path.join(work, "misi.zip");
    zipFolder(dir, zip);
    const result = await runImport({ inputPath: zip });
    expect(result.status).toBe("succeeded");
    expect(result.report).toMatchObject({
      kind: "misi",
      imported: 5,
      duplicates: 0,
      counts: { skipped: 0, errors: 0 },
    });
    expect(result.report.byTask).toEqual({ translation: 2, rotation: 2, interaction_location: 1 });
    // What could not be mapped is reported, once per file.
    expect(result.report.notes.map(formatReportEntry)).toEqual(
      expect.arrayContaining([
        "MiSI-bench/test/T1_translation/data.jsonl: fields: read as id←Question_ID, question←Prompt, answer←GT, images←Image_Paths, pdb←PDB_ID",
        "MiSI-bench/test/T1_translation/data.jsonl: fields: not mapped (kept in provenance when short): Difficulty",
      ]),
    );
    // T8 from a CSV has options but no bond/pdb fields: stored as imported, with the reason.
    expect(result.report.warnings.map(formatReportEntry)).toEqual([
      "MiSI-bench/test/mc/interloc.csv:2: payload: kept as imported; does not match the interaction_location fields (pdbId: missing; bond: missing)",
    ]);

    const items = await itemsOfBatch(result.batchId);
    expect(items.map((i) => [i.externalId, i.taskId, i.answerKey?.canonical, i.pdbId, i.images.length])).toEqual([
      [`interaction_location:${tag}-31`, "interaction_location", "A", null, 1],
      [`rotation:${tag}-7`, "rotation", "roll x 45", "1bju", 1],
      [`rotation:${tag}-8`, "rotation", "roll z -90", "1bma", 1],
      [`translation:${tag}-1`, "translation", "move x 2", "1acj", 4],
      [`translation:${tag}-2`, "translation", "move y -3", "1aku", 4],
    ]);
    // Relative to the record's folder, to an enclosing folder, and an absolute path from another machine.
    const t1 = items.find((i) => i.externalId === `translation:${tag}-1`)!;
    // The right file: its rasterised pixels (SVGs are stored as PNG).
    const expected = checkImageBytes(svgBytes("t1-1-after"));
    expect(expected.ok && Buffer.from(t1.images[3]!.data).equals(Buffer.from(expected.data))).toBe(true);
    expect(t1.images.map((i) => i.caption)).toEqual(["Image 1", "Image 2", "Image 3", "Image 4"]);
    expect(t1.provenance).toMatchObject({
      importedFrom: "misi_release",
      file: "MiSI-bench/test/T1_translation/data.jsonl",
      line: 1,
      unmappedFields: { Difficulty: "easy" },
    });
    const r8 = items.find((i) => i.externalId === `rotation:${tag}-8`)!;
    expect(Buffer.from(r8.images[0]!.data).equals(pngBytes("green"))).toBe(true);
    const r7 = items.find((i) => i.externalId === `rotation:${tag}-7`)!;
    expect(Buffer.from(r7.images[0]!.data).equals(pngBytes("red"))).toBe(true);
    const t8 = items.find((i) => i.taskId === "interaction_location")!;
    expect(t8.answerKey?.gold).toMatchObject({ letter: "A" });
    expect(t8.question).toMatch(/\nOptions:\nA\. move x 3, move y -2\nB\. /);
  });

  it("reads the same release as tar.gz, and is idempotent across archive formats", async () => {
    const { dir } = release("tgz");
    const tgz = path.join(work, "misi.tar.gz");
    await tarGzFolder(dir, tgz);
    const first = await runImport({ inputPath: tgz });
    expect(first.report).toMatchObject({ kind: "misi", imported: 5 });
    const again = await runImport({ inputPath: dir });
    expect(again.report).toMatchObject({ imported: 0, duplicates: 5 });
  });

  it("skips bad records with located reasons: bad answer, missing image, wrong cell count, unknown task", async () => {
    const { dir } = release("broken");
    const root = path.join(dir, "MiSI-bench", "test");
    const jsonl = path.join(root, "T1_translation", "data.jsonl");
    fs.writeFileSync(jsonl, fs.readFileSync(jsonl, "utf8").replace('"GT":"move x 2"', '"GT":"move x 12"'));
    fs.rmSync(path.join(root, "T1_translation", "images", "2_left.svg"));
    const csv = path.join(root, "mc", "interloc.csv");
    fs.appendFileSync(
      csv,
      "32,Interaction Location,Too many cells,a,b,c,d,A,img/q31.png,extra\n33,Chirality,Which?,a,b,c,d,A,img/q31.png\n",
    );
    const result = await runImport({ inputPath: dir });
    expect(result.status).toBe("succeeded");
    expect(result.report.imported).toBe(3);
    expect(result.report.skipped.map(formatReportEntry)).toEqual([
      expect.stringMatching(
        /^MiSI-bench\/test\/T1_translation\/data\.jsonl:1: GT: 'move x 12' does not parse as a translation answer: /,
      ),
      "MiSI-bench/test/T1_translation/data.jsonl:2: Image_Paths: image 2: image file 'images/2_left.svg' not found in the import",
      "MiSI-bench/test/mc/interloc.csv:3: row: has 10 cells, the header has 9",
      "MiSI-bench/test/mc/interloc.csv:4: category: 'Chirality' is not a known task name (expected one of the nine MiSI-Bench tasks, e.g. Translation, T5, RotRot)",
    ]);
  });

  it("fails the whole batch when one file is structurally broken: nothing of the batch is imported", async () => {
    const { dir, tag } = release("fatal");
    const json = path.join(dir, "MiSI-bench", "test", "questions", "rotation_questions.json");
    const text = fs.readFileSync(json, "utf8");
    fs.writeFileSync(json, text.slice(0, text.lastIndexOf("}"))); // cut inside the last record
    const before = await db.item.count();
    const result = await runImport({ inputPath: dir });
    expect(result.status).toBe("failed");
    expect(result.report.errors.map(formatReportEntry)).toEqual([
      expect.stringMatching(
        /^MiSI-bench\/test\/questions\/rotation_questions\.json:\d+: file: unexpected end of the file inside the JSON document \(truncated\?\)$/,
      ),
    ]);
    // The translation and MC files were read before the broken one; their items are rolled back too.
    expect(await db.item.count()).toBe(before);
    expect(await db.item.count({ where: { externalId: { contains: tag } } })).toBe(0);
    expect((await db.importBatch.findUniqueOrThrow({ where: { id: result.batchId } })).status).toBe("failed");
    expect((await db.auditLog.findFirst({ where: { entityId: result.batchId } }))?.action).toBe("import.failed");
  });

  it.runIf(hasZipCommand())("fails on a truncated zip with a clear reason", async () => {
    const { dir } = release("cut");
    const zip = path.join(work, "cut.zip");
    zipFolder(dir, zip);
    const bytes = fs.readFileSync(zip);
    fs.writeFileSync(zip, bytes.subarray(0, bytes.length - 40));
    const result = await runImport({ inputPath: zip });
    expect(result.status).toBe("failed");
    expect(result.report.errors.map(formatReportEntry)).toEqual([
      "cut.zip: archive: cannot open the zip archive (End of central directory record signature not found. Either not a zip file, or file is truncated.); is it truncated or not a zip?",
    ]);
  });

  it("imports a multi-megabyte JSONL through the streaming path", async () => {
    const dir = path.join(work, "large", "T3_zooming");
    fs.mkdirSync(path.join(dir, "img"), { recursive: true });
    fs.writeFileSync(path.join(dir, "img", "z.png"), pngBytes("blue"));
    const tag = randomBytes(3).toString("hex");
    const RECORDS = 20_000;
    const out = fs.createWriteStream(path.join(dir, "zooming.jsonl"));
    for (let i = 0; i < RECORDS; i++) {
      out.write(
        `${JSON.stringify({ id: `${tag}-${i}`, question: `Zoom question ${i} [${tag}] ${"·".repeat(120)}`, answer: `move z ${40 + (i % 21)}`, image: "img/z.png" })}\n`,
      );
    }
    await new Promise<void>((resolve) => out.end(resolve));
    const size = fs.statSync(path.join(dir, "zooming.jsonl")).size;
    expect(size).toBeGreaterThan(4 * 1024 * 1024);
    const result = await runImport({ inputPath: path.join(work, "large"), dryRun: true });
    expect(result.report).toMatchObject({
      kind: "misi",
      recordsRead: RECORDS,
      imported: RECORDS,
      duplicates: 0,
      counts: { skipped: 0, errors: 0 },
    });
    expect(result.report.byTask).toEqual({ zooming: RECORDS });
  }, 120_000);
});
