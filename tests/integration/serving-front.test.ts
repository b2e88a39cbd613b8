import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { API_CSP, BASE_SECURITY_HEADERS } from "@/lib/http-security";
import { LoadShedder } from "@/lib/server/load-shed";
import { createFrontHandler } from "@/lib/server/serving/front";
import { inlineScriptHashes, ParticipantShell, SHELL_HTML } from "@/lib/server/serving/participant-shell";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import { createTranslationStudy, joinStudy, TEST_DEVICE } from "../helpers/study-fixtures";

/**
 * The custom server's front (lib/server/serving/front.ts) on a real socket and database, with a stand-in for Next
 * that answers 299 "next": which requests it answers itself, with which headers, and how it sheds.
 */
let server: http.Server;
let base = "";
let shedder: LoadShedder;
let held: Array<() => void> = [];

beforeAll(async () => {
  shedder = new LoadShedder({ maxInFlight: 3, maxLagMs: 10_000, warmupMs: 0 });
  const front = createFrontHandler({
    next: (_req, res) => {
      res.writeHead(299, { "Content-Type": "text/plain" });
      res.end("next");
    },
    shedder,
  });
  server = http.createServer((req, res) => void front(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  held.forEach((release) => release());
  shedder.stop();
  await new Promise((r) => server.close(r));
  await disconnectDb();
});

async function participant(pid: string) {
  const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2 } });
  const participantId = await joinStudy(study.slug, pid);
  await recordConsent(participantId, true, TEST_DEVICE);
  return {
    participantId,
    slug: study.slug,
    cookie: `${PARTICIPANT_COOKIE}=${createParticipantToken(participantId, study.id)}`,
  };
}

describe("the custom server's front", () => {
  it("answers the participant routes itself, with proxy.ts's headers and signed image URLs", async () => {
    const p = await participant("front-session");
    const res = await fetch(`${base}/api/participant/session`, { headers: { cookie: p.cookie } });
    expect(res.status).toBe(200);
    for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get("content-security-policy")).toBe(API_CSP);
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    const session = (await res.json()) as { current: { item: { images: Array<{ url: string }> } } };
    const image = await fetch(`${base}${session.current.item.images[0]!.url}`, { headers: { cookie: p.cookie } });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(image.headers.get("cache-control")).toMatch(/immutable/);
    // The same error shapes as under Next: no cookie → 401 JSON; cross-origin POST → 403.
    const anonymous = await fetch(`${base}/api/participant/session`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: { code: "UNAUTHENTICATED", message: expect.any(String) } });
    const cross = await fetch(`${base}/api/participant/shown`, {
      method: "POST",
      headers: { cookie: p.cookie, "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: "{}",
    });
    expect(cross.status).toBe(403);
    // The join sets the participant cookie and sends the browser to the session page.
    const join = await fetch(`${base}/s/${p.slug}?PROLIFIC_PID=front-join`, { redirect: "manual" });
    expect(join.status).toBe(303);
    expect(join.headers.get("location")).toBe(`/s/${p.slug}/session`);
    expect(join.headers.getSetCookie().join("\n")).toContain(`${PARTICIPANT_COOKIE}=`);
    expect(join.headers.get("content-security-policy")).toContain("script-src 'self' 'nonce-");
  });

  it("hands everything else to Next: pages, staff routes, other methods, NUL bytes, a staff image preview", async () => {
    for (const [path, init] of [
      ["/s/some-study/session", {}],
      ["/admin", {}],
      ["/api/admin/studies", {}],
      ["/api/participant/answer", {}],
      ["/api/participant/session?x=%00", {}],
      ["/api/images/abcdefghij0123", { headers: { cookie: "next-auth.session-token=abc" } }],
    ] as const) {
      const res = await fetch(`${base}${path}`, init);
      expect(res.status, path).toBe(299);
    }
  });

  it("sheds participant work beyond its bound with 503 + Retry-After at once, while health and signed images still answer", async () => {
    const p = await participant("front-shed");
    const signed = (await (
      await fetch(`${base}/api/participant/session`, { headers: { cookie: p.cookie } })
    ).json()) as { current: { item: { images: Array<{ url: string }> } } };
    const imageUrl = signed.current.item.images[0]!.url;
    // Fill the in-flight bound (3) as slow requests would.
    for (let i = 0; i < 3; i++) {
      const d = shedder.tryEnter();
      if (d.ok) held.push(d.release);
    }
    const t0 = performance.now();
    const shed = await fetch(`${base}/api/participant/answer`, {
      method: "POST",
      headers: { cookie: p.cookie, "content-type": "application/json" },
      body: "{}",
    });
    expect(shed.status).toBe(503);
    expect(shed.headers.get("retry-after")).toBe("1");
    expect(shed.headers.get("content-security-policy")).toBe(API_CSP);
    expect(await shed.json()).toEqual({ error: { code: "UNAVAILABLE", message: expect.stringContaining("busy") } });
    const page = await fetch(`${base}/s/${p.slug}/session`, { headers: { cookie: p.cookie } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('http-equiv="refresh"');
    console.log(`shed answer and page in ${(performance.now() - t0).toFixed(1)} ms`);
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
    expect((await fetch(`${base}${imageUrl}`, { headers: { cookie: p.cookie } })).status).toBe(200);
    const session = await fetch(`${base}/api/participant/session`, { headers: { cookie: p.cookie } });
    expect(session.status).toBe(503);
    // The question's content and its clock are never shed: a plain image id (what a timed study uses) and the 3D
    // scene are answered by their handler (404 here: no such image, no scene), the shown stamp is stored.
    const current = (signed as unknown as { current: { assignmentId: string } }).current;
    expect((await fetch(`${base}/api/images/plainimageid0000`, { headers: { cookie: p.cookie } })).status).toBe(404);
    expect(
      (await fetch(`${base}/api/participant/scene/${current.assignmentId}`, { headers: { cookie: p.cookie } })).status,
    ).toBe(404);
    const shown = await fetch(`${base}/api/participant/shown`, {
      method: "POST",
      headers: { cookie: p.cookie, "content-type": "application/json", origin: base },
      body: JSON.stringify({ assignmentId: current.assignmentId }),
    });
    expect(shown.status).toBe(200);
    held.forEach((release) => release());
    held = [];
    expect((await fetch(`${base}/api/participant/session`, { headers: { cookie: p.cookie } })).status).toBe(200);
  });

  it("answers /s/<segment>/… 404 itself when the decoded segment is no study slug (dot segments): Next never sees it", async () => {
    for (const path of [
      "/s/%2e%2e",
      "/s/%2E%2E/session",
      "/s/%2e%2e/status?kind=full",
      "/s/./session",
      "/s/..",
      "/s/x",
      "/s/A-B-C/session",
    ]) {
      const res = await new Promise<{ status: number; location: string | undefined; body: string }>(
        (resolve, reject) => {
          // node:http sends the path as written (fetch would resolve the dot segments first).
          const req = http.request({ host: "127.0.0.1", port: new URL(base).port, path }, (res) => {
            let body = "";
            res.on("data", (c: Buffer) => (body += c.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
          });
          req.on("error", reject);
          req.end();
        },
      );
      expect(res.status, path).toBe(404);
      expect(res.location, path).toBeUndefined();
      expect(res.body, path).toContain("Study not found");
    }
  });

  it("compresses JSON of 1 KB or more with brotli or gzip as the client accepts, and decodes to the same body", async () => {
    const p = await participant("front-compress");
    const get = (path: string, acceptEncoding: string | null, cookie: string | null = p.cookie) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        // node:http, not fetch: fetch would decode the body itself.
        const req = http.request(
          `${base}${path}`,
          {
            headers: {
              ...(cookie ? { cookie } : {}),
              ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          },
        );
        req.on("error", reject);
        req.end();
      });
    const plain = await get("/api/participant/session", null);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.byteLength).toBeGreaterThanOrEqual(1024);
    expect(plain.headers.vary).toBe("Accept-Encoding");
    const expected: unknown = JSON.parse(plain.body.toString("utf8"));

    const br = await get("/api/participant/session", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.byteLength);
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString("utf8"))).toEqual(expected);

    const gz = await get("/api/participant/session", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body.byteLength).toBeLessThan(plain.body.byteLength / 2);
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString("utf8"))).toEqual(expected);

    // Under 1 KB (a 401's error) it goes out as it is, whatever the client accepts.
    const small = await get("/api/participant/session", "gzip, br", null);
    expect(small.status).toBe(401);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(JSON.parse(small.body.toString("utf8"))).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
  });

  it("answers a Host header that makes no URL with 400, not 500", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/api/participant/session`, { headers: { host: "a b" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(400);
  });
});

describe("the custom server's front with the prerendered session page", () => {
  const html =
    '<!DOCTYPE html><html><body><main><p>Loading your study…</p></main><script src="/_next/static/chunks/a.js"></script><script>self.__next_f.push([0])</script></body></html>';
  let shellServer: http.Server;
  let shellBase = "";
  let busy: LoadShedder;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-front-shell-"));
    fs.mkdirSync(path.dirname(path.join(dir, SHELL_HTML)), { recursive: true });
    fs.writeFileSync(path.join(dir, SHELL_HTML), html);
    // Every slot taken: what a saturated process would shed.
    busy = new LoadShedder({ maxInFlight: 1, maxLagMs: 10_000, warmupMs: 0 });
    const slot = busy.tryEnter();
    expect(slot.ok).toBe(true);
    const front = createFrontHandler({
      next: (_req, res) => {
        res.writeHead(299, { "Content-Type": "text/plain" });
        res.end("next");
      },
      shedder: busy,
      shell: ParticipantShell.load(dir),
    });
    shellServer = http.createServer((req, res) => void front(req, res));
    await new Promise<void>((r) => shellServer.listen(0, "127.0.0.1", r));
    shellBase = `http://127.0.0.1:${(shellServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    busy.stop();
    await new Promise((r) => shellServer.close(r));
  });

  it("sends every study's session page from the build, not Next, even while shedding, with its scripts' hashes as CSP", async () => {
    for (const slug of ["some-study", "another-one"]) {
      const res = await fetch(`${shellBase}/s/${slug}/session`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(html);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain(`'sha256-${inlineScriptHashes(html)[0]}'`);
      expect(csp).not.toContain("nonce-");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const again = await fetch(`${shellBase}/s/${slug}/session`, {
        headers: { "if-none-match": res.headers.get("etag")! },
      });
      expect(again.status).toBe(304);
    }
    // What the page reads next is shed as before: its script waits for the Retry-After.
    const session = await fetch(`${shellBase}/api/participant/session`, { headers: { cookie: "x=y" } });
    expect([401, 503]).toContain(session.status);
    // The shell's source route would carry a nonce CSP its scripts lack: not served alone.
    expect((await fetch(`${shellBase}/participant-shell`)).status).toBe(404);
    // Other pages are still Next's.
    expect((await fetch(`${shellBase}/s/some-study/status?kind=full`)).status).toBe(299);
  });
});
