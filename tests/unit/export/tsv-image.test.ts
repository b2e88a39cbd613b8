import { describe, expect, it } from "vitest";
import { renderPng } from "@/lib/render/png";
import { readPngSize, toMaxSidePx, toTsvPng } from "@/lib/server/export/tsv-image";

const svg = (w: number, h: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#000"/><circle cx="${w / 2}" cy="${h / 2}" r="${h / 4}" fill="#BF99F2"/></svg>`;
const svgImage = (w: number, h: number) => ({ mimeType: "image/svg+xml", data: new TextEncoder().encode(svg(w, h)) });

describe("VLMEvalKit TSV image sizes", () => {
  it("maps the size choice to a longest side", () => {
    expect(toMaxSidePx("original")).toBeNull();
    expect(toMaxSidePx(undefined)).toBeNull();
    expect(toMaxSidePx("768")).toBe(768);
  });

  it("renders SVGs at their own size, or scaled down to the longest side (aspect kept, never up)", () => {
    expect(readPngSize(toTsvPng(svgImage(1024, 1024), null, "t"))).toEqual({ width: 1024, height: 1024 });
    expect(readPngSize(toTsvPng(svgImage(1024, 1024), 512, "t"))).toEqual({ width: 512, height: 512 });
    expect(readPngSize(toTsvPng(svgImage(800, 400), 512, "t"))).toEqual({ width: 512, height: 256 });
    expect(readPngSize(toTsvPng(svgImage(300, 600), 512, "t"))).toEqual({ width: 256, height: 512 });
    expect(readPngSize(toTsvPng(svgImage(300, 500), 512, "t"))).toEqual({ width: 300, height: 500 });
  });

  it("passes stored PNGs through unchanged when small enough and scales big ones down", () => {
    const png = renderPng(svg(1024, 768)).png;
    const same = { mimeType: "image/png", data: new Uint8Array(png) };
    expect(Buffer.compare(toTsvPng(same, null, "t"), png)).toBe(0);
    expect(Buffer.compare(toTsvPng(same, 1024, "t"), png)).toBe(0);
    const small = toTsvPng(same, 512, "t");
    expect(readPngSize(small)).toEqual({ width: 512, height: 384 });
    expect(small.length).toBeLessThan(png.length);
  });

  it("names the image in its errors", () => {
    expect(() => toTsvPng({ mimeType: "image/png", data: new Uint8Array([1, 2, 3]) }, null, "item x, image 2")).toThrow(
      /item x, image 2: .*not a valid PNG/,
    );
    expect(() => toTsvPng({ mimeType: "image/jpeg", data: new Uint8Array([1]) }, null, "item y, image 0")).toThrow(
      /item y, image 0: image type image\/jpeg/,
    );
    expect(readPngSize(new Uint8Array(30))).toBeNull();
  });
});
