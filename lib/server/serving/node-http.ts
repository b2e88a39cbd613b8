import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * A web Request for a Node request, as Next builds it for a route handler: absolute URL from the Host header, the
 * body as read already (`body`) or streamed (the handler's own reader enforces the size limit), X-Forwarded-For as Next leaves it: the client's
 * header when proxies are trusted, else the socket address.
 */
export function toWebRequest(req: IncomingMessage, options: { trustedProxyHops: number; protocol: "http" | "https"; body?: Buffer }): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  if (options.trustedProxyHops === 0) headers.delete("x-forwarded-for");
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
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

/** Writes a web Response to a Node response (every Set-Cookie kept), with the headers proxy.ts would add. */
export async function sendWebResponse(res: ServerResponse, response: Response, extra: Record<string, string>, method: string): Promise<void> {
  const body = method === "HEAD" || response.status === 304 || response.status === 204 ? null : Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  // As proxy.ts does: its headers replace a handler's own of the same name.
  for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
  if (body) headers["content-length"] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}
