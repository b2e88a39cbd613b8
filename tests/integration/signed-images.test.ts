import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { db, dbPool, disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { submitAnswer } from "@/lib/server/participant-flow/record-response";
import { markQuestionShown } from "@/lib/server/participant-flow/question-clock";
import { getParticipantImage, getStoredImage } from "@/lib/server/participant-flow/routes/image";
import { backfillImageStore, imageStoreDir } from "@/lib/server/image-store";
import { imageUrlFor, withSignedImageUrls } from "@/lib/server/image-url";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import { createTranslationStudy, joinStudy, TEST_DEVICE } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

async function consented(config: Parameters<typeof createTranslationStudy>[0]["config"], pid: string) {
  const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, ...config } });
  const participantId = await joinStudy(study.slug, pid);
  await recordConsent(participantId, true, TEST_DEVICE);
  const who = { participantId, studyId: study.id };
  return { ...who, who, cookie: `${PARTICIPANT_COOKIE}=${createParticipantToken(participantId, study.id)}` };
}

const get = (url: string, headers: Record<string, string> = {}) => new Request(`http://127.0.0.1${url}`, { headers });
const fileOf = (url: string) => new URL(url, "http://x").pathname.slice("/api/images/c/".length);
const serve = (url: string, headers: Record<string, string> = {}) =>
  getStoredImage(get(url, headers), { params: { file: fileOf(url) } });
const LINK = /^\/api\/images\/c\/[0-9a-f]{64}\.svg\?e=\d+&s=[A-Za-z0-9_-]{22}$/;

/** A rendered view's size and redundancy (many atoms and labels as SVG elements), different in every test run. */
function bigSvg(): Buffer<ArrayBuffer> {
  const salt = randomBytes(8).toString("hex");
  const atoms = Array.from(
    { length: 2000 },
    (_, i) =>
      `<circle cx="${(i * 37) % 1024}" cy="${(i * 91) % 1024}" r="6" fill="#909090"/><text x="${(i * 37) % 1024}" y="${(i * 91) % 1024}">C${i}</text>`,
  );
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024"><!--${salt}-->${atoms.join("")}</svg>`,
  );
}

describe("signed image links, as the participant routes issue them and the app serves them without nginx", () => {
  it("untimed: the session's current and upcoming images carry links that serve the bytes, cacheable, with 304 on revalidation", async () => {
    const { participantId, who, cookie } = await consented({}, "signed-untimed");
    const session = await withSignedImageUrls((await getParticipantSession(participantId))!, who, false);
    const url = session.current!.item.images[0]!.url!;
    expect(url).toMatch(LINK);
    expect(session.upcomingImageUrls).toHaveLength(1);

    const res = await serve(url, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(await res.text()).toContain("<svg");
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600, immutable");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const etag = res.headers.get("etag")!;
    const again = await serve(url, { cookie, "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    // The next question's prefetched link is the one the answer's update names (same hour): the browser's cache answers it.
    const out = await submitAnswer({
      participantId,
      assignmentId: session.current!.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: "signed-untimed-1",
      rtClientMs: 1000,
    });
    expect(out.timed).toBe(false);
    const update = await withSignedImageUrls(out.update, who, out.timed);
    expect(update.current!.item.images.map((i) => i.url)).toEqual(session.upcomingImageUrls);
  });

  it("a picture the store lacks is written from the database on its first request, with gzip and brotli forms served by Accept-Encoding", async () => {
    const { participantId, who, cookie } = await consented({}, "signed-packed");
    const image = (await getParticipantSession(participantId))!.current!.item.images[0]!;
    const svg = bigSvg();
    const sha256 = createHash("sha256").update(svg).digest("hex");
    await db.itemImage.update({ where: { id: image.id }, data: { data: svg, sha256 } });
    const file = path.join(imageStoreDir(), `${sha256}.svg`);
    expect(fs.existsSync(file)).toBe(false);
    const url = imageUrlFor({ sha256, mimeType: "image/svg+xml" }, who);

    const br = await serve(url, { cookie, "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).equals(svg)).toBe(true);
    for (const suffix of ["", ".gz", ".br"]) expect(fs.existsSync(file + suffix)).toBe(true);

    const gz = await serve(url, { cookie, "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const packed = Buffer.from(await gz.arrayBuffer());
    expect(packed.byteLength).toBeLessThan(svg.byteLength / 3);
    expect(gunzipSync(packed).equals(svg)).toBe(true);

    const plain = await serve(url, { cookie, "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(svg)).toBe(true);
    // One ETag per representation: the gzip one revalidates a gzip request only.
    expect(new Set([br, gz, plain].map((r) => r.headers.get("etag"))).size).toBe(3);
    expect(
      (await serve(url, { cookie, "accept-encoding": "gzip", "if-none-match": gz.headers.get("etag")! })).status,
    ).toBe(304);
    expect((await serve(url, { cookie, "if-none-match": gz.headers.get("etag")! })).status).toBe(200);
  });

  it("refuses another participant's cookie, a tampered or expired link and no cookie (403) before looking for the picture", async () => {
    const a = await consented({}, "signed-owner");
    const b = await consented({}, "signed-other");
    const session = await withSignedImageUrls((await getParticipantSession(a.participantId))!, a.who, false);
    const url = session.current!.item.images[0]!.url!;
    expect((await serve(url, { cookie: b.cookie })).status).toBe(403);
    const tampered = url.replace(/s=(.)/, (_, c: string) => `s=${c === "A" ? "B" : "A"}`);
    expect((await serve(tampered, { cookie: a.cookie })).status).toBe(403);
    const sha256 = fileOf(url).slice(0, 64);
    const stale = imageUrlFor({ sha256, mimeType: "image/svg+xml" }, a.who, Date.now() - 6 * 3600_000);
    expect((await serve(stale, { cookie: a.cookie })).status).toBe(403);
    expect((await serve(url)).status).toBe(403);
    expect((await serve(url, { cookie: a.cookie })).status).toBe(200);
    // A validly signed link to a picture nobody stored: 404, so the refusals above came from the check alone.
    const nowhere = imageUrlFor({ sha256: "0".repeat(64), mimeType: "image/svg+xml" }, a.who);
    expect((await serve(nowhere, { cookie: a.cookie })).status).toBe(404);
  });

  it("timed: no link in responses; a plain id redirects, once the question is shown, to a link that expires within a minute", async () => {
    const { participantId, who, cookie } = await consented({ timeLimitSec: 600 }, "signed-timed");
    const session = (await getParticipantSession(participantId))!;
    const signed = await withSignedImageUrls(session, who, session.study.timeLimitSec !== null);
    expect(signed.current!.item.images.every((i) => i.url === undefined)).toBe(true);
    expect(signed.upcomingImageUrls).toEqual([]);
    const id = session.current!.item.images[0]!.id;
    const byId = () => getParticipantImage(get(`/api/images/${id}`, { cookie }), { params: { id } });
    expect((await byId()).status).toBe(409);
    await markQuestionShown(participantId, session.current!.assignmentId);
    const redirect = await byId();
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("cache-control")).toBe("no-store");
    const link = redirect.headers.get("location")!;
    expect(link).toMatch(LINK);
    const expiry = Number(new URL(link, "http://x").searchParams.get("e"));
    expect(expiry).toBeGreaterThan(Date.now() / 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    expect((await serve(link, { cookie })).status).toBe(200);
  });

  it("the answer key never appears in a link: the picture's content hash, an expiry and a digest", async () => {
    const { participantId, who } = await consented({}, "signed-key");
    const session = await withSignedImageUrls((await getParticipantSession(participantId))!, who, false);
    const urls = [...session.current!.item.images.map((i) => i.url!), ...session.upcomingImageUrls];
    for (const url of urls) expect(url).toMatch(LINK);
    // The digest is a MAC (its letters are random: "Ky-" once read as an axis token); the rest of the link is checked.
    expect(urls.map((u) => u.replace(/&s=[A-Za-z0-9_-]+$/, "")).join(" ")).not.toMatch(/move|[xyz]\b/i);
  });

  it("backfill writes every stored picture the store lacks and corrects a row whose hash is not its bytes'", async () => {
    const { participantId } = await consented({}, "signed-backfill");
    const image = (await getParticipantSession(participantId))!.current!.item.images[0]!;
    const svg = bigSvg();
    await db.itemImage.update({ where: { id: image.id }, data: { data: svg, sha256: "x" } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-image-store-"));
    try {
      const report = await backfillImageStore(dbPool(), dir);
      expect(report.corrected).toBeGreaterThanOrEqual(1);
      const sha256 = createHash("sha256").update(svg).digest("hex");
      expect((await db.itemImage.findUniqueOrThrow({ where: { id: image.id } })).sha256).toBe(sha256);
      for (const suffix of ["", ".gz", ".br"])
        expect(fs.existsSync(path.join(dir, `${sha256}.svg${suffix}`))).toBe(true);
      const again = await backfillImageStore(dbPool(), dir);
      expect(again.written).toBe(0);
      expect(again.present).toBe(again.distinct);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
