import "server-only";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { acceptsGzip, isCompressibleType } from "@/lib/http-compression";
import { dbPool } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { env } from "@/lib/server/env";
import { ImageCache, type CachedImage } from "@/lib/server/image-cache";
import { verifyImageSegment } from "@/lib/server/image-url";
import { participantFromRequest } from "@/lib/server/participant-flow/token";

/**
 * Images are passive content. Even an SVG stored before foreign SVG was rasterised at import cannot run script,
 * load anything or act in the app's origin when opened directly: no sources at all, and a sandbox (unique origin).
 */
export const IMAGE_RESPONSE_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "X-Content-Type-Options": "nosniff",
} as const;

const cache = new ImageCache(env.IMAGE_CACHE_MB * 1024 * 1024);

/** The image cache of this process (its counters are read by the serving layer's status line). */
export function imageCache(): ImageCache {
  return cache;
}

/** Misses being loaded: requests for the same image meanwhile (a launch's prefetches) share one read and one gzip. */
const loading = new Map<string, Promise<CachedImage | null>>();

function loadImage(imageId: string): Promise<CachedImage | null> {
  const cached = cache.get(imageId);
  if (cached) return Promise.resolve(cached);
  let pending = loading.get(imageId);
  if (!pending) {
    pending = readAndCache(imageId).finally(() => loading.delete(imageId));
    loading.set(imageId, pending);
  }
  return pending;
}

async function readAndCache(imageId: string): Promise<CachedImage | null> {
  // The driver directly: a view is ~250 KB, and the ORM's row mapping of that many bytes cost more than the query.
  const { rows } = await withDbRetry(() =>
    dbPool().query<{ data: Buffer; mimeType: string; sha256: string }>(
      `SELECT data, "mimeType", sha256 FROM "ItemImage" WHERE id = $1`,
      [imageId],
    ),
  );
  const row = rows[0];
  if (!row) return null;
  const data = new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  // Compressed once per cached image, off the event loop (zlib's thread pool); kept only when it saves a tenth or more.
  const packed = isCompressibleType(row.mimeType) ? new Uint8Array(await gzipAsync(data, { level: 6 })) : null;
  const image = {
    data,
    gzip: packed && packed.byteLength <= data.byteLength * 0.9 ? packed : null,
    mimeType: row.mimeType,
    sha256: row.sha256,
  };
  cache.set(imageId, image);
  return image;
}
const gzipAsync = promisify(gzip);

/**
 * Whether the browser's copy is current (RFC 9110 §13.1.2, for GET): `If-None-Match: *` or a listed tag equal to this
 * representation's ETag (weak comparison, as the RFC prescribes for If-None-Match).
 */
export function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...IMAGE_RESPONSE_HEADERS } });

/**
 * GET /api/images/<signed segment> (lib/server/image-url.ts): the signature and the participant cookie are checked
 * without the database; the bytes come from the process's cache (the database only on a cache miss). 401 without a
 * participant cookie, 403 for a URL that is expired, tampered with or issued to another participant, 304 when the
 * browser already holds the image (If-None-Match). Same response headers under the custom server and under Next.
 */
export async function serveSignedImage(request: Request, segment: string, nowMs = Date.now()): Promise<Response> {
  const participant = participantFromRequest(request);
  if (!participant) return plain(401, "Unauthorized");
  const check = verifyImageSegment(segment, participant.participantId, nowMs);
  if (!check.ok)
    return plain(
      check.reason === "malformed" ? 404 : 403,
      check.reason === "malformed"
        ? "Not found"
        : "Forbidden: this image address is not valid (or no longer valid) for your session.",
    );
  const image = await loadImage(check.imageId);
  if (!image) return plain(404, "Not found");
  // Two representations, each with its own strong ETag (RFC 9110 §8.8.3): the bytes, and the same bytes gzipped.
  const packed = image.gzip && acceptsGzip(request.headers.get("accept-encoding")) ? image.gzip : null;
  const etag = packed ? `"${image.sha256}-gz"` : `"${image.sha256}"`;
  const maxAge = Math.max(0, Math.floor((check.expiresAtMs - nowMs) / 1000));
  const headers = {
    "Cache-Control": `private, max-age=${maxAge}, immutable`,
    ETag: etag,
    ...(image.gzip ? { Vary: "Accept-Encoding" } : {}),
    ...IMAGE_RESPONSE_HEADERS,
  };
  if (notModified(request, etag)) return new Response(null, { status: 304, headers });
  const body = (packed ?? image.data) as Uint8Array<ArrayBuffer>;
  return new Response(body, {
    headers: { ...headers, "Content-Type": image.mimeType, ...(packed ? { "Content-Encoding": "gzip" } : {}) },
  });
}
