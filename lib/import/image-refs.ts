import path from "node:path/posix";
import { findSvgReferenceProblem, rasterizeForeignSvg } from "@/lib/import/foreign-svg";

/**
 * Image references found in records: a path inside the import (relative to the record's file, to
 * the import root, or an absolute path from the authors' machine), inline base64 (VLMEvalKit,
 * data: URIs, Hugging Face `{bytes}` objects), or a VLMEvalKit pointer to another row's image.
 */
export type ImageRef =
  { kind: "path"; path: string } | { kind: "base64"; data: string; mimeType?: string } | { kind: "row"; index: string };

export type ParseImageRefsResult = { ok: true; refs: ImageRef[] } | { ok: false; problem: string };

/**
 * VLMEvalKit stores an image either as base64 or, to save space, as the `index` of another row
 * whose image is the same; it tells them apart by length (≤ 64 characters is an index).
 */
export const VLMEVALKIT_ROW_REFERENCE_MAX_CHARS = 64;

const BASE64_BODY = /^[A-Za-z0-9+/\r\n]+={0,2}$/;
/** Shorter strings are treated as paths: a file name is never this long, a tiny PNG in base64 is longer. */
const MIN_INLINE_BASE64_CHARS = 200;
const DATA_URI = /^data:(image\/[a-z0-9.+-]+);base64,/i;

/** Parses a list literal as written by Python (`['a.png', 'b.png']`, VLMEvalKit's toliststr) or JSON. */
export function parseListLiteral(text: string): string[] | null {
  const t = text.trim();
  if (!t.startsWith("[") || !t.endsWith("]")) return null;
  try {
    const json: unknown = JSON.parse(t);
    if (Array.isArray(json) && json.every((v) => typeof v === "string")) return json;
  } catch {
    // not JSON; try the Python form below
  }
  const items: string[] = [];
  let i = 1;
  const end = t.length - 1;
  const skipSpace = () => {
    while (i < end && /\s/.test(t[i]!)) i++;
  };
  skipSpace();
  if (i === end) return [];
  while (i < end) {
    const quote = t[i];
    if (quote !== "'" && quote !== '"') return null;
    i++;
    let value = "";
    while (i < end && t[i] !== quote) {
      if (t[i] === "\\" && i + 1 < end) {
        value += t[i + 1];
        i += 2;
      } else {
        value += t[i];
        i++;
      }
    }
    if (i >= end) return null;
    i++;
    items.push(value);
    skipSpace();
    if (i < end) {
      if (t[i] !== ",") return null;
      i++;
      skipSpace();
    }
  }
  return items;
}

function refFromString(raw: string, options: { rowReferences: boolean }): ImageRef | null {
  const s = raw.trim();
  if (s === "") return null;
  const uri = DATA_URI.exec(s);
  if (uri) return { kind: "base64", data: s.slice(uri[0].length), mimeType: uri[1]!.toLowerCase() };
  if (options.rowReferences) {
    // VLMEvalKit's image column holds base64 or a row pointer, never a path.
    return s.length <= VLMEVALKIT_ROW_REFERENCE_MAX_CHARS && !/[./\\]/.test(s)
      ? { kind: "row", index: s }
      : { kind: "base64", data: s };
  }
  if (s.length >= MIN_INLINE_BASE64_CHARS && BASE64_BODY.test(s)) return { kind: "base64", data: s };
  return { kind: "path", path: s };
}

/**
 * Reads an image field value. `rowReferences` reads it as VLMEvalKit's `image` column: base64, or a
 * short string that is the index of another row (a MiSI `image` value of "12" is a path instead).
 */
export function parseImageRefs(value: unknown, options: { rowReferences?: boolean } = {}): ParseImageRefsResult {
  const opts = { rowReferences: options.rowReferences ?? false };
  const refs: ImageRef[] = [];
  const visit = (v: unknown, depth: number): string | null => {
    if (v === null || v === undefined) return null;
    if (typeof v === "string") {
      const list = v.trim().startsWith("[") ? parseListLiteral(v) : null;
      if (list) {
        for (const item of list) {
          const ref = refFromString(item, opts);
          if (ref) refs.push(ref);
        }
        return null;
      }
      const ref = refFromString(v, opts);
      if (ref) refs.push(ref);
      return null;
    }
    if (Array.isArray(v)) {
      if (depth > 0) return "nested lists of images are not supported";
      for (const item of v) {
        const problem = visit(item, depth + 1);
        if (problem) return problem;
      }
      return null;
    }
    if (typeof v === "object") {
      // Hugging Face datasets' Image feature: { bytes, path }.
      const o = v as Record<string, unknown>;
      if (typeof o.bytes === "string" && o.bytes.length > 0) {
        refs.push({ kind: "base64", data: o.bytes });
        return null;
      }
      if (typeof o.path === "string" && o.path.trim() !== "") {
        refs.push({ kind: "path", path: o.path.trim() });
        return null;
      }
      return "an image object needs a 'path' or 'bytes' string";
    }
    return `expected a path, a list of paths or base64 data, got a ${typeof v}`;
  };
  const problem = visit(value, 0);
  if (problem) return { ok: false, problem };
  return { ok: true, refs };
}

/** Index of the files of an import by base name, for resolving image paths. */
export class FileIndex {
  private readonly byBase = new Map<string, string[]>();
  private readonly all = new Map<string, number | undefined>();

  /** Paths, or files with their sizes (known sizes let readers refuse oversized files before reading). */
  constructor(files: Iterable<string | { path: string; size: number }>) {
    for (const f of files) {
      if (typeof f === "string") this.add(f);
      else this.add(f.path, f.size);
    }
  }

  add(filePath: string, size?: number): void {
    this.all.set(filePath, size);
    const base = path.basename(filePath).toLowerCase();
    const list = this.byBase.get(base);
    if (list) list.push(filePath);
    else this.byBase.set(base, [filePath]);
  }

  has(filePath: string): boolean {
    return this.all.has(filePath);
  }

  sizeOf(filePath: string): number | undefined {
    return this.all.get(filePath);
  }

  withBaseName(base: string): readonly string[] {
    return this.byBase.get(base.toLowerCase()) ?? [];
  }
}

export type ResolvePathResult = { ok: true; path: string } | { ok: false; problem: string };

function countCommonTrailingSegments(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n]!.toLowerCase() === b[b.length - 1 - n]!.toLowerCase()) n++;
  return n;
}

/**
 * Finds the file an image path in a record means. Tried in order: relative to the record's
 * folder, relative to each folder above it up to the root; then, for paths written on another
 * machine (`/data/misi/images/1.png`, `C:\\misi\\images\\1.png`), the one file whose path shares the
 * longest tail with it. Two equally good matches are reported, never guessed.
 */
export function resolveImagePath(ref: string, recordFile: string, index: FileIndex): ResolvePathResult {
  const cleaned = ref.replace(/\\/g, "/").replace(/^[A-Za-z]:\//, "/");
  const relative = cleaned.replace(/^\/+/, "");
  if (relative === "") return { ok: false, problem: "empty image path" };
  let dir = path.dirname(recordFile);
  for (;;) {
    const candidate = path.normalize(path.join(dir === "." ? "" : dir, relative));
    if (!candidate.startsWith("../") && index.has(candidate)) return { ok: true, path: candidate };
    if (dir === "." || dir === "/" || dir === "") break;
    dir = path.dirname(dir);
  }
  const segments = relative.split("/").filter((s) => s !== "" && s !== ".");
  const base = segments.at(-1);
  if (!base || base === "..") return { ok: false, problem: `'${ref}' is not a file path` };
  const candidates = index.withBaseName(base);
  if (candidates.length === 0) return { ok: false, problem: `image file '${ref}' not found in the import` };
  if (candidates.length === 1) return { ok: true, path: candidates[0]! };
  const scored = candidates.map((c) => ({ c, n: countCommonTrailingSegments(c.split("/"), segments) }));
  const top = Math.max(...scored.map((s) => s.n));
  const best = scored.filter((s) => s.n === top);
  if (best.length === 1) return { ok: true, path: best[0]!.c };
  return {
    ok: false,
    problem: `image path '${ref}' is ambiguous: ${best.length} files match (${best
      .slice(0, 3)
      .map((b) => b.c)
      .join(", ")}${best.length > 3 ? ", …" : ""})`,
  };
}

export type ImageMime = "image/png" | "image/jpeg" | "image/svg+xml" | "image/webp" | "image/gif";

/** Largest image accepted per file (a 1024² PNG view is well under 2 MB). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** The image type from the bytes themselves (never trust the extension alone), or null. */
export function sniffImageMime(bytes: Uint8Array): ImageMime | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (
    b.length >= 12 &&
    String.fromCharCode(...b.subarray(0, 4)) === "RIFF" &&
    String.fromCharCode(...b.subarray(8, 12)) === "WEBP"
  )
    return "image/webp";
  if (b.length >= 6 && /^GIF8[79]a$/.test(String.fromCharCode(...b.subarray(0, 6)))) return "image/gif";
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(b.subarray(0, 1024))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return "image/svg+xml";
  return null;
}

/** A checked image ready to store: foreign SVG has become a PNG (lib/import/foreign-svg.ts says why). */
export type CheckedImage =
  | { ok: true; mimeType: ImageMime; data: Uint8Array; rasterizedFrom?: "image/svg+xml" }
  | { ok: false; problem: string };

/**
 * Checks decoded image bytes: known type and size; an SVG is rasterised to PNG (or refused with the reason).
 * `keepSvg` is for the app's own renderer output only (the demo seed): checked for references, stored as SVG.
 */
export function checkImageBytes(bytes: Uint8Array, options: { keepSvg?: boolean } = {}): CheckedImage {
  if (bytes.length === 0) return { ok: false, problem: "image is empty" };
  if (bytes.length > MAX_IMAGE_BYTES)
    return { ok: false, problem: `image is ${bytes.length} bytes, more than the limit of ${MAX_IMAGE_BYTES}` };
  const mimeType = sniffImageMime(bytes);
  if (!mimeType) return { ok: false, problem: "not a PNG, JPEG, WebP, GIF or SVG image (unrecognised content)" };
  if (mimeType === "image/svg+xml" && options.keepSvg) {
    const problem = findSvgReferenceProblem(new TextDecoder().decode(bytes));
    return problem ? { ok: false, problem: `SVG refused: ${problem}` } : { ok: true, mimeType, data: bytes };
  }
  if (mimeType === "image/svg+xml") {
    const raster = rasterizeForeignSvg(bytes);
    if (!raster.ok) return raster;
    return { ok: true, mimeType: "image/png", data: raster.png, rasterizedFrom: "image/svg+xml" };
  }
  return { ok: true, mimeType, data: bytes };
}

/** Decodes strict base64 (line breaks allowed); null when the text is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const compact = /\s/.test(text) ? text.replace(/\s+/g, "") : text;
  if (compact.length === 0 || compact.length % 4 === 1) return null;
  // Buffer.from skips characters outside the alphabet; re-encoding (native, fast on large images)
  // tells a clean decode from one that dropped garbage.
  const bytes = Buffer.from(compact, "base64");
  const back = bytes.toString("base64");
  const unpadded = compact.replace(/=+$/, "");
  if (back.replace(/=+$/, "") !== unpadded) return null;
  return bytes;
}
