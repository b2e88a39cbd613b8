import { afterAll, describe, expect, it } from "vitest";
import { gunzipSync } from "node:zlib";
import { db, disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { submitAnswer } from "@/lib/server/participant-flow/record-response";
import { imageCache, serveSignedImage } from "@/lib/server/image-serve";
import { getParticipantImage } from "@/lib/server/participant-flow/routes/image";
import { IMAGE_URL_TTL_S, signImageSegment, withSignedImageUrls } from "@/lib/server/image-url";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import { createTranslationStudy, joinStudy, TEST_DEVICE } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

async function consented(config: Parameters<typeof createTranslationStudy>[0]["config"], pid: string) {
  const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, ...config } });
  const participantId = await joinStudy(study.slug, pid);
  await recordConsent(participantId, true, TEST_DEVICE);
  return { participantId, cookie: `${PARTICIPANT_COOKIE}=${createParticipantToken(participantId, study.id)}` };
}

const get = (url: string, headers: Record<string, string> = {}) => new Request(`http://127.0.0.1${url}`, { headers });
const segmentOf = (url: string) => url.slice("/api/images/".length);

describe("signed image URLs, as the participant routes issue them and the image route serves them", () => {
  it("untimed: the session's current and upcoming images carry signed URLs that serve the bytes, cacheable, with 304 on revalidation", async () => {
    const { participantId, cookie } = await consented({}, "signed-untimed");
    const session = withSignedImageUrls((await getParticipantSession(participantId))!, participantId, false);
    const url = session.current!.item.images[0]!.url!;
    expect(url).toMatch(/^\/api\/images\/[A-Za-z0-9]+$/);
    expect(session.upcomingImageUrls).toHaveLength(1);

    const res = await serveSignedImage(get(url, { cookie }), segmentOf(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(await res.text()).toContain("<svg");
    expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+, immutable$/);
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get("cache-control")!)![1]);
    expect(maxAge).toBeGreaterThanOrEqual(IMAGE_URL_TTL_S - 5);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const etag = res.headers.get("etag")!;
    expect(etag).toBe('"x"');

    const again = await serveSignedImage(get(url, { cookie, "if-none-match": etag }), segmentOf(url));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    // The next question's prefetched URL is the one the answer's update names (same hour): the browser's cache answers it.
    const out = await submitAnswer({
      participantId,
      assignmentId: session.current!.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: "signed-untimed-1",
      rtClientMs: 1000,
    });
    expect(out.timed).toBe(false);
    const update = withSignedImageUrls(out.update, participantId, out.timed);
    expect(update.current!.item.images.map((i) => i.url)).toEqual(session.upcomingImageUrls);
  });

  it("an SVG goes gzip-compressed to a browser that accepts it, with its own ETag; the bytes unchanged to one that does not", async () => {
    const { participantId, cookie } = await consented({}, "signed-gzip");
    const session = withSignedImageUrls((await getParticipantSession(participantId))!, participantId, false);
    const image = session.current!.item.images[0]!;
    // A rendered view's size and redundancy: many atoms and labels as SVG elements.
    const atoms = Array.from(
      { length: 2000 },
      (_, i) =>
        `<circle cx="${(i * 37) % 1024}" cy="${(i * 91) % 1024}" r="6" fill="#909090"/><text x="${(i * 37) % 1024}" y="${(i * 91) % 1024}">C${i}</text>`,
    );
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">${atoms.join("")}</svg>`);
    await db.itemImage.update({ where: { id: image.id }, data: { data: svg } });

    const zipped = await serveSignedImage(
      get(image.url!, { cookie, "accept-encoding": "gzip, deflate, br" }),
      segmentOf(image.url!),
    );
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("Accept-Encoding");
    const packed = Buffer.from(await zipped.arrayBuffer());
    expect(packed.byteLength).toBeLessThan(svg.byteLength / 3);
    expect(gunzipSync(packed).equals(svg)).toBe(true);

    const plain = await serveSignedImage(
      get(image.url!, { cookie, "accept-encoding": "identity" }),
      segmentOf(image.url!),
    );
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(svg)).toBe(true);
    expect(plain.headers.get("etag")).not.toBe(zipped.headers.get("etag"));

    // Revalidation matches the representation asked for: the gzip ETag revalidates a gzip request only.
    const again = await serveSignedImage(
      get(image.url!, { cookie, "accept-encoding": "gzip", "if-none-match": zipped.headers.get("etag")! }),
      segmentOf(image.url!),
    );
    expect(again.status).toBe(304);
    const other = await serveSignedImage(
      get(image.url!, { cookie, "if-none-match": zipped.headers.get("etag")! }),
      segmentOf(image.url!),
    );
    expect(other.status).toBe(200);
    const any = await serveSignedImage(get(image.url!, { cookie, "if-none-match": "*" }), segmentOf(image.url!));
    expect(any.status).toBe(304);

    // The plain-id route (a timed study's images) revalidates too.
    const byId = `/api/images/${image.id}`;
    const first = await getParticipantImage(get(byId, { cookie }), { params: { id: image.id } });
    expect(first.status).toBe(200);
    const revalidated = await getParticipantImage(get(byId, { cookie, "if-none-match": first.headers.get("etag")! }), {
      params: { id: image.id },
    });
    expect(revalidated.status).toBe(304);
  });

  it("refuses without the database: another participant's cookie, a tampered or expired URL (403), no cookie (401)", async () => {
    const a = await consented({}, "signed-owner");
    const b = await consented({}, "signed-other");
    const session = withSignedImageUrls((await getParticipantSession(a.participantId))!, a.participantId, false);
    const segment = segmentOf(session.current!.item.images[0]!.url!);
    const lookups = () => imageCache().hits + imageCache().misses;
    const before = lookups();

    expect((await serveSignedImage(get("/", { cookie: b.cookie }), segment)).status).toBe(403);
    const tampered = segment.slice(0, -1) + (segment.endsWith("0") ? "1" : "0");
    expect((await serveSignedImage(get("/", { cookie: a.cookie }), tampered)).status).toBe(403);
    const imageId = session.current!.item.images[0]!.id;
    const stale = signImageSegment(imageId, a.participantId, Date.now() - (IMAGE_URL_TTL_S + 3600) * 1000);
    expect((await serveSignedImage(get("/", { cookie: a.cookie }), stale)).status).toBe(403);
    expect((await serveSignedImage(get("/"), segment)).status).toBe(401);
    // None of them looked the image up (no cache lookup, so no database query either).
    expect(lookups()).toBe(before);
    // The owner's request does.
    expect((await serveSignedImage(get("/", { cookie: a.cookie }), segment)).status).toBe(200);
    expect(lookups()).toBe(before + 1);
  });

  it("timed: no image is signed (each request goes through the question's content gate); the answer says the study is timed", async () => {
    const { participantId } = await consented({ timeLimitSec: 600 }, "signed-timed");
    const session = (await getParticipantSession(participantId))!;
    const signed = withSignedImageUrls(session, participantId, session.study.timeLimitSec !== null);
    expect(signed.current!.item.images.every((i) => i.url === undefined)).toBe(true);
    expect(signed.upcomingImageUrls).toEqual([]);
  });

  it("the answer key never appears in an image URL", async () => {
    const { participantId } = await consented({}, "signed-key");
    const session = withSignedImageUrls((await getParticipantSession(participantId))!, participantId, false);
    const ids = [...session.current!.item.images.map((i) => i.id), ...session.upcomingImageIds];
    const urls = [...session.current!.item.images.map((i) => i.url!), ...session.upcomingImageUrls];
    // Each URL is its image's opaque id, an expiry and a MAC in hex: nothing else, so nothing of the answer.
    urls.forEach((url, k) => expect(url).toMatch(new RegExp(`^/api/images/${ids[k]}[0-9a-z]{7}[0-9a-f]{32}$`)));
    expect(urls.join(" ")).not.toMatch(/move/i);
  });
});
