import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeItemContentHash, sha256Hex } from "@/lib/import/content-hash";
import { ImportReportSchema, formatReportEntry } from "@/lib/import/report";
import { db, disconnectDb } from "@/lib/server/db";
import { findImportBatch } from "@/lib/server/dal/imports/get-import-batch";
import { listImportBatches } from "@/lib/server/dal/imports/list-import-batches";
import { runImport } from "@/lib/server/import/run-import";
import { hasZipCommand, writeBundle, zipFolder } from "../fixtures/import/build-fixtures";

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-import-bundle-"));
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await disconnectDb();
});

function freshBundle(name: string) {
  const tag = `-${name}-${randomBytes(3).toString("hex")}`;
  const dir = path.join(work, name);
  const { itemIds } = writeBundle(dir, { tag });
  return { dir, tag, itemIds };
}

async function itemsOf(itemIds: string[]) {
  return db.item.findMany({
    where: { source: "bundle", externalId: { in: itemIds } },
    include: { answerKey: true, images: { orderBy: { position: "asc" } } },
    orderBy: { externalId: "asc" },
  });
}

describe("bundle import", () => {
  it("imports items with answer keys, image bytes, provenance, a stored report and an audit entry", async () => {
    const { dir, itemIds } = freshBundle("first");
    const itemAnalyses = async () =>
      (
        await db.$queryRaw<
          Array<{ n: number }>
        >`SELECT analyze_count::int AS n FROM pg_stat_user_tables WHERE relname = 'Item'`
      )[0]!.n;
    const analysedBefore = await itemAnalyses();
    const result = await runImport({ inputPath: dir });
    expect(result.status).toBe("succeeded");
    // New items: the statistics are refreshed after the import (lib/server/table-statistics.ts), not left to autovacuum.
    expect(await itemAnalyses()).toBeGreaterThan(analysedBefore);
    expect(result.report).toMatchObject({
      kind: "bundle",
      imported: 4,
      duplicates: 0,
      counts: { skipped: 0, errors: 0, warnings: 0 },
    });
    expect(result.report.byTask).toEqual({ translation: 1, rotation: 1, residue_ligand: 1, interaction_location: 1 });

    const items = await itemsOf(itemIds);
    expect(items.map((i) => [i.externalId, i.taskId, i.answerKey?.canonical, i.status, i.importBatchId])).toEqual(
      [
        [itemIds[3], "interaction_location", "C", "active", result.batchId],
        [itemIds[2], "residue_ligand", "No", "active", result.batchId],
        [itemIds[1], "rotation", "roll y -45", "active", result.batchId],
        [itemIds[0], "translation", "move x 3", "active", result.batchId],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const translation = items.find((i) => i.taskId === "translation")!;
    expect(translation).toMatchObject({
      pdbId: "1acj",
      split: "test",
      generatorVersion: "0.0.1",
      seed: "seed-0",
      renderSettings: { widthPx: 8 },
      payload: { pdbId: "1acj" },
    });
    expect(translation.answerKey?.gold).toEqual({ axis: "x", distanceA: 3 });
    // Images: in bundle order, with the bundle's captions; PNGs byte for byte, SVGs rasterised to PNG (lib/import/foreign-svg.ts).
    const lines = fs
      .readFileSync(path.join(dir, "items.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; images: Array<{ file: string; caption: string }> });
    const line = lines.find((l) => l.id === translation.externalId)!;
    expect(translation.images.map((im) => [im.position, im.caption, im.mimeType])).toEqual([
      [0, "Image 1", "image/png"],
      [1, "Image 2", "image/png"],
      [2, "Image 3", "image/png"],
      [3, "Image 4", "image/png"],
    ]);
    translation.images.forEach((im, k) => {
      const bytes = fs.readFileSync(path.join(dir, line.images[k]!.file));
      const fromSvg = line.images[k]!.file.endsWith(".svg");
      expect(Buffer.from(im.data).equals(bytes)).toBe(!fromSvg);
      expect(Buffer.from(im.data).subarray(0, 4).toString("latin1")).toBe("\x89PNG");
      expect(im.sha256).toBe(sha256Hex(Buffer.from(im.data)));
    });
    // The stored hash is reproducible from the stored rows alone.
    expect(translation.contentHash).toBe(
      computeItemContentHash({
        taskId: translation.taskId,
        taskVersion: translation.taskVersion,
        question: translation.question,
        payload: translation.payload,
        gold: translation.answerKey!.gold,
        images: translation.images,
      }),
    );

    const batch = await db.importBatch.findUniqueOrThrow({ where: { id: result.batchId } });
    expect(batch).toMatchObject({ kind: "bundle", status: "succeeded", sourceName: "first" });
    expect(batch.contentHash).toMatch(/^listing:[0-9a-f]{64}$/);
    expect(ImportReportSchema.parse(batch.report)).toEqual(result.report);
    const audit = await db.auditLog.findMany({ where: { entityType: "ImportBatch", entityId: result.batchId } });
    expect(audit.map((a) => a.action)).toEqual(["import.completed"]);
    expect(audit[0]!.details).toMatchObject({ kind: "bundle", imported: 4, duplicates: 0, skipped: 0, errors: 0 });

    // The admin DTOs read the same batch back.
    const dto = await findImportBatch(result.batchId);
    expect(dto).toMatchObject({ status: "succeeded", itemCount: 4, progress: null });
    expect(dto?.reportLines[0]).toBe("first (bundle): imported 4, duplicates 0, skipped 0, warnings 0");
    expect((await listImportBatches()).find((b) => b.id === result.batchId)?.summary).toEqual({
      imported: 4,
      duplicates: 0,
      skipped: 0,
      errors: 0,
      warnings: 0,
    });
  });

  it("is idempotent: the same bundle again, as a folder or zipped in a folder, adds 0 items and reports 4 duplicates", async () => {
    const { dir, itemIds } = freshBundle("twice");
    await runImport({ inputPath: dir });
    const before = await db.item.count();
    const again = await runImport({ inputPath: dir });
    expect(again.report).toMatchObject({ imported: 0, duplicates: 4, counts: { skipped: 0, errors: 0 } });
    expect(again.report.duplicateEntries.map(formatReportEntry)).toEqual(
      [1, 2, 3, 4].map((n) =>
        expect.stringMatching(new RegExp(`^items\\.jsonl:${n}: item: already in the database \\(item \\w+\\)$`)),
      ),
    );
    if (hasZipCommand()) {
      const wrapper = path.join(work, "zipped");
      fs.mkdirSync(wrapper);
      fs.cpSync(dir, path.join(wrapper, "bundle-v1"), { recursive: true });
      const zip = path.join(work, "twice.zip");
      zipFolder(wrapper, zip);
      const zipped = await runImport({ inputPath: zip });
      expect(zipped.report).toMatchObject({ kind: "bundle", imported: 0, duplicates: 4 });
      expect(zipped.report.duplicateEntries[0]?.file).toBe("bundle-v1/items.jsonl");
    }
    expect(await db.item.count()).toBe(before);
    expect(await itemsOf(itemIds)).toHaveLength(4);
  });

  it("dry run checks everything and writes no item", async () => {
    const { dir, itemIds } = freshBundle("dry");
    const result = await runImport({ inputPath: dir, dryRun: true });
    expect(result.status).toBe("dry_run");
    expect(result.report).toMatchObject({ dryRun: true, imported: 4 });
    expect(await itemsOf(itemIds)).toHaveLength(0);
    expect((await db.auditLog.findFirst({ where: { entityId: result.batchId } }))?.action).toBe("import.dry_run");
  });

  it("never overwrites: changed content under a stored id is skipped with the reason", async () => {
    const { dir, itemIds } = freshBundle("changed");
    await runImport({ inputPath: dir });
    const answers = path.join(dir, "answers.jsonl");
    fs.writeFileSync(
      answers,
      fs
        .readFileSync(answers, "utf8")
        .replace(
          '"answer":"move x 3","gold":{"axis":"x","distanceA":3}',
          '"answer":"move x 2","gold":{"axis":"x","distanceA":2}',
        ),
    );
    const result = await runImport({ inputPath: dir });
    expect(result.report).toMatchObject({ imported: 0, duplicates: 3 });
    expect(result.report.skipped.map(formatReportEntry)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^items\\.jsonl:1: id: an item with id '${itemIds[0]}' from bundle is already stored with different content \\(item \\w+\\); not replaced$`,
        ),
      ),
    ]);
    const stored = await itemsOf([itemIds[0]!]);
    expect(stored[0]?.answerKey?.canonical).toBe("move x 3");
  });

  it("skips broken records with file:line: field: problem and imports the rest", async () => {
    const { dir, itemIds } = freshBundle("broken");
    const itemsFile = path.join(dir, "items.jsonl");
    const lines = fs.readFileSync(itemsFile, "utf8").trim().split("\n");
    const first = JSON.parse(lines[0]!) as { images: Array<{ file: string }> };
    fs.rmSync(path.join(dir, first.images[1]!.file)); // missing image on item 1
    fs.writeFileSync(itemsFile, [...lines, '{"id": "half-written', ""].join("\n")); // a truncated last line
    const answersFile = path.join(dir, "answers.jsonl");
    // Item 2's gold says roll y 200: outside the rotation grammar.
    fs.writeFileSync(answersFile, fs.readFileSync(answersFile, "utf8").replace('"angleDeg":-45', '"angleDeg":200'));
    const result = await runImport({ inputPath: dir });
    expect(result.status).toBe("succeeded");
    expect(result.report.imported).toBe(2);
    expect(result.report.skipped.map(formatReportEntry)).toEqual([
      `items.jsonl:1: images: image 2: image file '${first.images[1]!.file}' is missing`,
      expect.stringMatching(/^answers\.jsonl:2: gold: not a valid rotation gold for '.*': angleDeg: /),
      expect.stringMatching(/^items\.jsonl:5: line: not valid JSON: /),
    ]);
    expect((await itemsOf(itemIds)).map((i) => i.taskId).sort()).toEqual(["interaction_location", "residue_ligand"]);
  });

  it("fails the whole batch on a fatal problem and imports nothing of it", async () => {
    const { dir, itemIds } = freshBundle("fatal");
    fs.writeFileSync(
      path.join(dir, "manifest.json"),
      JSON.stringify({ format: "misi-baseline-bundle", formatVersion: 2, counts: {} }),
    );
    const result = await runImport({ inputPath: dir, kind: "bundle" });
    expect(result.status).toBe("failed");
    expect(result.report.errors.map(formatReportEntry)).toEqual([
      expect.stringMatching(/^manifest\.json: formatVersion: /),
    ]);
    expect(result.report.imported).toBe(0);
    expect(await itemsOf(itemIds)).toHaveLength(0);
    expect(await db.item.count({ where: { importBatchId: result.batchId } })).toBe(0);

    fs.rmSync(path.join(dir, "answers.jsonl"));
    fs.writeFileSync(
      path.join(dir, "manifest.json"),
      JSON.stringify({ format: "misi-baseline-bundle", formatVersion: 1, counts: {} }),
    );
    const missing = await runImport({ inputPath: dir });
    expect(missing.report.errors.map(formatReportEntry)).toEqual([
      "answers.jsonl: file: missing: a bundle needs items.jsonl and answers.jsonl beside manifest.json",
    ]);
  });
});
