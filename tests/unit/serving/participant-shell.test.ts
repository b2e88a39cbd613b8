import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  inlineScriptHashes,
  ParticipantShell,
  SESSION_PAGE_PATH,
  SHELL_HTML,
} from "@/lib/server/serving/participant-shell";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("base64");

// The shape of Next's prerendered HTML: script files, inline flight data (with quotes, a "<" escaped as \u003c).
const HTML =
  '<!DOCTYPE html><html><head><script src="/_next/static/chunks/a.js" async=""></script></head><body>' +
  "<main><p>Loading your study…</p></main>" +
  "<script>(self.__next_f=self.__next_f||[]).push([0])</script>" +
  '<script>self.__next_f.push([1,"0:{\\"P\\":null}\\n\\u003cx"])</script>' +
  '<script type="module" SRC="/_next/static/chunks/b.js"></script>' +
  "<script>(self.__next_f=self.__next_f||[]).push([0])</script></body></html>";

function shellFrom(html: string): ParticipantShell {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-shell-"));
  fs.mkdirSync(path.dirname(path.join(dir, SHELL_HTML)), { recursive: true });
  fs.writeFileSync(path.join(dir, SHELL_HTML), html);
  return ParticipantShell.load(dir)!;
}

describe("the participant shell", () => {
  it("hashes each distinct inline script, and no script file", () => {
    expect(inlineScriptHashes(HTML)).toEqual([
      sha("(self.__next_f=self.__next_f||[]).push([0])"),
      sha('self.__next_f.push([1,"0:{\\"P\\":null}\\n\\u003cx"])'),
    ]);
  });

  it("is sent with a CSP of those hashes and no nonce, compressed as the browser accepts, revalidated by ETag", () => {
    const shell = shellFrom(HTML);
    const plain = shell.serve("GET", "", undefined, false);
    expect(plain.status).toBe(200);
    expect(plain.body!.toString("utf8")).toBe(HTML);
    const csp = plain.headers["Content-Security-Policy"]!;
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src "))!;
    expect(scriptSrc).toBe(
      `script-src 'self' ${inlineScriptHashes(HTML)
        .map((h) => `'sha256-${h}'`)
        .join(" ")}`,
    );
    expect(csp).not.toContain("nonce");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(plain.headers["X-Frame-Options"]).toBe("DENY");
    expect(plain.headers["Cache-Control"]).toBe("no-cache");

    const br = shell.serve("GET", "gzip, deflate, br", undefined, true);
    expect(br.headers["Content-Encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body!).toString("utf8")).toBe(HTML);
    expect(br.headers["Strict-Transport-Security"]).toContain("max-age=");
    expect(br.headers["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
    const gz = shell.serve("GET", "gzip", undefined, false);
    expect(gz.headers["Content-Encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body!).toString("utf8")).toBe(HTML);
    expect(shell.serve("GET", "br;q=0, gzip;q=0", undefined, false).headers["Content-Encoding"]).toBeUndefined();

    expect(gz.headers.ETag).not.toBe(plain.headers.ETag);
    expect(br.headers.ETag).not.toBe(gz.headers.ETag);
    const again = shell.serve("GET", "gzip", `W/"x", ${gz.headers.ETag}`, false);
    expect(again.status).toBe(304);
    expect(shell.serve("GET", "br", gz.headers.ETag, false).status).toBe(200);
    expect(shell.serve("GET", "gzip", "*", false).status).toBe(304);
    expect(again.body).toBeNull();
    expect(shell.serve("GET", "gzip", '"other"', false).status).toBe(200);
    const head = shell.serve("HEAD", "gzip", undefined, false);
    expect(head.body).toBeNull();
    expect(head.headers["Content-Length"]).toBe(gz.headers["Content-Length"]);
  });

  it("is absent when the build has none", () => {
    expect(ParticipantShell.load(fs.mkdtempSync(path.join(os.tmpdir(), "misi-noshell-")))).toBeNull();
  });

  it("answers every study's session page and nothing else", () => {
    expect(SESSION_PAGE_PATH.test("/s/demo-study/session")).toBe(true);
    for (const p of ["/s/demo-study", "/s/demo-study/session/x", "/s//session", "/s/a/b/session", "/participant-shell"])
      expect(SESSION_PAGE_PATH.test(p)).toBe(false);
  });
});
