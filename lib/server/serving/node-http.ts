import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { jsonResponseEncoding, MIN_COMPRESSED_JSON_BYTES } from "@/lib/http-compression";

/**
 * A web Request for a Node request, as Next builds it for a route handler: absolute URL from the Host header, the
 * body as read already (`body`) or streamed (the handler's own reader enforces the size limit), X-Forwarded-For as Next leaves it: the client's
 * header when proxies are trusted, else the socket address.
 */
export function toWebRequest(
  req: IncomingMessage,
  options: { trustedProxyHops: number; protocol: "http" | "https"; body?: Buffer },
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  if (options.trustedProxyHops === 0) headers.delete("x-forwarded-for");
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress)
    headers.set("x-forwarded-for", req.socket.remoteAddress);
  const url = `${options.protocol}://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    ...(options.body
      ? { body: new Uint8Array(options.body.buffer, options.body.byteOffset, options.body.byteLength) }
      : hasBody
        ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" }
        : {}),
  } as RequestInit);
}

// Quality 4: for responses of a few KB, close to the best ratio at a small part of the default's (11) CPU.
const BROTLI_OPTIONS = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

/**
 * Bodies up to this size are compressed on the event loop. An answer's or a session's JSON (1–5 KB) takes 40–60 µs
 * of CPU that way, against 190–270 µs through zlib's thread pool (handing the work to a thread and back costs more
 * than the compression; bench/json-compress.mts). 32 KB at quality 4 blocks the loop for well under a millisecond;
 * a larger body still goes to the thread pool.
 */
export const SYNC_COMPRESS_MAX_BYTES = 32 * 1024;

/** The body in the encoding chosen for it (see SYNC_COMPRESS_MAX_BYTES for where the work runs). */
export async function compressJson(body: Buffer, encoding: "br" | "gzip"): Promise<Buffer> {
  if (body.byteLength <= SYNC_COMPRESS_MAX_BYTES)
    return encoding === "br" ? zlib.brotliCompressSync(body, BROTLI_OPTIONS) : zlib.gzipSync(body);
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (encoding === "br") zlib.brotliCompress(body, BROTLI_OPTIONS, done);
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
  let body: Buffer | null =
    method === "HEAD" || response.status === 304 || response.status === 204
      ? null
      : Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
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
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}
