import "server-only";
import { sha256Hex } from "@/lib/import/content-hash";
import {
  MAX_IMAGE_BYTES,
  checkImageBytes,
  decodeBase64,
  resolveImagePath,
  sniffImageMime,
  type CheckedImage,
  type FileIndex,
} from "@/lib/import/image-refs";
import type { PlannedImage } from "@/lib/import/item-plan";
import { HeavyJobError, runHeavyJob } from "@/lib/server/heavy/pool";
import type { SourceTree } from "./source-tree";

/**
 * An image ready to store. `data` is null for a VLMEvalKit row pointer: the same bytes were read for
 * an earlier row, and the writer copies them from that row's stored image (never re-reading the file).
 */
export interface LoadedImage {
  caption: string;
  mimeType: string;
  sha256: string;
  data: Buffer | null;
}

export type ImageMeta = Pick<LoadedImage, "sha256" | "mimeType">;

export interface ImageLoaderContext {
  tree: SourceTree;
  index: FileIndex;
  /**
   * "exact": paths are relative to the import root and must exist as written (bundles).
   * "resolve": paths are looked for around the record (MiSI release, VLMEvalKit image_path).
   */
  pathMode: "exact" | "resolve";
  /** Keep SVG as SVG (the app's own renderer output, RunImportOptions.ownSvg); otherwise it is rasterised. */
  ownSvg?: boolean;
  /** The record's file, for relative paths. */
  recordFile: string;
  /** VLMEvalKit: hashes of the images of earlier rows, by row index, for rows that point to them. */
  rowImages?: ReadonlyMap<string, readonly ImageMeta[]>;
}

export type LoadImagesResult = { ok: true; images: LoadedImage[] } | { ok: false; problem: string };

async function readCapped(tree: SourceTree, filePath: string, size: number | undefined): Promise<Buffer | string> {
  if (size !== undefined && size > MAX_IMAGE_BYTES)
    return `image '${filePath}' is larger than the limit of ${MAX_IMAGE_BYTES} bytes`;
  // One read call per image from a folder: a release holds about a million image files.
  if (tree.readWhole && size !== undefined) return tree.readWhole(filePath);
  const stream = await tree.open(filePath);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_IMAGE_BYTES) {
      stream.destroy();
      return `image '${filePath}' is larger than the limit of ${MAX_IMAGE_BYTES} bytes`;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * checkImageBytes with a foreign SVG's XML check and rasterisation in the heavy-work pool (lib/server/heavy/pool.ts):
 * a deeply nested or blur-heavy SVG costs its worker minutes and gigabytes, never the server's event loop. A job over
 * its budget refuses the image with the budget named; the import goes on with the next record.
 */
async function checkImage(bytes: Buffer, keepSvg: boolean): Promise<CheckedImage> {
  if (keepSvg || bytes.length === 0 || bytes.length > MAX_IMAGE_BYTES || sniffImageMime(bytes) !== "image/svg+xml")
    return checkImageBytes(bytes, { keepSvg });
  try {
    const raster = await runHeavyJob("svg", { bytes });
    if (!raster.ok) return raster;
    return { ok: true, mimeType: "image/png", data: raster.png, rasterizedFrom: "image/svg+xml" };
  } catch (err) {
    if (err instanceof HeavyJobError) return { ok: false, problem: `SVG refused: ${err.message}` };
    throw err;
  }
}

/** Reads, checks and hashes a record's images, one at a time. The first problem skips the record. */
export async function loadPlannedImages(
  images: readonly PlannedImage[],
  ctx: ImageLoaderContext,
): Promise<LoadImagesResult> {
  const out: LoadedImage[] = [];
  let expanded = false;
  for (const [i, img] of images.entries()) {
    const which = images.length > 1 ? `image ${i + 1}: ` : "";
    const ref = img.ref;
    if (ref.kind === "row") {
      const earlier = ctx.rowImages?.get(ref.index);
      if (!earlier)
        return {
          ok: false,
          problem: `${which}points to the image of row index '${ref.index}', but no earlier row with that index had its image read (missing, or skipped before its image was read)`,
        };
      // A pointer to a row with several images stands for all of them (VLMEvalKit copies the whole cell).
      for (const e of earlier) out.push({ caption: img.caption, mimeType: e.mimeType, sha256: e.sha256, data: null });
      expanded ||= earlier.length !== 1;
      continue;
    }
    let bytes: Buffer;
    if (ref.kind === "base64") {
      const decoded = decodeBase64(ref.data);
      if (!decoded) return { ok: false, problem: `${which}not valid base64` };
      bytes = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength);
    } else {
      let filePath = ref.path;
      if (ctx.pathMode === "resolve") {
        const resolved = resolveImagePath(ref.path, ctx.recordFile, ctx.index);
        if (!resolved.ok) return { ok: false, problem: `${which}${resolved.problem}` };
        filePath = resolved.path;
      } else if (!ctx.index.has(filePath)) {
        return { ok: false, problem: `${which}image file '${filePath}' is missing` };
      }
      const read = await readCapped(ctx.tree, filePath, ctx.index.sizeOf(filePath));
      if (typeof read === "string") return { ok: false, problem: `${which}${read}` };
      bytes = read;
    }
    const checked = await checkImage(bytes, ctx.ownSvg ?? false);
    if (!checked.ok) return { ok: false, problem: `${which}${checked.problem}` };
    const data = Buffer.from(checked.data.buffer, checked.data.byteOffset, checked.data.byteLength);
    out.push({ caption: img.caption, mimeType: checked.mimeType, sha256: sha256Hex(data), data });
  }
  // Row pointers only occur in VLMEvalKit rows, whose captions are plain "Image N": renumber after expanding.
  return { ok: true, images: expanded ? out.map((img, i) => ({ ...img, caption: `Image ${i + 1}` })) : out };
}
