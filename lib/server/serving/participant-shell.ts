import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { BASE_SECURITY_HEADERS, buildPageCsp, HSTS_HEADER } from "@/lib/http-security";
import { preferredEncoding } from "@/lib/http-compression";

/** Where `next build` writes the prerendered shell (app/participant-shell/page.tsx). */
export const SHELL_HTML = path.join(".next", "server", "app", "participant-shell.html");

/** The participant session page's address: every study's is the same shell. */
export const SESSION_PAGE_PATH = /^\/s\/[^/]+\/session$/;

/**
 * The sha256 (base64) of each inline script of a page: what its CSP must list so that the browser runs them, and
 * nothing else inline. Next's prerendered HTML has no nested <script> tags; a script with a src attribute is a file.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]!)) continue;
    hashes.add(createHash("sha256").update(m[2]!, "utf8").digest("base64"));
  }
  return [...hashes];
}

interface ShellResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

/**
 * The participant session page as a static file. A participant's page is the same for everyone (the session comes
 * from the API: components/study/session-shell.tsx), so it is rendered once by `next build` and sent from memory,
 * compressed once: under a launch the server-rendered page was the costliest request of an arrival. Its CSP lists the
 * hashes of the page's inline scripts (a nonce cannot be put into a file made at build time).
 */
export class ParticipantShell {
  private readonly html: Buffer;
  private readonly gzip: Buffer;
  private readonly br: Buffer;
  private readonly etag: string;
  private readonly csp: { http: string; https: string };

  private constructor(html: Buffer) {
    this.html = html;
    this.gzip = gzipSync(html, { level: 9 });
    this.br = brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
    this.etag = `"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`;
    const scriptHashes = inlineScriptHashes(html.toString("utf8"));
    this.csp = {
      http: buildPageCsp({ scriptHashes, dev: false, https: false }),
      https: buildPageCsp({ scriptHashes, dev: false, https: true }),
    };
  }

  /** The shell of the build in `projectDir`, or null when the build has none (Next then renders the page). */
  static load(projectDir: string): ParticipantShell | null {
    try {
      return new ParticipantShell(fs.readFileSync(path.join(projectDir, SHELL_HTML)));
    } catch {
      return null;
    }
  }

  /** The response for GET or HEAD of a session page. */
  serve(method: string, acceptEncoding: string, ifNoneMatch: string | undefined, https: boolean): ShellResponse {
    const encoding = preferredEncoding(acceptEncoding);
    // One tag per representation (RFC 9110 §8.8.3): the compressed bodies differ from the plain one.
    const etag = encoding ? `${this.etag.slice(0, -1)}-${encoding}"` : this.etag;
    const headers: Record<string, string> = {
      ...BASE_SECURITY_HEADERS,
      "Content-Security-Policy": https ? this.csp.https : this.csp.http,
      ...(https ? { "Strict-Transport-Security": HSTS_HEADER } : {}),
      "Content-Type": "text/html; charset=utf-8",
      // The same bytes for every participant until the next deployment: revalidated, never stale.
      "Cache-Control": "no-cache",
      ETag: etag,
      Vary: "Accept-Encoding",
      "X-Robots-Tag": "noindex",
    };
    if (ifNoneMatch?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag || t.trim() === "*"))
      return { status: 304, headers, body: null };
    const body = encoding === "br" ? this.br : encoding === "gzip" ? this.gzip : this.html;
    if (encoding) headers["Content-Encoding"] = encoding;
    headers["Content-Length"] = String(body.byteLength);
    return { status: 200, headers, body: method === "HEAD" ? null : body };
  }
}
