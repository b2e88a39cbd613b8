import "server-only";
import { acceptsBrotli, acceptsGzip, isCompressibleType } from "@/lib/http-compression";
import { IMAGE_LINK_COOKIE, verifyImageLink } from "@/lib/image-link";
import { dbPool } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { readStoredImage, storeImage } from "@/lib/server/image-store";
import { imageUrlSecret } from "@/lib/server/image-url";
import type { RequestLike } from "@/lib/server/request-like";

/**
 * Images are passive content. Even an SVG stored before foreign SVG was rasterised at import cannot run script,
 * load anything or act in the app's origin when opened directly: no sources at all, and a sandbox (unique origin).
 * nginx sends the same two headers on the links it serves (deploy/nginx.conf.template).
 */
export const IMAGE_RESPONSE_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  "X-Content-Type-Options": "nosniff",
} as const;

/** What nginx sends too: the link's expiry bounds it, so the browser may keep it an hour without asking again. */
export const IMAGE_LINK_CACHE_CONTROL = "private, max-age=3600, immutable";

/**
 * Whether the browser's copy is current (RFC 9110 §13.1.2, for GET): `If-None-Match: *` or a listed tag equal to this
 * representation's ETag (weak comparison, as the RFC prescribes for If-None-Match).
 */
export function notModified(request: RequestLike, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...IMAGE_RESPONSE_HEADERS } });

/** A cookie's value exactly as sent (nginx's `$cookie_<name>` is not percent-decoded either); "" when absent. */
function rawCookie(header: string | null, name: string): string {
  for (const pair of header?.split(/; */) ?? []) {
    const eq = pair.indexOf("=");
    if (eq !== -1 && pair.slice(0, eq) === name) return pair.slice(eq + 1);
  }
  return "";
}

/** One picture's bytes, by the index on (sha256, "mimeType"): asked on a participant's request when the store lacks it. */
export const IMAGE_WITH_HASH_SQL = `SELECT data FROM "ItemImage" WHERE sha256 = $1 AND "mimeType" = $2 LIMIT 1`;

/** Misses being loaded: requests for the same picture meanwhile share one database read and one store write. */
const loading = new Map<string, Promise<boolean>>();

/** Writes a picture the store lacks (stored before the store existed, or a fixture's row) from the database. */
function fillFromDatabase(sha256: string, mimeType: string): Promise<boolean> {
  const key = `${sha256}/${mimeType}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = (async () => {
      const { rows } = await withDbRetry(() =>
        dbPool().query<{ data: Buffer }>(IMAGE_WITH_HASH_SQL, [sha256, mimeType]),
      );
      if (!rows[0]) return false;
      // Fast settings: a participant is waiting, and a launch on a database nobody backfilled asks for thousands of
      // pictures at once (brotli at 11 costs ~0.45 s of CPU per 250 KB view, at 5 ~20 ms, a third larger).
      await storeImage(rows[0].data, mimeType, sha256, undefined, { brotliQuality: 5, gzipLevel: 6 });
      return true;
    })().finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/**
 * GET /api/images/c/<file>?e=&s= (lib/image-link.ts) when the app answers it: with no nginx in front (`npm run dev`,
 * a single instance), or from nginx when the store lacks the file. The same check as nginx's `secure_link` (403 for a
 * link that is tampered with, expired or issued to another session: nginx cannot tell these apart either), then the
 * stored file in the best form the browser accepts; no database unless the file is missing.
 */
export async function serveStoredImage(request: RequestLike, file: string, nowMs = Date.now()): Promise<Response> {
  const url = new URL(request.url);
  const check = verifyImageLink({
    secret: imageUrlSecret(),
    file,
    expiry: url.searchParams.get("e"),
    mac: url.searchParams.get("s"),
    cookie: rawCookie(request.headers.get("cookie"), IMAGE_LINK_COOKIE),
    nowSec: Math.floor(nowMs / 1000),
  });
  if (!check.ok)
    return check.reason === "malformed"
      ? plain(404, "Not found")
      : plain(403, "Forbidden: this image address is not valid (or no longer valid) for your session.");
  const { sha256, mimeType } = check;
  const accept = request.headers.get("accept-encoding");
  const compressible = isCompressibleType(mimeType);
  const wanted: ("br" | "gzip" | null)[] = [
    ...(compressible && acceptsBrotli(accept) ? (["br"] as const) : []),
    ...(compressible && acceptsGzip(accept) ? (["gzip"] as const) : []),
    null,
  ];
  let body: Buffer | null = null;
  let encoding: "br" | "gzip" | null = null;
  for (let attempt = 0; attempt < 2 && !body; attempt++) {
    for (const e of wanted) {
      body = await readStoredImage(sha256, mimeType, e);
      if (body) {
        encoding = e;
        break;
      }
    }
    if (!body && attempt === 0 && !(await fillFromDatabase(sha256, mimeType))) break;
  }
  if (!body) return plain(404, "Not found");
  const etag = `"${sha256}${encoding ? `-${encoding}` : ""}"`;
  const headers = {
    "Cache-Control": IMAGE_LINK_CACHE_CONTROL,
    ETag: etag,
    ...(compressible ? { Vary: "Accept-Encoding" } : {}),
    ...IMAGE_RESPONSE_HEADERS,
  };
  if (notModified(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as Uint8Array<ArrayBuffer>, {
    headers: { ...headers, "Content-Type": mimeType, ...(encoding ? { "Content-Encoding": encoding } : {}) },
  });
}
