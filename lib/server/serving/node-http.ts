import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { jsonResponseEncoding, MIN_COMPRESSED_JSON_BYTES } from "@/lib/http-compression";
import type { JsonReply } from "@/lib/server/participant-flow/routes";
import type { RequestLike } from "@/lib/server/request-like";

/** A Node request's headers as a web Request's `get` reads them (names in any case; a repeated header, joined). */
class NodeRequestHeaders {
  constructor(
    private readonly headers: IncomingHttpHeaders,
    private readonly forwardedFor: string | null,
  ) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (key === "x-forwarded-for") return this.forwardedFor;
    // Own fields only: "constructor" or "__proto__" is no header (Headers says null).
    const value = Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
    if (value === undefined) return null;
    // Node joins a repeated header itself except Set-Cookie (an array), which a request does not carry; as Headers does.
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

/**
 * The request a route handler reads (lib/server/request-like.ts), as Next would hand it a web Request: absolute URL
 * from the Host header (serialised as a web Request serialises it), the body as the front read it, X-Forwarded-For as
 * Next leaves it: the client's header when proxies are trusted, else the socket address. Null when the Host header
 * makes no URL ("a b", "[::1"): the request is malformed.
 */
export function frontRequest(
  req: IncomingMessage,
  options: { trustedProxyHops: number; protocol: "http" | "https"; body?: Buffer },
): RequestLike | null {
  let url: URL;
  try {
    url = new URL(`${options.protocol}://${req.headers.host ?? "localhost"}${req.url ?? "/"}`);
  } catch {
    return null;
  }
  // A web Request refuses a URL with credentials ("Host: user:pw@elsewhere"), and so does the front.
  if (url.username || url.password) return null;
  const header = req.headers["x-forwarded-for"];
  const forwarded = options.trustedProxyHops > 0 && header !== undefined ? String(header) : undefined;
  return {
    url: url.href,
    method: req.method ?? "GET",
    headers: new NodeRequestHeaders(req.headers, forwarded ?? req.socket.remoteAddress ?? null),
    body: null,
    ...(options.body ? { bodyBytes: options.body } : {}),
  };
}

/**
 * Brotli for a body compressed on the event loop (up to SYNC_COMPRESS_MAX_BYTES): quality 1. An answer's JSON (≈ 3 KB)
 * costs ≈ 40–50 µs of CPU that way against ≈ 75–80 µs at quality 4 (≈ 50–65 µs gzip) when other work has just used
 * the caches, as on a loaded server, for 468 bytes against 416 (453 gzip): at this size brotli is preferred for its
 * CPU, not its bytes. A larger body, compressed in zlib's thread pool, gets quality 4: there the bytes matter more
 * than the CPU. Both measured by bench/json-compress.mts.
 */
const brotliOptions = (quality: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
});
const BROTLI_ON_LOOP = brotliOptions(1);
const BROTLI_IN_POOL = brotliOptions(4);

/**
 * Bodies up to this size are compressed on the event loop. An answer's or a session's JSON (1–5 KB) takes tens of µs
 * of CPU that way, against ≈ 90–120 µs through zlib's thread pool (handing the work to a thread and back costs more
 * than the compression; bench/json-compress.mts). 32 KB at quality 1 blocks the loop for well under a millisecond;
 * a larger body still goes to the thread pool.
 */
export const SYNC_COMPRESS_MAX_BYTES = 32 * 1024;

/** The body in the encoding chosen for it (see SYNC_COMPRESS_MAX_BYTES for where the work runs). */
export async function compressJson(body: Buffer, encoding: "br" | "gzip"): Promise<Buffer> {
  if (body.byteLength <= SYNC_COMPRESS_MAX_BYTES)
    return encoding === "br" ? zlib.brotliCompressSync(body, BROTLI_ON_LOOP) : zlib.gzipSync(body);
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === "br") zlib.brotliCompress(body, BROTLI_IN_POOL, done);
    else zlib.gzip(body, done);
  });
}

/**
 * Writes a web Response to a Node response (every Set-Cookie kept), with the headers proxy.ts would add. A JSON body
 * of 1 KB or more goes out brotli- or gzip-compressed when `acceptEncoding` accepts it (lib/http-compression.ts), as
 * Next compresses what it sends.
 */
export async function sendWebResponse(
  res: ServerResponse,
  response: Response,
  extra: Record<string, string>,
  method: string,
  acceptEncoding?: string,
): Promise<void> {
  const body: Buffer | null =
    method === "HEAD" || response.status === 304 || response.status === 204
      ? null
      : Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  await writeResponse(res, response.status, headers, body, extra, acceptEncoding);
}

/**
 * Writes a handler's JSON reply as sendWebResponse writes the `Response.json` it stands for (same status, headers and
 * bytes: replyResponse), without building that Response and reading its body back.
 */
export async function sendJsonReply(
  res: ServerResponse,
  reply: JsonReply,
  extra: Record<string, string>,
  method: string,
  acceptEncoding?: string,
): Promise<void> {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  // Serialised for HEAD too: a reply that does not serialise is an error whatever the method, as on Next's face.
  const text = JSON.stringify(reply.json) as string | undefined;
  if (text === undefined) throw new TypeError("The reply's JSON body serialises to nothing.");
  const body = method === "HEAD" || status === 304 || status === 204 ? null : Buffer.from(text);
  await writeResponse(res, status, headers, body, extra, acceptEncoding);
}

/** The shared end of both: the proxy's headers, compression of a JSON body, its length. */
async function writeResponse(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  original: Buffer | null,
  extra: Record<string, string>,
  acceptEncoding: string | undefined,
): Promise<void> {
  let body = original;
  // As proxy.ts does: its headers replace a handler's own of the same name.
  for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
  const json = String(headers["content-type"] ?? "").startsWith("application/json") && !headers["content-encoding"];
  if (body && json && body.byteLength >= MIN_COMPRESSED_JSON_BYTES) {
    headers.vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : "Accept-Encoding";
    const encoding = jsonResponseEncoding(acceptEncoding, body.byteLength);
    if (encoding) {
      body = await compressJson(body, encoding);
      headers["content-encoding"] = encoding;
    }
  }
  if (body) headers["content-length"] = String(body.byteLength);
  res.writeHead(status, headers);
  res.end(body ?? undefined);
}
