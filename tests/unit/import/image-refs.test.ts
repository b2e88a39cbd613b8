import { describe, expect, it } from "vitest";
import {
  FileIndex,
  checkImageBytes,
  decodeBase64,
  parseImageRefs,
  parseListLiteral,
  resolveImagePath,
  sniffImageMime,
} from "@/lib/import/image-refs";
import { PNG_BASE64, pngBytes, svgBytes } from "../../fixtures/import/build-fixtures";

describe("image field values", () => {
  it("reads Python and JSON list literals", () => {
    expect(parseListLiteral("['a.png', \"b c.png\"]")).toEqual(["a.png", "b c.png"]);
    expect(parseListLiteral('["a.png","b.png"]')).toEqual(["a.png", "b.png"]);
    expect(parseListLiteral("[ ]")).toEqual([]);
    expect(parseListLiteral("['it\\'s.png']")).toEqual(["it's.png"]);
    expect(parseListLiteral("['a.png' 'b.png']")).toBeNull();
    expect(parseListLiteral("a.png")).toBeNull();
  });

  it("turns paths, lists, data URIs, base64 and {path}/{bytes} objects into references", () => {
    expect(parseImageRefs("images/1.png")).toEqual({ ok: true, refs: [{ kind: "path", path: "images/1.png" }] });
    expect(parseImageRefs(["a.png", "b.png"])).toEqual({
      ok: true,
      refs: [
        { kind: "path", path: "a.png" },
        { kind: "path", path: "b.png" },
      ],
    });
    expect(parseImageRefs("['a.png', 'b.png']")).toEqual({
      ok: true,
      refs: [
        { kind: "path", path: "a.png" },
        { kind: "path", path: "b.png" },
      ],
    });
    expect(parseImageRefs(`data:image/png;base64,${PNG_BASE64.red}`)).toEqual({
      ok: true,
      refs: [{ kind: "base64", data: PNG_BASE64.red, mimeType: "image/png" }],
    });
    const long = Buffer.concat([pngBytes("red"), Buffer.alloc(200)]).toString("base64");
    expect(parseImageRefs(long)).toEqual({ ok: true, refs: [{ kind: "base64", data: long }] });
    expect(parseImageRefs({ path: "x/y.png" })).toEqual({ ok: true, refs: [{ kind: "path", path: "x/y.png" }] });
    expect(parseImageRefs({ bytes: "QUJD" })).toEqual({ ok: true, refs: [{ kind: "base64", data: "QUJD" }] });
    expect(parseImageRefs(42)).toEqual({
      ok: false,
      problem: "expected a path, a list of paths or base64 data, got a number",
    });
    expect(parseImageRefs([["a.png"]])).toEqual({ ok: false, problem: "nested lists of images are not supported" });
  });

  it("applies VLMEvalKit's rule in its image column: 64 characters or fewer is another row's index", () => {
    expect(parseImageRefs("17", { rowReferences: true })).toEqual({ ok: true, refs: [{ kind: "row", index: "17" }] });
    expect(parseImageRefs(PNG_BASE64.red, { rowReferences: true })).toEqual({
      ok: true,
      refs: [{ kind: "base64", data: PNG_BASE64.red }],
    });
    // The same short value elsewhere is a path.
    expect(parseImageRefs("17")).toEqual({ ok: true, refs: [{ kind: "path", path: "17" }] });
  });
});

describe("resolving image paths", () => {
  const index = new FileIndex([
    "MiSI/test/T1/images/1.png",
    "MiSI/images/rotation/7.png",
    "MiSI/images/rotation/8.png",
    "MiSI/a/front.png",
    "MiSI/b/front.png",
  ]);

  it("tries the record's folder first, then each folder above it", () => {
    expect(resolveImagePath("images/1.png", "MiSI/test/T1/data.jsonl", index)).toEqual({
      ok: true,
      path: "MiSI/test/T1/images/1.png",
    });
    expect(resolveImagePath("images/rotation/7.png", "MiSI/test/q/rot.json", index)).toEqual({
      ok: true,
      path: "MiSI/images/rotation/7.png",
    });
    expect(resolveImagePath("./images/rotation/7.png", "MiSI/x.json", index)).toEqual({
      ok: true,
      path: "MiSI/images/rotation/7.png",
    });
  });

  it("finds files written as absolute paths on the authors' machine by their longest matching tail", () => {
    expect(resolveImagePath("/home/a/MiSI/images/rotation/8.png", "MiSI/test/q/rot.json", index)).toEqual({
      ok: true,
      path: "MiSI/images/rotation/8.png",
    });
    expect(resolveImagePath("C:\\data\\MiSI\\images\\rotation\\8.png", "r.json", index)).toEqual({
      ok: true,
      path: "MiSI/images/rotation/8.png",
    });
    expect(resolveImagePath("/x/a/front.png", "r.json", index)).toEqual({ ok: true, path: "MiSI/a/front.png" });
  });

  it("reports missing and ambiguous files instead of guessing", () => {
    expect(resolveImagePath("images/9.png", "MiSI/test/T1/data.jsonl", index)).toEqual({
      ok: false,
      problem: "image file 'images/9.png' not found in the import",
    });
    const ambiguous = resolveImagePath("/elsewhere/front.png", "r.json", index);
    expect(ambiguous.ok).toBe(false);
    expect(!ambiguous.ok && ambiguous.problem).toMatch(
      /ambiguous: 2 files match \(MiSI\/a\/front.png, MiSI\/b\/front.png\)/,
    );
  });

  it("does not climb out of the import with ..", () => {
    const outside = new FileIndex(["secret.png", "MiSI/x.json"]);
    // "../secret.png" from the root would escape; the base-name fallback only looks inside the import.
    expect(resolveImagePath("../../secret.png", "MiSI/x.json", outside)).toEqual({ ok: true, path: "secret.png" });
    expect(resolveImagePath("..", "MiSI/x.json", outside)).toEqual({ ok: false, problem: "'..' is not a file path" });
  });
});

describe("image bytes", () => {
  it("recognises types by content", () => {
    expect(sniffImageMime(pngBytes("red"))).toBe("image/png");
    expect(sniffImageMime(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageMime(svgBytes("x"))).toBe("image/svg+xml");
    expect(sniffImageMime(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(
      "image/svg+xml",
    );
    expect(sniffImageMime(Buffer.from("GIF89a...."))).toBe("image/gif");
    expect(sniffImageMime(Buffer.from("hello"))).toBeNull();
  });

  it("rasterises SVG to PNG, so no markup is stored or served", () => {
    const checked = checkImageBytes(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6" fill="red"/></svg>',
      ),
    );
    expect(checked.ok && checked.mimeType).toBe("image/png");
    expect(checked.ok && sniffImageMime(checked.data)).toBe("image/png");
    expect(
      checkImageBytes(
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><image href="https://evil.example/x.png" width="8" height="8"/></svg>',
        ),
      ),
    ).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^SVG refused: <image> at line 1 references 'https:\/\/evil\.example\/x\.png'/),
    });
  });

  it("keeps the app's own SVG only when asked (demo seed), still refusing references", () => {
    const own = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6"/></svg>',
    );
    expect(checkImageBytes(own, { keepSvg: true })).toEqual({ ok: true, mimeType: "image/svg+xml", data: own });
    expect(
      checkImageBytes(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><image href="/etc/x.png"/></svg>'), {
        keepSvg: true,
      }).ok,
    ).toBe(false);
  });

  it("checks emptiness and type", () => {
    expect(checkImageBytes(new Uint8Array())).toEqual({ ok: false, problem: "image is empty" });
    expect(checkImageBytes(Buffer.from("not an image"))).toEqual({
      ok: false,
      problem: "not a PNG, JPEG, WebP, GIF or SVG image (unrecognised content)",
    });
    expect(checkImageBytes(pngBytes("blue"))).toEqual({ ok: true, mimeType: "image/png", data: pngBytes("blue") });
  });

  it("decodes base64 strictly", () => {
    expect(Buffer.from(decodeBase64("QUJD")!).toString()).toBe("ABC");
    expect(Buffer.from(decodeBase64("QU\nJD")!).toString()).toBe("ABC");
    expect(decodeBase64("not base64!")).toBeNull();
    expect(decodeBase64("")).toBeNull();
  });
});
