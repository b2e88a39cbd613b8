import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { BASE_SECURITY_HEADERS } from "@/lib/http-security";
import { acceptsGzip, isCompressibleType } from "@/lib/http-compression";

/**
 * Next's build assets (/_next/static/…: content-hashed, never changed in place) served from memory by the custom
 * server: a first visit loads a dozen of them, and under a launch they were most of the requests Next handled. Same
 * headers as Next plus next.config.ts's security headers (proxy.ts does not run for them). Unknown types, missing
 * files and anything outside the folder are left to Next.
 */
const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

export class StaticAssets {
  private readonly files = new Map<string, { raw: Buffer; gzip: Buffer | null }>();
  private cached = 0;
  private readonly root: string;

  constructor(projectDir: string) {
    this.root = path.join(projectDir, ".next", "static");
  }

  /** The response for a /_next/static/ path, or null to let Next answer it. */
  async serve(
    pathname: string,
    method: string,
    acceptEncoding = "",
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer | null } | null> {
    if (method !== "GET" && method !== "HEAD") return null;
    const rel = pathname.slice("/_next/static/".length);
    let decoded: string;
    try {
      decoded = decodeURIComponent(rel);
    } catch {
      return null;
    }
    const type = TYPES[path.extname(decoded)];
    if (!type || decoded.includes("\0") || decoded.split("/").some((s) => s === ".." || s === "")) return null;
    let file = this.files.get(decoded);
    if (!file) {
      const raw = await fs.readFile(path.join(this.root, decoded)).catch(() => null);
      if (!raw) return null;
      // The build's own .gz form (scripts/precompress-static.mts), else compressed here once; fonts and images are
      // compressed already.
      const gzip = isCompressibleType(type)
        ? ((await fs.readFile(path.join(this.root, `${decoded}.gz`)).catch(() => null)) ?? gzipSync(raw))
        : null;
      file = { raw, gzip };
      if (this.cached + raw.byteLength <= MAX_CACHED_BYTES) {
        this.files.set(decoded, file);
        this.cached += raw.byteLength + (file.gzip?.byteLength ?? 0);
      }
    }
    const gzip = file.gzip && acceptsGzip(acceptEncoding) ? file.gzip : null;
    const body = gzip ?? file.raw;
    return {
      status: 200,
      headers: {
        ...BASE_SECURITY_HEADERS,
        "Content-Type": type,
        "Cache-Control": "public, max-age=31536000, immutable",
        Vary: "Accept-Encoding",
        ...(gzip ? { "Content-Encoding": "gzip" } : {}),
        "Content-Length": String(body.byteLength),
      },
      body: method === "HEAD" ? null : body,
    };
  }
}
