import "server-only";
import { Resvg } from "@resvg/resvg-js";
import { resvgOptionsFor } from "@/lib/render/png";

/** Image sizes offered for the VLMEvalKit TSV: longest side in px, or null for the stored size. */
export const TSV_IMAGE_SIZES = ["original", "1024", "768", "512"] as const;
export type TsvImageSize = (typeof TSV_IMAGE_SIZES)[number];

export function toMaxSidePx(size: TsvImageSize | undefined): number | null {
  return size === undefined || size === "original" ? null : Number(size);
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23), or null when the bytes are not a PNG. */
export function readPngSize(png: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || signature.some((b, i) => png[i] !== b)) return null;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function fitLongestSide(width: number, height: number, maxSidePx: number | null) {
  if (maxSidePx === null || Math.max(width, height) <= maxSidePx) return { mode: "original" as const };
  return width >= height ? { mode: "width" as const, value: maxSidePx } : { mode: "height" as const, value: maxSidePx };
}

/**
 * A stored item image as PNG bytes for the TSV: SVG rasterised with the app's renderer and font,
 * PNG passed through; with a size, images whose longest side exceeds it are scaled down to it
 * (never up), SVGs by rendering at that size, PNGs by re-rasterising them inside an SVG <image>.
 */
export function toTsvPng(
  image: { mimeType: string; data: Uint8Array },
  maxSidePx: number | null,
  where: string,
): Buffer {
  if (image.mimeType === "image/png") {
    const size = readPngSize(image.data);
    if (!size) throw new Error(`${where}: the stored PNG is not a valid PNG file`);
    const fit = fitLongestSide(size.width, size.height, maxSidePx);
    if (fit.mode === "original") return Buffer.from(image.data);
    const href = `data:image/png;base64,${Buffer.from(image.data).toString("base64")}`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><image href="${href}" width="${size.width}" height="${size.height}"/></svg>`;
    return new Resvg(svg, { ...resvgOptionsFor(), fitTo: fit }).render().asPng();
  }
  if (image.mimeType === "image/svg+xml") {
    try {
      const svg = Buffer.from(image.data).toString("utf8");
      const options = resvgOptionsFor();
      const original = new Resvg(svg, options);
      const fit = fitLongestSide(original.width, original.height, maxSidePx);
      return (fit.mode === "original" ? original : new Resvg(svg, { ...options, fitTo: fit })).render().asPng();
    } catch (err) {
      throw new Error(
        `${where}: the SVG image could not be converted to PNG: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  throw new Error(
    `${where}: image type ${image.mimeType} is neither PNG nor SVG; the VLMEvalKit export writes PNG only`,
  );
}
