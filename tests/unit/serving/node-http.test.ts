import zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { compressJson, SYNC_COMPRESS_MAX_BYTES } from "@/lib/server/serving/node-http";

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
