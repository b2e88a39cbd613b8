import "server-only";
import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { computeItemContentHash } from "@/lib/import/content-hash";
import type { ItemPlan } from "@/lib/import/item-plan";
import type { ImportReportBuilder } from "@/lib/import/report";
import { storeImage } from "@/lib/server/image-store";
import type { LoadedImage } from "./load-images";

/** A database handle: the import's transaction, or the plain client for read-only dry runs. */
export type ImportDbClient = Prisma.TransactionClient | PrismaClient;

export interface PreparedItem {
  plan: ItemPlan;
  images: LoadedImage[];
  contentHash: string;
}

export function prepareItem(plan: ItemPlan, images: LoadedImage[]): PreparedItem {
  const contentHash = computeItemContentHash({
    taskId: plan.taskId,
    taskVersion: plan.taskVersion,
    question: plan.question,
    payload: plan.payload,
    gold: plan.gold,
    images,
  });
  return { plan, images, contentHash };
}

/** Items buffered before one round of duplicate look-ups; bounded by bytes too (images are in memory until written). */
const FLUSH_ITEMS = 200;
const FLUSH_BYTES = 32 * 1024 * 1024;
/** Image bytes and rows per multi-row INSERT (PostgreSQL allows 65535 bind parameters; an image row has 6). */
const IMAGE_INSERT_BYTES = 16 * 1024 * 1024;
const IMAGE_INSERT_ROWS = 5000;

const where = (p: ItemPlan) => `${p.file}:${p.line}`;

/**
 * Writes prepared items, skipping duplicates: the same content hash (already stored, or earlier in
 * this import) is a duplicate; the same (source, external id) with other content is a conflict and
 * is skipped with the reason: an import never overwrites a stored item (responses may point at it).
 * In a dry run nothing is written and the counts say what would be.
 */
export class ItemWriter {
  private pending: PreparedItem[] = [];
  private pendingBytes = 0;
  private readonly seenHashes = new Map<string, string>();
  private readonly seenIds = new Map<string, { hash: string; where: string }>();

  constructor(
    private readonly client: ImportDbClient,
    private readonly options: { dryRun: boolean; batchId: string; report: ImportReportBuilder },
  ) {}

  async add(item: PreparedItem): Promise<void> {
    const { plan } = item;
    const report = this.options.report;
    const earlier = this.seenHashes.get(item.contentHash);
    if (earlier) {
      report.duplicate({
        file: plan.file,
        line: plan.line,
        field: "item",
        problem: `same content as ${earlier} in this import`,
      });
      return;
    }
    if (plan.externalId !== null) {
      const key = `${plan.source}\u0000${plan.externalId}`;
      const twin = this.seenIds.get(key);
      if (twin) {
        report.skip({
          file: plan.file,
          line: plan.line,
          field: "id",
          problem: `id '${plan.externalId}' was already used by ${twin.where} with different content`,
        });
        return;
      }
      this.seenIds.set(key, { hash: item.contentHash, where: where(plan) });
    }
    this.seenHashes.set(item.contentHash, where(plan));
    this.pending.push(item);
    this.pendingBytes += item.images.reduce((n, i) => n + (i.data?.length ?? 0), 0);
    if (this.pending.length >= FLUSH_ITEMS || this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (batch.length === 0) return;
    const report = this.options.report;
    const byHash = new Map(
      (
        await this.client.item.findMany({
          where: { contentHash: { in: batch.map((b) => b.contentHash) } },
          select: { id: true, contentHash: true },
        })
      ).map((r) => [r.contentHash, r.id]),
    );
    const withIds = batch.filter((b) => b.plan.externalId !== null);
    const byExternal = new Map(
      withIds.length === 0
        ? []
        : (
            await this.client.item.findMany({
              where: { OR: withIds.map((b) => ({ source: b.plan.source, externalId: b.plan.externalId })) },
              select: { id: true, source: true, externalId: true },
            })
          ).map((r) => [`${r.source}\u0000${r.externalId}`, r.id]),
    );
    const toCreate: PreparedItem[] = [];
    for (const item of batch) {
      const { plan } = item;
      const stored = byHash.get(item.contentHash);
      if (stored) {
        report.duplicate({
          file: plan.file,
          line: plan.line,
          field: "item",
          problem: `already in the database (item ${stored})`,
        });
        continue;
      }
      const clash = plan.externalId === null ? undefined : byExternal.get(`${plan.source}\u0000${plan.externalId}`);
      if (clash) {
        report.skip({
          file: plan.file,
          line: plan.line,
          field: "id",
          problem: `an item with id '${plan.externalId}' from ${plan.source} is already stored with different content (item ${clash}); not replaced`,
        });
        continue;
      }
      toCreate.push(item);
    }
    const ready = this.options.dryRun ? toCreate : await this.resolvePointedImages(toCreate);
    if (!this.options.dryRun && ready.length > 0) await this.createAll(ready);
    for (const item of ready) report.imported(item.plan.taskId);
  }

  /**
   * Fills in the bytes of images given only by hash (VLMEvalKit row pointers): from another item of
   * this flush, else from any stored image with that hash (earlier flushes of this transaction
   * included). An item whose pointed-to image was never stored (its row was skipped) is skipped.
   */
  private async resolvePointedImages(items: PreparedItem[]): Promise<PreparedItem[]> {
    const known = new Map<string, Buffer>();
    const wanted = new Set<string>();
    for (const item of items) for (const img of item.images) if (img.data) known.set(img.sha256, img.data);
    for (const item of items)
      for (const img of item.images) if (!img.data && !known.has(img.sha256)) wanted.add(img.sha256);
    if (wanted.size > 0) {
      const stored = await this.client.itemImage.findMany({
        where: { sha256: { in: [...wanted] } },
        distinct: ["sha256"],
        select: { sha256: true, data: true },
      });
      for (const row of stored) known.set(row.sha256, Buffer.from(row.data));
    }
    const ready: PreparedItem[] = [];
    for (const item of items) {
      const lost = item.images.findIndex((img) => !img.data && !known.has(img.sha256));
      if (lost >= 0) {
        this.options.report.skip({
          file: item.plan.file,
          line: item.plan.line,
          field: "image",
          problem: `image ${lost + 1}: the row it points to was not imported, so its image was never stored`,
        });
        continue;
      }
      ready.push({
        ...item,
        images: item.images.map((img) => (img.data ? img : { ...img, data: known.get(img.sha256)! })),
      });
    }
    return ready;
  }

  /**
   * Three multi-row inserts per flush (items, answer keys, images) instead of three per item: the
   * round trips, not the bytes, bound the import rate. Rows are matched back by content hash (unique).
   */
  private async createAll(items: PreparedItem[]): Promise<void> {
    const created = await this.client.item.createManyAndReturn({
      data: items.map(({ plan, contentHash }) => ({
        externalId: plan.externalId,
        source: plan.source,
        taskId: plan.taskId,
        taskVersion: plan.taskVersion,
        split: plan.split,
        question: plan.question,
        payload: plan.payload as Prisma.InputJsonValue,
        pdbId: plan.pdbId,
        generatorVersion: plan.generatorVersion,
        seed: plan.seed,
        renderSettings: (plan.renderSettings ?? undefined) as Prisma.InputJsonValue | undefined,
        provenance: plan.provenance as Prisma.InputJsonValue,
        contentHash,
        status: plan.status,
        statusReason: plan.statusReason,
        importBatchId: this.options.batchId,
        structureId: plan.structureId ?? null,
      })),
      select: { id: true, contentHash: true },
    });
    const idOf = new Map(created.map((r) => [r.contentHash, r.id]));
    const itemId = (item: PreparedItem) => {
      const id = idOf.get(item.contentHash);
      if (!id)
        throw new Error(`import: inserted item for ${item.plan.file}:${item.plan.line} not returned by the database`);
      return id;
    };
    await this.client.answerKey.createMany({
      data: items.map((item) => ({
        itemId: itemId(item),
        gold: item.plan.gold as Prisma.InputJsonValue,
        canonical: item.plan.canonical,
        distractors: (item.plan.distractors ?? undefined) as Prisma.InputJsonValue | undefined,
      })),
    });
    let rows: Prisma.ItemImageCreateManyInput[] = [];
    let bytes = 0;
    for (const item of items) {
      const id = itemId(item);
      for (const [position, img] of item.images.entries()) {
        if (!img.data)
          throw new Error(`import: image ${position + 1} of ${item.plan.file}:${item.plan.line} has no bytes`);
        rows.push({
          itemId: id,
          position,
          caption: img.caption,
          mimeType: img.mimeType,
          sha256: img.sha256,
          data: img.data as Uint8Array<ArrayBuffer>,
        });
        bytes += img.data.length;
        // Keep each statement well under PostgreSQL's 1 GB message limit and the driver's buffers.
        if (bytes >= IMAGE_INSERT_BYTES || rows.length >= IMAGE_INSERT_ROWS) {
          await this.client.itemImage.createMany({ data: rows });
          rows = [];
          bytes = 0;
        }
      }
    }
    if (rows.length > 0) await this.client.itemImage.createMany({ data: rows });
    // The files participants fetch (lib/server/image-store.ts), once per picture. A rolled-back import leaves files
    // no row names: harmless, a name is its content, and a later import of the same picture finds it written.
    // Four at a time: compression runs on zlib's thread pool (four threads by default).
    const pending = items.flatMap((item) => item.images);
    const worker = async () => {
      for (let img = pending.pop(); img; img = pending.pop()) await storeImage(img.data!, img.mimeType, img.sha256);
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }
}
