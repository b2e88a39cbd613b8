// Behind a real reverse proxy (nginx, X-Forwarded-Proto: https): a participant who reaches it by another name than the
// configured public URL completes a session (relative redirects keep the cookie), and staff sign in.
import { expect, test } from "@playwright/test";
import { completeDemo } from "../helpers/demo-walk";
import { PROXY_PORT } from "./playwright.config";

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
  // 130 at once from one address: beyond the burst (100) of limit_req, 429 from nginx; none reaches the app as a 5xx.
  const statuses = await Promise.all(
    Array.from({ length: 130 }, () => request.get("/api/participant/session").then((r) => r.status())),
  );
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
});
