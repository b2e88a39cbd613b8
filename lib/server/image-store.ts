import "server-only";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import type pg from "pg";
import { isCompressibleType } from "@/lib/http-compression";
import { imageFileName } from "@/lib/image-link";
import { env } from "@/lib/server/env";

/**
 * Item images as files, once per distinct picture: `<IMAGE_STORE_DIR>/<sha256 of the bytes>.<ext>`, and for a
 * compressible type (SVG) `<name>.gz` and `<name>.br` beside it, which nginx serves as they are (`gzip_static`,
 * `brotli_static`) and the app's own image route reads when no nginx is in front. Written at import
 * (lib/server/import/item-writer.ts) and for images stored before this existed by `npm run images:backfill`, or on
 * the first request that finds the file missing (lib/server/image-serve.ts). Files are never changed once written:
 * a name is its content. A file is written under a temporary name and renamed, the plain file last, so a reader
 * never sees a partial file and the plain file's presence means the entry is whole.
 */
export function imageStoreDir(): string {
  return path.resolve(env.IMAGE_STORE_DIR ?? path.join(".data", "image-store"));
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface StoreOptions {
  /** 11 (the default): the compressed forms are made once per picture, so the smallest settings are worth their CPU. */
  brotliQuality?: number;
  /** 9 by default. */
  gzipLevel?: number;
}

async function packed(data: Uint8Array, brotliQuality = 11, gzipLevel = 9): Promise<{ gz: Buffer; br: Buffer }> {
  const [gz, br] = await Promise.all([
    gzipAsync(data, { level: gzipLevel }),
    brotliAsync(data, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    }),
  ]);
  return { gz, br };
}

async function writeAtomically(file: string, data: Uint8Array): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  // Readable by the web server's user (nginx workers do not run as the app's user).
  await fs.writeFile(temp, data, { mode: 0o644 });
  await fs.rename(temp, file);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export function sha256Of(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Stores one picture (nothing to do when its file is there already) and returns its content hash. `expectedSha256`:
 * the hash the database row says, checked, so a link named by the row always names these bytes.
 */
export async function storeImage(
  data: Uint8Array,
  mimeType: string,
  expectedSha256?: string,
  dir = imageStoreDir(),
  options: StoreOptions = {},
): Promise<string> {
  const sha256 = sha256Of(data);
  if (expectedSha256 !== undefined && expectedSha256 !== sha256)
    throw new Error(`image store: the bytes hash to ${sha256}, the row says ${expectedSha256}`);
  const name = imageFileName(sha256, mimeType);
  const file = path.join(dir, name);
  if (await exists(file)) return sha256;
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  if (isCompressibleType(mimeType)) {
    const { gz, br } = await packed(data, options.brotliQuality, options.gzipLevel);
    // Only a form that saves a tenth or more: gzip_static/brotli_static serve whichever file exists.
    if (gz.byteLength <= data.byteLength * 0.9) await writeAtomically(`${file}.gz`, gz);
    if (br.byteLength <= data.byteLength * 0.9) await writeAtomically(`${file}.br`, br);
  }
  await writeAtomically(file, data);
  return sha256;
}

/** One stored form of a picture: the plain file, or its `.gz` / `.br` companion; null when it is not there. */
export async function readStoredImage(
  sha256: string,
  mimeType: string,
  encoding: "br" | "gzip" | null,
  dir = imageStoreDir(),
): Promise<Buffer | null> {
  const suffix = encoding === "br" ? ".br" : encoding === "gzip" ? ".gz" : "";
  try {
    return await fs.readFile(path.join(dir, imageFileName(sha256, mimeType) + suffix));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** The rows of one picture, by the index on (sha256, "mimeType"): the backfill asks once per distinct picture. */
export const IMAGES_WITH_HASH_SQL = `SELECT id, data FROM "ItemImage" WHERE sha256 = $1 AND "mimeType" = $2`;

export interface BackfillReport {
  distinct: number;
  written: number;
  present: number;
  /** Rows whose sha256 column did not match their bytes: corrected to the bytes' hash. */
  corrected: number;
}

/**
 * Writes every picture the database holds that the store lacks. Reads the bytes of missing ones only, one at a time
 * (a view is ~250 KB); rows whose sha256 column is not the hash of their bytes (test fixtures wrote "x") get the real
 * one, since links are named by that column.
 */
export async function backfillImageStore(
  pool: pg.Pool,
  dir = imageStoreDir(),
  options: StoreOptions = {},
): Promise<BackfillReport> {
  const report: BackfillReport = { distinct: 0, written: 0, present: 0, corrected: 0 };
  const { rows } = await pool.query<{ sha256: string; mimeType: string }>(
    `SELECT DISTINCT sha256, "mimeType" FROM "ItemImage"`,
  );
  report.distinct = rows.length;
  const one = async (row: { sha256: string; mimeType: string }) => {
    const wellFormed = /^[0-9a-f]{64}$/.test(row.sha256);
    if (wellFormed && (await exists(path.join(dir, imageFileName(row.sha256, row.mimeType))))) {
      report.present++;
      return;
    }
    const { rows: images } = await pool.query<{ id: string; data: Buffer }>(IMAGES_WITH_HASH_SQL, [
      row.sha256,
      row.mimeType,
    ]);
    const seen = new Set<string>();
    for (const image of images) {
      const actual = sha256Of(image.data);
      if (!seen.has(actual)) {
        await storeImage(image.data, row.mimeType, undefined, dir, options);
        seen.add(actual);
        report.written++;
      }
      if (actual !== row.sha256) {
        await pool.query(`UPDATE "ItemImage" SET sha256 = $1 WHERE id = $2`, [actual, image.id]);
        report.corrected++;
      }
    }
  };
  // Two at a time: each picture's gzip and brotli already run side by side on zlib's thread pool.
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.pop(); row; row = queue.pop()) await one(row);
  };
  await Promise.all([worker(), worker()]);
  return report;
}
