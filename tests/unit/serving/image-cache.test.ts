import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { ImageCache } from "@/lib/server/image-cache";

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe("image byte cache", () => {
  it("keeps at most its byte bound, dropping the least recently served first", () => {
    const cache = new ImageCache(300);
    cache.set("a", { data: bytes(100, 1), mimeType: "image/png", sha256: "sa" });
    cache.set("b", { data: bytes(100, 2), mimeType: "image/png", sha256: "sb" });
    cache.set("c", { data: bytes(100, 3), mimeType: "image/png", sha256: "sc" });
    expect(cache.get("a")?.data[0]).toBe(1); // a is now the most recent
    cache.set("d", { data: bytes(100, 4), mimeType: "image/png", sha256: "sd" });
    expect(cache.usedBytes).toBe(300);
    expect(cache.get("b")).toBeNull();
    expect(cache.get("a")).toMatchObject({ mimeType: "image/png", sha256: "sa" });
    expect(cache.get("d")?.data[0]).toBe(4);
    expect(cache.hits).toBe(3);
    expect(cache.misses).toBe(1);
  });

  it("stores one copy of identical bytes, never mixes up different bytes with the same stored hash, skips oversize images", () => {
    const cache = new ImageCache(250);
    cache.set("x1", { data: bytes(100, 7), mimeType: "image/svg+xml", sha256: "same" });
    cache.set("x2", { data: bytes(100, 7), mimeType: "image/svg+xml", sha256: "same" });
    expect(cache.usedBytes).toBe(100);
    cache.set("y", { data: bytes(100, 8), mimeType: "image/svg+xml", sha256: "same" });
    expect(cache.get("x1")?.data[0]).toBe(7);
    expect(cache.get("y")?.data[0]).toBe(8);
    cache.set("big", { data: bytes(1000, 9), mimeType: "image/png", sha256: "big" });
    expect(cache.get("big")).toBeNull();
    expect(cache.usedBytes).toBe(200);
  });

  it("keeps a compressible image in its gzip form only, counts that size, and inflates the plain bytes on demand", () => {
    const cache = new ImageCache(10_000);
    const svg = new TextEncoder().encode(`<svg>${"<circle r='1'/>".repeat(2000)}</svg>`);
    const gzip = new Uint8Array(gzipSync(svg));
    cache.set("v", { data: svg, gzip, mimeType: "image/svg+xml", sha256: "sv" });
    expect(cache.usedBytes).toBe(gzip.byteLength);
    expect(cache.usedBytes).toBeLessThan(svg.byteLength / 10);
    const got = cache.get("v")!;
    expect(got.gzip).toBe(gzip);
    expect(Buffer.from(got.data).equals(Buffer.from(svg))).toBe(true);
  });
});
