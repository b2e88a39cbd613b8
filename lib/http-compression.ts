/**
 * Which responses the server sends gzip-compressed, and to whom. Text formats only: PNG, JPEG and fonts are compressed
 * already. Rendered SVG views (atoms, bonds, labels as text) shrink about fivefold, which decides how long a participant
 * on a slow connection waits for a question's images.
 */
export function isCompressibleType(contentType: string): boolean {
  return /^(?:application\/(?:javascript|json)|text\/|image\/svg\+xml)/i.test(contentType);
}

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): listed as `gzip` (or `x-gzip`) or covered by `*`,
 * with a weight above zero; an explicit `gzip;q=0` refuses it even when `*` is accepted.
 */
export function acceptsGzip(acceptEncoding: string | null | undefined): boolean {
  return acceptsEncoding(acceptEncoding, ["gzip", "x-gzip"]);
}

/** Whether an Accept-Encoding header accepts brotli (`br`), by the same rules as acceptsGzip. */
export function acceptsBrotli(acceptEncoding: string | null | undefined): boolean {
  return acceptsEncoding(acceptEncoding, ["br"]);
}

/** Smallest JSON response worth compressing: below it the encoding's headers and CPU outweigh the bytes saved. */
export const MIN_COMPRESSED_JSON_BYTES = 1024;

/**
 * The encoding for a text response this Accept-Encoding allows: brotli when accepted, else gzip, else none. Brotli:
 * precompressed files and bodies over 32 KB are a fifth smaller than gzip; a small JSON body (quality 1, compressed on
 * the event loop: lib/server/serving/node-http.ts) about as small, for less CPU.
 */
export function preferredEncoding(acceptEncoding: string | null | undefined): "br" | "gzip" | null {
  if (acceptsBrotli(acceptEncoding)) return "br";
  return acceptsGzip(acceptEncoding) ? "gzip" : null;
}

/** How to encode a JSON response of `bytes` bytes: preferredEncoding, none below MIN_COMPRESSED_JSON_BYTES. */
export function jsonResponseEncoding(acceptEncoding: string | null | undefined, bytes: number): "br" | "gzip" | null {
  return bytes < MIN_COMPRESSED_JSON_BYTES ? null : preferredEncoding(acceptEncoding);
}

function acceptsEncoding(acceptEncoding: string | null | undefined, names: readonly string[]): boolean {
  if (!acceptEncoding) return false;
  let star: boolean | null = null;
  for (const part of acceptEncoding.split(",")) {
    const [token = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const accepted = Number.isFinite(weight) && weight > 0;
    const name = token.trim();
    if (names.includes(name)) return accepted;
    if (name === "*") star = accepted;
  }
  return star === true;
}
