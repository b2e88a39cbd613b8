import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatReportEntry } from "@/lib/import/report";
import { db, disconnectDb } from "@/lib/server/db";
import { STALE_IMPORT_MS, findImportBatch } from "@/lib/server/dal/imports/get-import-batch";
import { receiveUploadForImport } from "@/lib/server/dal/imports/start-upload-import";
import { hasZipCommand, writeBundle, zipFolder } from "../fixtures/import/build-fixtures";

let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-import-upload-"));
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await disconnectDb();
});

/** A request body as the route sees it: a web stream, delivered in small chunks. */
function bodyOf(bytes: Buffer, chunk = 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + chunk)));
      offset += chunk;
    },
  });
}

const admin = () =>
  db.user.create({
    data: { email: `import-${randomBytes(4).toString("hex")}@example.org`, passwordHash: "x", role: "admin" },
  });

describe("upload imports (what POST /api/admin/import does)", () => {
  it.runIf(hasZipCommand())(
    "streams the body to a temp file, queues the batch, imports it in the background step and cleans up",
    async () => {
      const user = await admin();
      const dir = path.join(work, "bundle");
      writeBundle(dir, { tag: `-up-${randomBytes(3).toString("hex")}` });
      const zip = path.join(work, "upload.zip");
      zipFolder(dir, zip);
      const bytes = fs.readFileSync(zip);
      const before = new Set(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("misi-upload-")));

      const received = await receiveUploadForImport({
        body: bodyOf(bytes),
        fileName: "my bundle.zip",
        dryRun: false,
        actorId: user.id,
      });
      expect((await findImportBatch(received.batchId))?.status).toBe("queued");
      const temp = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("misi-upload-") && !before.has(n));
      expect(temp).toHaveLength(1);

      await received.run();
      const batch = await findImportBatch(received.batchId);
      expect(batch).toMatchObject({
        status: "succeeded",
        kind: "bundle",
        sourceName: "my bundle.zip",
        importedBy: user.email,
        itemCount: 4,
      });
      expect(batch?.contentHash).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(batch?.reportLines[0]).toBe("my bundle.zip (bundle): imported 4, duplicates 0, skipped 0, warnings 0");
      expect(fs.existsSync(path.join(os.tmpdir(), temp[0]!))).toBe(false);
      expect((await db.auditLog.findFirst({ where: { entityId: received.batchId } }))?.actorId).toBe(user.id);
    },
  );

  it("refuses an upload over the limit, records the failed batch and keeps no partial file", async () => {
    const user = await admin();
    const before = new Set(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("misi-upload-")));
    await expect(
      receiveUploadForImport({
        body: bodyOf(Buffer.alloc(10_000)),
        fileName: "big.tsv",
        dryRun: false,
        actorId: user.id,
        maxBytes: 4096,
      }),
    ).rejects.toThrow("the upload is larger than 4096 bytes");
    const batch = await db.importBatch.findFirstOrThrow({
      where: { importedById: user.id },
      orderBy: { startedAt: "desc" },
    });
    expect(batch.status).toBe("failed");
    const dto = await findImportBatch(batch.id);
    expect(dto?.report?.errors.map(formatReportEntry)).toEqual([
      "big.tsv: upload: the upload is larger than 4096 bytes",
    ]);
    expect(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("misi-upload-") && !before.has(n))).toEqual([]);
  });

  it("marks an unfinished batch that has been silent too long as stale, and a fresh one not", async () => {
    const old = new Date(Date.now() - STALE_IMPORT_MS - 60_000);
    const silent = await db.importBatch.create({
      data: { kind: "auto", sourceName: "lost.zip", status: "running", startedAt: old },
    });
    expect((await findImportBatch(silent.id))?.stale).toBe(true);
    const progress = {
      phase: "reading",
      currentFile: "a.jsonl",
      recordsRead: 5,
      imported: 5,
      duplicates: 0,
      skipped: 0,
      bytesRead: 10,
      bytesTotal: 100,
      updatedAt: new Date().toISOString(),
    };
    const busy = await db.importBatch.create({
      data: { kind: "misi", sourceName: "busy.zip", status: "running", startedAt: old, report: { progress } },
    });
    expect(await findImportBatch(busy.id)).toMatchObject({ stale: false, progress: { recordsRead: 5 } });
    const done = await db.importBatch.create({
      data: { kind: "misi", sourceName: "done.zip", status: "failed", startedAt: old },
    });
    expect((await findImportBatch(done.id))?.stale).toBe(false);
  });
});
