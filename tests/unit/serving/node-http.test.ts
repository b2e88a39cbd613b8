import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { replyResponse, withOptionalParticipant } from "@/lib/server/participant-flow/routes";
import { readParticipantJsonBody } from "@/lib/server/read-json-body";
import {
  compressJson,
  frontRequest,
  sendJsonReply,
  sendWebResponse,
  SYNC_COMPRESS_MAX_BYTES,
} from "@/lib/server/serving/node-http";

const json = (bytes: number) =>
  Buffer.from(JSON.stringify({ pad: "participant ".repeat(Math.ceil(bytes / 12)) }).slice(0, bytes - 2) + '"}');

afterEach(() => vi.restoreAllMocks());

describe("compressJson", () => {
  it.each([
    ["br", 3_000],
    ["gzip", 3_000],
    ["br", SYNC_COMPRESS_MAX_BYTES + 1],
    ["gzip", 200_000],
  ] as const)("%s of %i bytes decodes to the same bytes", async (encoding, bytes) => {
    const body = json(bytes);
    const out = await compressJson(body, encoding);
    expect(out.byteLength).toBeLessThan(body.byteLength / 4);
    const back = encoding === "br" ? zlib.brotliDecompressSync(out) : zlib.gunzipSync(out);
    expect(back.equals(body)).toBe(true);
  });

  it("compresses a body up to the limit on the event loop and a larger one in zlib's thread pool", async () => {
    const onLoop = vi.spyOn(zlib, "brotliCompressSync");
    const inPool = vi.spyOn(zlib, "brotliCompress");
    await compressJson(json(SYNC_COMPRESS_MAX_BYTES), "br");
    expect([onLoop.mock.calls.length, inPool.mock.calls.length]).toEqual([1, 0]);
    await compressJson(json(SYNC_COMPRESS_MAX_BYTES + 1), "br");
    expect([onLoop.mock.calls.length, inPool.mock.calls.length]).toEqual([1, 1]);
  });
});

/** What a handler's reply became on the wire: status, headers, body bytes. */
function capture(): { res: ServerResponse; sent: () => { status: number; headers: unknown; body: Buffer } } {
  let status = 0;
  let headers: unknown = null;
  let body: Buffer = Buffer.alloc(0);
  const res = {
    writeHead: (s: number, h: unknown) => ((status = s), (headers = h)),
    end: (b?: Buffer) => void (body = b ?? Buffer.alloc(0)),
  } as unknown as ServerResponse;
  return { res, sent: () => ({ status, headers, body }) };
}

describe("sendJsonReply", () => {
  const extra = { "X-Frame-Options": "DENY", "cache-control": "no-store, no-transform" };
  it.each([
    ["small, sent as is", { json: { result: "ok" } }, "GET", "br"],
    [
      "large, brotli",
      { json: { pad: "participant ".repeat(300) }, headers: { "Cache-Control": "no-store" } },
      "POST",
      "br, gzip",
    ],
    ["large, gzip", { json: { pad: "participant ".repeat(300) }, status: 201 }, "POST", "gzip"],
    ["large, none accepted", { json: { pad: "participant ".repeat(300) } }, "POST", ""],
    [
      "an error with Retry-After, HEAD",
      { json: { error: { code: "X" } }, status: 429, headers: { "Retry-After": "3" } },
      "HEAD",
      "br",
    ],
  ] as const)(
    "%s: the same status, headers and bytes as the Response.json it stands for",
    async (_, reply, method, accept) => {
      const direct = capture();
      await sendJsonReply(direct.res, reply, { ...extra }, method, accept);
      const web = capture();
      await sendWebResponse(web.res, replyResponse(reply), { ...extra }, method, accept);
      expect(direct.sent().status).toBe(web.sent().status);
      expect(direct.sent().headers).toEqual(web.sent().headers);
      expect(direct.sent().body.equals(web.sent().body)).toBe(true);
    },
  );
});

describe("sendJsonReply's refusals", () => {
  it("throws before writing for a reply that does not serialise, HEAD included (Next's face answers 500 for both)", async () => {
    for (const method of ["POST", "HEAD"]) {
      const out = capture();
      await expect(sendJsonReply(out.res, { json: { n: 1n } }, {}, method, "br")).rejects.toThrow(TypeError);
      await expect(sendJsonReply(out.res, { json: undefined }, {}, method, "br")).rejects.toThrow(TypeError);
      expect(out.sent().status).toBe(0);
    }
  });
});

describe("frontRequest", () => {
  const node = (
    headers: Record<string, string | string[]>,
    url = "/api/participant/answer?x=1",
    remoteAddress = "10.0.0.9",
  ) => ({ headers, url, method: "POST", socket: { remoteAddress } }) as unknown as IncomingMessage;

  it("reads as the web Request Next would build: URL, headers in any case, X-Forwarded-For by the proxy rule", () => {
    const headers = { host: "Study.Example:8080", cookie: "a=1; b=2", "x-forwarded-for": "203.0.113.7" };
    const direct = frontRequest(node(headers), { trustedProxyHops: 1, protocol: "https" })!;
    const web = new Request(`https://${headers.host}/api/participant/answer?x=1`, { method: "POST", headers });
    expect(direct.url).toBe(web.url);
    expect(direct.method).toBe("POST");
    for (const name of ["Cookie", "cookie", "HOST", "x-forwarded-for", "origin"])
      expect(direct.headers.get(name)).toBe(web.headers.get(name));
    // No trusted proxy: the client's own header is not believed, its socket address is.
    expect(frontRequest(node(headers), { trustedProxyHops: 0, protocol: "http" })!.headers.get("X-Forwarded-For")).toBe(
      "10.0.0.9",
    );
    expect(
      frontRequest(node({ host: "a" }), { trustedProxyHops: 1, protocol: "http" })!.headers.get("x-forwarded-for"),
    ).toBe("10.0.0.9");
  });

  it("refuses a Host header that makes no URL, and hands the body it was given to the JSON reader", async () => {
    expect(frontRequest(node({ host: "a b" }), { trustedProxyHops: 0, protocol: "http" })).toBeNull();
    expect(frontRequest(node({ host: "[::1" }), { trustedProxyHops: 0, protocol: "http" })).toBeNull();
    // As a web Request: a URL with credentials is refused.
    expect(
      frontRequest(node({ host: "user:pw@elsewhere.example" }), { trustedProxyHops: 0, protocol: "http" }),
    ).toBeNull();
    // Only the request's own headers: no prototype field reads as one.
    const plain = frontRequest(node({ host: "localhost" }), { trustedProxyHops: 0, protocol: "http" })!;
    for (const name of ["constructor", "__proto__", "toString"]) expect(plain.headers.get(name)).toBeNull();
    const body = Buffer.from('{"answer":"move x 1"}');
    const request = frontRequest(node({ host: "localhost", "content-length": String(body.byteLength) }), {
      trustedProxyHops: 0,
      protocol: "http",
      body,
    })!;
    await expect(readParticipantJsonBody(request, 100)).resolves.toEqual({ answer: "move x 1" });
    await expect(readParticipantJsonBody(request, 10)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});

describe("a participant handler's web face", () => {
  it("answers a reply that does not serialise as the handler's error (500 in the API's shape), not a throw", async () => {
    const handler = withOptionalParticipant(async () => ({ json: { n: 1n } }));
    const response = await handler(new Request("http://localhost/api/participant/x"));
    expect(response.status).toBe(500);
    await expect(response.json()).resolves.toMatchObject({ error: { code: "INTERNAL" } });
  });
});
