// Behind a real reverse proxy (nginx, X-Forwarded-Proto: https): a participant who reaches it by another name than the
// configured public URL completes a session (relative redirects keep the cookie), and staff sign in.
import fs from "node:fs";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { IMAGE_LINK_PREFIX, parseImageFileName, signImageLink } from "../../lib/image-link";
import { completeDemo } from "../helpers/demo-walk";
import {
  APP_PORT,
  IMAGE_URL_SECRET,
  PARTICIPANT_IN_FLIGHT_PER_ADDRESS,
  PROXY_PORT,
  PUBLIC_URL,
} from "./playwright.config";

test("a participant completes the demo study through the proxy, reached by IP address", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const hops: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 300 && r.status() < 400) hops.push(r.headers()["location"] ?? "");
  });
  // 127.0.0.1, not the public name localhost: the host a participant used must be kept.
  await completeDemo(
    page,
    `http://127.0.0.1:${PROXY_PORT}/s/demo?PROLIFIC_PID=proxy-participant&STUDY_ID=demo&SESSION_ID=1`,
  );
  await expect(page.getByTestId("completion-code")).toBeVisible();
  expect(new URL(page.url()).host).toBe(`127.0.0.1:${PROXY_PORT}`);
  expect(hops.filter((h) => /^https?:/.test(h) && !h.startsWith(`http://127.0.0.1:${PROXY_PORT}`))).toEqual([]);
});

test("staff sign in through the proxy at the configured public URL", async ({ page }) => {
  await page.goto("/signin?callbackUrl=%2Fadmin");
  await page.getByLabel("Email").fill("admin@localhost");
  await page.getByLabel("Password").fill("proxy-admin-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/admin");
  expect(new URL(page.url()).protocol).toBe("http:");
  const session = await page.request.get("/api/auth/session");
  expect(((await session.json()) as { user?: { email?: string } }).user?.email).toBe("admin@localhost");
});

test("the shipped nginx config serves build assets from disk and limits one address on the participant routes", async ({
  page,
  request,
}) => {
  await page.goto("/signin");
  const asset = await page.evaluate(() =>
    [...document.querySelectorAll("script[src]")]
      .map((s) => s.getAttribute("src")!)
      .find((src) => src.startsWith("/_next/static/")),
  );
  expect(asset).toBeTruthy();
  const res = await request.get(asset!);
  expect(res.status()).toBe(200);
  // From disk (deploy/nginx.conf.template): nginx's file headers, which the app's in-memory asset server does not send.
  expect(res.headers()["last-modified"]).toBeTruthy();
  expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  // The forms `npm run build` wrote beside the file (scripts/precompress-static.mts), sent as they are: a length, where
  // compressing per request (gzip on) streams chunks without one.
  for (const encoding of ["gzip", "br"]) {
    const compressed = await request.get(asset!, { headers: { "accept-encoding": encoding } });
    expect(compressed.headers()["content-encoding"], encoding).toBe(encoding);
    expect(Number(compressed.headers()["content-length"]), encoding).toBeGreaterThan(0);
    expect(await compressed.text()).toBe(await res.text());
  }
  // One address beyond its allowance of requests (limit_req). nginx lets through burst + 1 requests at once and `rate`
  // per second after that, so the requests answered before the first 429 are bounded by the time they took, however
  // slowly this host sends them, and, from an empty bucket, at least burst + 1 get through. Rounds of 16 at once, fewer
  // than either cap on one address's requests in flight (nginx's limit_conn, the app's own), which also answer 429.
  const template = fs.readFileSync(new URL("../../deploy/nginx.conf.template", import.meta.url), "utf8");
  const rate = Number(/^\s*limit_req_zone \S+ zone=participant_req:\S+ rate=(\d+)r\/s;/m.exec(template)![1]);
  const burst = Number(/^\s*limit_req zone=participant_req burst=(\d+) nodelay;/m.exec(template)![1]);
  const conn = Number(/^\s*limit_conn participant_conn (\d+);/m.exec(template)![1]);
  const round = 16;
  expect(round).toBeLessThan(Math.min(conn, PARTICIPANT_IN_FLIGHT_PER_ADDRESS));
  // Earlier tests' requests from this address leave the bucket once it has drained (burst / rate seconds).
  await new Promise((r) => setTimeout(r, (burst / rate) * 1000 + 500));
  // Sent from this process through `round` kept-alive sockets, so a round is that many requests in flight at once.
  const agent = new http.Agent({ keepAlive: true, maxSockets: round });
  const status = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${PROXY_PORT}/api/participant/session`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        })
        .on("error", reject);
    });
  const started = performance.now();
  const statuses: number[] = [];
  while (!statuses.includes(429) && performance.now() - started < 60_000)
    statuses.push(...(await Promise.all(Array.from({ length: round }, status))));
  agent.destroy();
  const elapsedSec = (performance.now() - started) / 1000;
  const accepted = statuses.filter((s) => s !== 429).length;
  expect(statuses, `${statuses.length} requests in ${elapsedSec.toFixed(1)} s`).toContain(429);
  expect(accepted).toBeGreaterThanOrEqual(burst + 1);
  expect(accepted).toBeLessThanOrEqual(burst + 1 + Math.ceil(rate * elapsedSec) + 1);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});

/** The app instance's process (the suite's web server: node .next/misi-server.mjs --port APP_PORT). */
function appPid(): number {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args.some((a) => a.endsWith("misi-server.mjs")) && args.includes(String(APP_PORT))) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error("the app's process was not found");
}

/** Bytes a process has written (files, pipes and sockets alike), from /proc/<pid>/io. */
const bytesWritten = (pid: number) => Number(/^wchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, "utf8"))![1]);

/** A GET through the proxy whose body is kept as it came (content-encoded). */
function rawGet(pathAndQuery: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${PROXY_PORT}${pathAndQuery}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

test("images come from nginx through the links the app signs; a tampered or expired link is 403; the app sends no image bytes", async ({
  playwright,
}) => {
  const request = await playwright.request.newContext({ baseURL: PUBLIC_URL });
  const join = await request.get("/s/demo?PROLIFIC_PID=proxy-images&STUDY_ID=demo&SESSION_ID=1", { maxRedirects: 0 });
  expect(join.status()).toBeLessThan(400);
  const consent = await request.post("/api/participant/consent", {
    headers: { origin: PUBLIC_URL, "content-type": "application/json" },
    data: {
      accept: true,
      device: {
        viewportWidth: 1280,
        viewportHeight: 800,
        devicePixelRatio: 1,
        userAgent: "proxy-test",
        pointer: "fine",
      },
    },
  });
  expect(consent.status()).toBe(200);
  const session = (await consent.json()) as { current: { item: { images: { url: string }[] } } };
  const urls = session.current.item.images.map((i) => i.url);
  expect(urls.length).toBeGreaterThan(0);
  const participant = (await request.storageState()).cookies.find((c) => c.name === "misi_participant")!;
  const cookie = `misi_participant=${participant.value}`;

  const pid = appPid();
  const before = bytesWritten(pid);
  let served = 0;
  for (let round = 0; round < 5; round++)
    for (const url of urls) {
      const res = await rawGet(url, { cookie, "accept-encoding": "gzip" });
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(res.body).toString("utf8")).toContain("<svg");
      // nginx's file headers (the app sends neither).
      expect(res.headers["last-modified"]).toBeTruthy();
      expect(res.headers["cache-control"]).toBe("private, max-age=3600, immutable");
      served += res.body.byteLength;
    }
  // The app wrote less than one image's worth meanwhile (nothing reached it: its own background writes, if any).
  expect(served).toBeGreaterThan(100_000);
  expect(bytesWritten(pid) - before).toBeLessThan(8_000);

  const [url] = urls as [string];
  const link = new URL(url, PUBLIC_URL);
  const tampered = url.replace(/s=(.)/, (_, c: string) => `s=${c === "A" ? "B" : "A"}`);
  expect((await rawGet(tampered, { cookie })).status).toBe(403);
  // The same rule as the app's (lib/image-link.ts), one second past its expiry; and the same rule still valid.
  const parsed = parseImageFileName(link.pathname.slice(IMAGE_LINK_PREFIX.length))!;
  const sign = (expirySec: number) =>
    signImageLink({ secret: IMAGE_URL_SECRET, ...parsed, cookie: participant.value, expirySec });
  expect((await rawGet(sign(Math.floor(Date.now() / 1000) - 1), { cookie })).status).toBe(403);
  expect((await rawGet(sign(Math.floor(Date.now() / 1000) + 60), { cookie })).status).toBe(200);
  // Another browser (no participant cookie) cannot use the link.
  expect((await rawGet(url, {})).status).toBe(403);
  await request.dispose();
});
