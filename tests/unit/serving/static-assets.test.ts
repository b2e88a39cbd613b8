import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { StaticAssets } from "@/lib/server/serving/static-assets";

describe("build assets served by the custom server", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-assets-"));
  fs.mkdirSync(path.join(dir, ".next", "static", "chunks"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".next", "static", "chunks", "app-0123.js"), "console.log('chunk');".repeat(50));
  fs.writeFileSync(path.join(dir, "secret.js"), "nope");
  const assets = new StaticAssets(dir);

  it("serves a chunk immutable, gzipped when the browser accepts it, with the security headers", async () => {
    const plain = await assets.serve("/_next/static/chunks/app-0123.js", "GET");
    expect(plain).toMatchObject({
      status: 200,
      headers: {
        "Content-Type": "application/javascript; charset=UTF-8",
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
      },
    });
    expect(plain!.body!.toString()).toContain("chunk");
    const gz = await assets.serve("/_next/static/chunks/app-0123.js", "GET", "gzip, deflate, br");
    expect(gz!.headers["Content-Encoding"]).toBe("gzip");
    expect(gunzipSync(gz!.body!).toString()).toBe(plain!.body!.toString());
  });

  it("sends the .gz form the build wrote beside a chunk instead of compressing it again", async () => {
    const text = "export const x = 1;".repeat(200);
    const file = path.join(dir, ".next", "static", "chunks", "built-4567.js");
    fs.writeFileSync(file, text);
    const built = gzipSync(text, { level: 1 });
    fs.writeFileSync(`${file}.gz`, built);
    const gz = await assets.serve("/_next/static/chunks/built-4567.js", "GET", "gzip");
    expect(gz!.body!.equals(built)).toBe(true);
    expect(gunzipSync(gz!.body!).toString()).toBe(text);
  });

  it("leaves to Next what it does not know: missing files, other types, escapes from the folder, other methods", async () => {
    expect(await assets.serve("/_next/static/chunks/missing.js", "GET")).toBeNull();
    expect(await assets.serve("/_next/static/chunks/app-0123.txt", "GET")).toBeNull();
    expect(await assets.serve("/_next/static/../../secret.js", "GET")).toBeNull();
    expect(await assets.serve("/_next/static/%2e%2e/%2e%2e/secret.js", "GET")).toBeNull();
    expect(await assets.serve("/_next/static/chunks/app-0123.js", "POST")).toBeNull();
  });
});
