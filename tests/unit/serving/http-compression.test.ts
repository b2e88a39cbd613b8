import { describe, expect, it } from "vitest";
import { acceptsBrotli, acceptsGzip, isCompressibleType, jsonResponseEncoding } from "@/lib/http-compression";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8, *;q=0.1", true],
    ["GZIP", true],
    ["x-gzip", true],
    ["*", true],
    ["identity", false],
    ["", false],
    [null, false],
    ["gzip;q=0", false],
    ["*, gzip;q=0", false],
    ["gzip;q=0.000", false],
    ["deflate, *;q=0", false],
    ["gzipped", false],
  ])("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe("isCompressibleType", () => {
  it("compresses text formats and SVG, not PNG, JPEG or fonts", () => {
    expect(
      ["image/svg+xml", "application/json", "text/css; charset=UTF-8", "application/javascript; charset=UTF-8"].map(
        isCompressibleType,
      ),
    ).toEqual([true, true, true, true]);
    expect(["image/png", "image/jpeg", "font/woff2"].map(isCompressibleType)).toEqual([false, false, false]);
  });
});

describe("jsonResponseEncoding", () => {
  it("brotli when accepted, else gzip, else none; nothing below 1 KB", () => {
    expect(jsonResponseEncoding("gzip, deflate, br", 1024)).toBe("br");
    expect(jsonResponseEncoding("gzip, br;q=0", 4000)).toBe("gzip");
    expect(jsonResponseEncoding("gzip", 4000)).toBe("gzip");
    expect(jsonResponseEncoding("identity", 4000)).toBeNull();
    expect(jsonResponseEncoding(null, 4000)).toBeNull();
    expect(jsonResponseEncoding("gzip, br", 1023)).toBeNull();
    expect([acceptsBrotli("BR"), acceptsBrotli("*"), acceptsBrotli("*, br;q=0"), acceptsBrotli("brotli")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
