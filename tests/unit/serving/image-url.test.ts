import { describe, expect, it } from "vitest";
import {
  IMAGE_URL_TTL_S,
  isSignedSegment,
  signImageSegment,
  verifyImageSegment,
  withSignedImageUrls,
} from "@/lib/server/image-url";

const SECRET = "unit-test-secret-0123456789";
const NOW = Date.UTC(2026, 11, 1, 12, 30, 0);
const IMAGE = "cmabcdef0123456789xyzabcd";

describe("signed image URLs", () => {
  it("one path segment of letters and digits that names the image, verified for its participant until it expires", () => {
    const segment = signImageSegment(IMAGE, "participant-a", NOW, SECRET);
    expect(segment).toMatch(/^[A-Za-z0-9]+$/);
    expect(segment.startsWith(IMAGE)).toBe(true);
    expect(isSignedSegment(segment)).toBe(true);
    expect(isSignedSegment(IMAGE)).toBe(false);
    const check = verifyImageSegment(segment, "participant-a", NOW, SECRET);
    expect(check).toMatchObject({ ok: true, imageId: IMAGE });
    // Expiry: at least the TTL ahead, rounded up to the hour (so the URL stays the same for up to an hour).
    const expires = (check as { expiresAtMs: number }).expiresAtMs;
    expect(expires).toBeGreaterThanOrEqual(NOW + IMAGE_URL_TTL_S * 1000);
    expect(expires).toBeLessThanOrEqual(NOW + IMAGE_URL_TTL_S * 1000 + 3600_000);
    expect(expires % 3600_000).toBe(0);
    expect(signImageSegment(IMAGE, "participant-a", NOW + 10 * 60_000, SECRET)).toBe(segment);
  });

  it("refuses another participant, a tampered id, expiry or MAC, another secret, and an expired URL", () => {
    const segment = signImageSegment(IMAGE, "participant-a", NOW, SECRET);
    expect(verifyImageSegment(segment, "participant-b", NOW, SECRET)).toEqual({ ok: false, reason: "forged" });
    const otherImage = `cmabcdef0123456789xyzabce${segment.slice(IMAGE.length)}`;
    expect(verifyImageSegment(otherImage, "participant-a", NOW, SECRET)).toEqual({ ok: false, reason: "forged" });
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === "0" ? "1" : "0") + s.slice(at + 1);
    expect(verifyImageSegment(flip(segment, IMAGE.length + 3), "participant-a", NOW, SECRET)).toEqual({
      ok: false,
      reason: "forged",
    });
    expect(verifyImageSegment(flip(segment, segment.length - 1), "participant-a", NOW, SECRET)).toEqual({
      ok: false,
      reason: "forged",
    });
    expect(verifyImageSegment(segment, "participant-a", NOW, `${SECRET}x`)).toEqual({ ok: false, reason: "forged" });
    expect(verifyImageSegment(segment, "participant-a", NOW + (IMAGE_URL_TTL_S + 3600) * 1000, SECRET)).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(verifyImageSegment(`${IMAGE}x`, "participant-a", NOW, SECRET)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyImageSegment(`${segment}-`, "participant-a", NOW, SECRET)).toEqual({ ok: false, reason: "malformed" });
  });

  it("signs the current question's images and the upcoming ones in an untimed study, nothing in a timed one", () => {
    const session = {
      current: { item: { images: [{ id: IMAGE, position: 0, caption: "Image 1" }] } },
      upcomingImageIds: ["cmupcoming0123456789abcde"],
    };
    const untimed = withSignedImageUrls(session, "participant-a", false);
    expect((untimed.current!.item.images[0] as { url?: string }).url).toMatch(
      new RegExp(`^/api/images/${IMAGE}[a-z0-9]{39}$`),
    );
    expect(untimed.upcomingImageUrls).toHaveLength(1);
    expect(untimed.upcomingImageIds).toEqual(session.upcomingImageIds);
    const timed = withSignedImageUrls(session, "participant-a", true);
    expect(timed.current!.item.images[0]).not.toHaveProperty("url");
    expect(timed.upcomingImageUrls).toEqual([]);
  });
});
