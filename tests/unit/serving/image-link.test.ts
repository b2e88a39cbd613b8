import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { imageFileName, parseImageFileName, signImageLink, verifyImageLink } from "@/lib/image-link";

const SECRET = "unit-test-secret-0123456789abcdefghijkl";
const SHA = createHash("sha256").update("a picture").digest("hex");
const COOKIE = "cmparticipant0001.cmstudy0001.abcDEF_-";
const EXPIRY = 1_800_000_000;

function parts(link: string) {
  const url = new URL(link, "http://x");
  return {
    file: url.pathname.slice("/api/images/c/".length),
    expiry: url.searchParams.get("e"),
    mac: url.searchParams.get("s"),
  };
}

describe("image links (lib/image-link.ts)", () => {
  const link = signImageLink({
    secret: SECRET,
    sha256: SHA,
    mimeType: "image/svg+xml",
    cookie: COOKIE,
    expirySec: EXPIRY,
  });

  it("name the picture by its content hash only, with nginx's secure_link digest", () => {
    expect(link).toMatch(/^\/api\/images\/c\/[0-9a-f]{64}\.svg\?e=1800000000&s=[A-Za-z0-9_-]{22}$/);
    // nginx: secure_link_md5 "$secure_link_expires|$uri|$cookie_misi_participant|<secret>", base64url without padding.
    const expected = createHash("md5")
      .update(`${EXPIRY}|/api/images/c/${SHA}.svg|${COOKIE}|${SECRET}`)
      .digest("base64")
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(parts(link).mac).toBe(expected);
  });

  it("verify for the session they were issued to, up to and including the expiry second", () => {
    const ok = { secret: SECRET, cookie: COOKIE, ...parts(link) };
    expect(verifyImageLink({ ...ok, nowSec: EXPIRY })).toEqual({
      ok: true,
      sha256: SHA,
      mimeType: "image/svg+xml",
      expirySec: EXPIRY,
    });
    expect(verifyImageLink({ ...ok, nowSec: EXPIRY + 1 })).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse another session's cookie, a changed expiry, picture or digest, another secret", () => {
    const ok = { secret: SECRET, cookie: COOKIE, nowSec: EXPIRY - 60, ...parts(link) };
    const forged = { ok: false, reason: "forged" };
    expect(verifyImageLink({ ...ok, cookie: `${COOKIE}x` })).toEqual(forged);
    expect(verifyImageLink({ ...ok, cookie: null })).toEqual(forged);
    expect(verifyImageLink({ ...ok, expiry: String(EXPIRY + 3600) })).toEqual(forged);
    expect(verifyImageLink({ ...ok, expiry: `0${EXPIRY}` })).toEqual(forged);
    const other = createHash("sha256").update("another picture").digest("hex");
    expect(verifyImageLink({ ...ok, file: `${other}.svg` })).toEqual(forged);
    expect(verifyImageLink({ ...ok, file: `${SHA}.png` })).toEqual(forged);
    const mac = ok.mac!;
    expect(verifyImageLink({ ...ok, mac: (mac[0] === "A" ? "B" : "A") + mac.slice(1) })).toEqual(forged);
    expect(verifyImageLink({ ...ok, mac: null })).toEqual(forged);
    expect(verifyImageLink({ ...ok, secret: `${SECRET}x` })).toEqual(forged);
    expect(verifyImageLink({ ...ok, file: "../secret.svg" })).toEqual({ ok: false, reason: "malformed" });
    expect(verifyImageLink({ ...ok, file: `${SHA}.html` })).toEqual({ ok: false, reason: "malformed" });
  });

  it("file names round-trip for every stored type and refuse anything else", () => {
    for (const type of ["image/svg+xml", "image/png", "image/jpeg", "image/webp", "image/gif"])
      expect(parseImageFileName(imageFileName(SHA, type))).toEqual({ sha256: SHA, mimeType: type });
    expect(() => imageFileName(SHA, "text/html")).toThrow();
    expect(() => imageFileName("x", "image/png")).toThrow();
  });
});
