// The shipped nginx config (deploy/nginx.conf.template) with real nginx in front of a stand-in app: nginx verifies the
// links the app signs and serves the image store itself; slow bodies and one client's /64 stay in nginx.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brotliModule } from "../../scripts/render-nginx.mjs";
import { BASE_SECURITY_HEADERS } from "@/lib/http-security";
import { IMAGE_LINK_PREFIX, imageLinkMac } from "@/lib/image-link";
import { IMAGE_RESPONSE_HEADERS } from "@/lib/server/image-serve";
import { storeImage } from "@/lib/server/image-store";
import { imageUrlFor, imageUrlSecret } from "@/lib/server/image-url";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import { startNginx, type RunningNginx } from "../helpers/nginx";

/** The stand-in for the app instances: records what reaches it and what it sends. */
const seen: { method: string; url: string; xff: string | undefined }[] = [];
let appBytesSent = 0;
const app = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    seen.push({ method: req.method!, url: req.url!, xff: req.headers["x-forwarded-for"] as string | undefined });
    const body = `app ${req.method} ${req.url}`;
    appBytesSent += body.length;
    res.writeHead(200, { "Content-Type": "text/plain" }).end(body);
  });
});

let nginx: RunningNginx;
let store: string;
let base: string;
const who = { participantId: "cmparticipantnginx01", studyId: "cmstudynginx0001" };
const cookie = `${PARTICIPANT_COOKIE}=${createParticipantToken(who.participantId, who.studyId)}`;
const svg = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg"><!--${randomBytes(8).toString("hex")}-->${Array.from(
    { length: 1500 },
    (_, i) => `<circle cx="${(i * 37) % 1024}" cy="${(i * 91) % 1024}" r="6"/><text>C${i}</text>`,
  ).join("")}</svg>`,
);
let sha256: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  store = fs.mkdtempSync(path.join(os.tmpdir(), "misi-image-store-"));
  fs.chmodSync(store, 0o755);
  sha256 = await storeImage(svg, "image/svg+xml", undefined, store);
  nginx = await startNginx({
    upstreams: [`127.0.0.1:${(app.address() as net.AddressInfo).port}`],
    imageDir: store,
    // The app's own secret: what it signs with is what nginx must verify.
    imageSecret: imageUrlSecret(),
    // The test speaks for clients at other addresses through X-Forwarded-For, as a load balancer in front would.
    realIpFrom: ["127.0.0.1"],
  });
  base = `http://127.0.0.1:${nginx.port}`;
});

afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => app.close(resolve));
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

const fetchVia = (url: string, headers: Record<string, string> = {}) => fetch(`${base}${url}`, { headers });

/** A GET whose body is kept as it came (fetch would undo the Content-Encoding). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("images through nginx (deploy/nginx.conf.template)", () => {
  it("serves a link the app signed from the store, compressed, with the app's image headers; the app sends nothing", async () => {
    const link = imageUrlFor({ sha256, mimeType: "image/svg+xml" }, who);
    const before = { requests: seen.length, bytes: appBytesSent };
    const gz = await rawGet(link, { cookie, "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["content-type"]).toBe("image/svg+xml");
    expect(gunzipSync(gz.body).equals(svg)).toBe(true);
    expect(gz.headers["cache-control"]).toBe("private, max-age=3600, immutable");
    expect(gz.headers["vary"]).toBe("Accept-Encoding");
    for (const [name, value] of Object.entries({ ...BASE_SECURITY_HEADERS, ...IMAGE_RESPONSE_HEADERS }))
      expect(gz.headers[name.toLowerCase()], name).toBe(value);
    // Debian's brotli_static module, when installed (scripts/render-nginx.mjs loads it then).
    if (brotliModule()) {
      const br = await rawGet(link, { cookie, "accept-encoding": "gzip, br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.body).equals(svg)).toBe(true);
      expect(br.body.byteLength).toBeLessThan(gz.body.byteLength);
    }
    const plain = await rawGet(link, { cookie, "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(svg)).toBe(true);
    expect({ requests: seen.length, bytes: appBytesSent }).toEqual(before);
  });

  it("refuses a tampered, expired or another session's link, and one without the cookie, with 403 before the app", async () => {
    const link = imageUrlFor({ sha256, mimeType: "image/svg+xml" }, who);
    const before = seen.length;
    const tampered = link.replace(/s=(.)/, (_, c: string) => `s=${c === "A" ? "B" : "A"}`);
    const longer = link.replace(/e=(\d+)/, (_, e: string) => `e=${Number(e) + 3600}`);
    const expired = imageUrlFor({ sha256, mimeType: "image/svg+xml" }, who, Date.now() - 6 * 3600_000);
    const other = `${PARTICIPANT_COOKIE}=${createParticipantToken("cmsomeoneelse0001", who.studyId)}`;
    expect((await fetchVia(tampered, { cookie })).status).toBe(403);
    expect((await fetchVia(longer, { cookie })).status).toBe(403);
    expect((await fetchVia(expired, { cookie })).status).toBe(403);
    expect((await fetchVia(link, { cookie: other })).status).toBe(403);
    expect((await fetchVia(link)).status).toBe(403);
    expect((await fetchVia(link.slice(0, link.indexOf("?")), { cookie })).status).toBe(403);
    expect(seen.length).toBe(before);
    // Moving the boundary between path and cookie (one character from the cookie onto the file name) keeps the digest
    // only when the fields are not separated; a stored file's other forms (.br, .gz) are never served by name.
    const token = cookie.slice(cookie.indexOf("=") + 1);
    const shifted = link.replace(".svg?", `.svg${token[0]}?`);
    expect((await fetchVia(shifted, { cookie: `${PARTICIPANT_COOKIE}=${token.slice(1)}` })).status).toBe(403);
    const expirySec = Math.floor(Date.now() / 1000) + 600;
    const brPath = `${IMAGE_LINK_PREFIX}${sha256}.svg.br`;
    const brLink = `${brPath}?e=${expirySec}&s=${imageLinkMac(imageUrlSecret(), expirySec, brPath, token)}`;
    expect((await fetchVia(brLink, { cookie })).status).toBe(403);
    expect(seen.length).toBe(before);
    // The same link with its own cookie still works: the refusals were the check's.
    expect((await fetchVia(link, { cookie })).status).toBe(200);
  });

  it("sends a validly signed link whose file the store lacks to the app (which fills the store from the database)", async () => {
    const missing = createHash("sha256").update(randomBytes(16)).digest("hex");
    const link = imageUrlFor({ sha256: missing, mimeType: "image/svg+xml" }, who);
    const res = await fetchVia(link, { cookie });
    expect(await res.text()).toBe(`app GET ${link}`);
  });
});

/** A request whose body never finishes: it holds one of its address's connections in nginx until the body timeout. */
function slowPost(address: string, refused: () => void): net.Socket {
  const socket = net.connect(nginx.port, "127.0.0.1");
  socket.on("error", () => {});
  socket.once("data", (d) => {
    if (String(d).startsWith("HTTP/1.1 429")) refused();
  });
  socket.write(
    `POST /api/participant/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${address}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`,
  );
  return socket;
}

describe("per-address limits on participant routes", () => {
  it("count an IPv6 client's whole /64, keep unfinished bodies from the app, and leave other addresses alone", async () => {
    const before = seen.length;
    // 33 unfinished bodies from addresses of one /64: 32 (limit_conn) are held, one is refused. Once that refusal has
    // come, nginx holds the 32 (waiting for it first keeps the probes below from taking one of the slots).
    let refusals = 0;
    const held = Array.from({ length: 33 }, (_, i) =>
      slowPost(`2001:db8:1:2::${(i + 1).toString(16)}`, () => refusals++),
    );
    try {
      await expect.poll(() => refusals, { timeout: 8000 }).toBe(1);
      const from = (address: string) =>
        fetchVia("/api/participant/session", { "x-forwarded-for": address }).then((r) => r.status);
      expect(await from("2001:db8:1:2:ffff:ffff:ffff:1")).toBe(429);
      // Another /64, an IPv4 client and an IPv4-mapped address are not that client.
      expect(await from("2001:db8:1:3::1")).toBe(200);
      expect(await from("192.0.2.7")).toBe(200);
      expect(await from("::ffff:192.0.2.8")).toBe(200);
      // No unfinished body reached the app.
      expect(seen.slice(before).filter((r) => r.method === "POST")).toEqual([]);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
