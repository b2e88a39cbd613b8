import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/** Largest upload accepted: the MiSI-Bench archives are about 2 GB. */
export const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

export class UploadTooLargeError extends Error {
  constructor(limitBytes: number) {
    super(`the upload is larger than ${limitBytes} bytes`);
  }
}

export interface SavedUpload {
  /** The file, named as the user named it (its extension and name help detection). */
  filePath: string;
  /** Folder to delete when the import is done. */
  dir: string;
  bytes: number;
  sha256: string;
}

/** A file name safe to use inside our temp folder (no path parts, no control characters). */
export function toSafeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .replace(/[^A-Za-z0-9._ ()+-]/g, "_")
    .replace(/^\.+/, "")
    .slice(0, 200);
  return cleaned || "upload";
}

/**
 * Streams a request body to a temp file while hashing it: a 2 GB archive never sits in memory.
 * Anything over MAX_UPLOAD_BYTES stops the transfer and deletes the partial file.
 */
export async function saveUploadToTempFile(
  body: ReadableStream<Uint8Array>,
  fileName: string,
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<SavedUpload> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "misi-upload-"));
  const filePath = path.join(dir, toSafeFileName(fileName));
  const hash = createHash("sha256");
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(new UploadTooLargeError(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>),
      meter,
      fs.createWriteStream(filePath),
    );
  } catch (e) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw e;
  }
  return { filePath, dir, bytes, sha256: hash.digest("hex") };
}
