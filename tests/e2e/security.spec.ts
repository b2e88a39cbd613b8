import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createStoredZip, createTestBundle } from "./helpers/item-bundle";
import { createSentinelStudy, e2eDatabaseUrl } from "./helpers/participant-fixtures";
import { createAccount, E2E_ADMIN, signInPage, signInRequest, type Credentials } from "./helpers/sign-in";

/**
 * The attacks the security rules defend against (docs/security.md), performed for real against the production build.
 * Script execution is detected with a dialog listener (the payloads call alert()); the rest is HTTP-level.
 * The e2e server trusts one proxy hop (TRUSTED_PROXY_HOPS=1, playwright.config.ts), so a test can act from its
 * own client address by sending `X-Forwarded-For: <spoofed>, <address>`; without the header the socket address counts.
 */

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const suffix = () => randomBytes(4).toString("hex");
/** A documentation-range address (RFC 5737) unique to this call. */
const address = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

function watchDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", async (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss().catch(() => undefined);
  });
  return seen;
}

async function newResearcher(
  admin: APIRequestContext,
  request: APIRequestContext,
): Promise<Credentials & { id: string }> {
  const researcher = {
    email: `sec-researcher-${suffix()}@e2e.test`,
    password: `pw-${randomBytes(12).toString("hex")}`,
  };
  await createAccount(admin, { ...researcher, role: "researcher" });
  await signInRequest(request, researcher);
  const [row] = await sql<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [researcher.email]);
  return { ...researcher, id: row!.id };
}

/** Posts next-auth's credentials form; returns "ok", "wrong" (CredentialsSignin) or the error message. */
async function postSignIn(
  request: APIRequestContext,
  credentials: Credentials,
  headers: Record<string, string> = {},
): Promise<string> {
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: credentials.email, password: credentials.password, json: "true" },
    headers,
    maxRedirects: 0,
  });
  const target =
    response.headers()["location"] ?? ((await response.json().catch(() => ({}))) as { url?: string }).url ?? "";
  const error = new URL(target, "http://x").searchParams.get("error");
  if (!error) return "ok";
  return error === "CredentialsSignin" ? "wrong" : error;
}

let admin: APIRequestContext;

test.beforeAll(async ({ playwright }, workerInfo) => {
  admin = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
  await signInRequest(admin, E2E_ADMIN);
});

test.afterAll(async () => {
  await admin?.dispose();
});

test.describe("completion and return URLs", () => {
  test("a researcher cannot save a javascript: or data: URL", async ({ playwright, baseURL }) => {
    const researcher = await playwright.request.newContext({ baseURL });
    await newResearcher(admin, researcher);
    const { slug } = await createSentinelStudy({ count: 1 });
    const [study] = await sql<{ poolVersionId: string }>(`SELECT "poolVersionId" FROM "Study" WHERE slug = $1`, [slug]);
    const save = (prolific: Record<string, string>) =>
      researcher.post("/api/admin/studies", {
        data: {
          name: `URL test ${suffix()}`,
          slug: `url-test-${suffix()}`,
          poolVersionId: study!.poolVersionId,
          config: { tasks: ["translation"], itemsPerTask: 1, prolific },
        },
      });
    for (const [field, url] of [
      [
        "completionUrl",
        "javascript:fetch('/api/admin/users',{method:'POST',body:JSON.stringify({email:'x@evil.example',role:'admin'})})",
      ],
      ["completionUrl", " JavaScript:alert(1)"],
      ["returnUrl", "data:text/html,<script>alert(1)</script>"],
    ] as const) {
      const response = await save({ [field]: url });
      expect(response.status(), `${field} = ${url}`).toBe(422);
      expect(JSON.stringify(await response.json())).toContain(`config.prolific.${field}`);
    }
    expect((await save({ completionUrl: "https://app.prolific.com/submissions/complete?cc=X" })).status()).toBe(201);
    await researcher.dispose();
  });

  test("a study whose stored completion URL is javascript: is closed to participants, cannot be opened, and runs nothing", async ({
    page,
  }) => {
    // Stored as an older version (or a direct database edit) could have: the study is already open.
    const { slug } = await createSentinelStudy({
      count: 1,
      config: {
        prolific: {
          participantParam: "PROLIFIC_PID",
          studyParam: "STUDY_ID",
          sessionParam: "SESSION_ID",
          completionCode: "XSS",
          completionUrl: "javascript:alert('xss-completion')",
        },
      },
    });
    const dialogs = watchDialogs(page);
    await page.goto(`/s/${slug}?PROLIFIC_PID=sec-url-${suffix()}`);
    // If the study still let the participant in, go all the way to the completion screen (where the redirect ran).
    if (await page.getByRole("button", { name: /I agree/ }).isVisible()) {
      await page.getByRole("button", { name: /I agree/ }).click();
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByLabel(/Your answer/).fill("move x 1");
      await page.getByRole("button", { name: "Submit answer" }).click();
      await expect(page.getByRole("heading", { name: /finished the study/ })).toBeVisible();
      await page.waitForTimeout(6_000); // the completion screen redirects after 5 s
    }
    expect(dialogs).toEqual([]);
    await expect(page.getByRole("heading", { name: "This study is closed" })).toBeVisible();

    const [study] = await sql<{ id: string }>(`SELECT id FROM "Study" WHERE slug = $1`, [slug]);
    expect((await admin.post(`/api/admin/studies/${study!.id}/close`)).status()).toBe(200);
    const reopen = await admin.post(`/api/admin/studies/${study!.id}/open`);
    expect(reopen.status()).toBe(422);
    expect(JSON.stringify(await reopen.json())).toContain("completionUrl");
  });

  test("the browser re-checks the URL before navigating (a tampered response cannot make it run script)", async ({
    page,
  }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const dialogs = watchDialogs(page);
    await page.route("**/api/participant/answer", async (route) => {
      const response = await route.fetch();
      // The answer response carries the session change (`update`; `session` in older builds).
      const body = (await response.json()) as Record<
        string,
        { completion?: { url: string | null } | null } | undefined
      >;
      const change = body.update ?? body.session;
      if (change?.completion) change.completion.url = "javascript:alert('xss-tampered')";
      await route.fulfill({ response, json: body });
    });
    await page.goto(`/s/${slug}?PROLIFIC_PID=sec-url-${suffix()}`);
    await page.getByRole("button", { name: /I agree/ }).click();
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByLabel(/Your answer/).fill("move x 1");
    await page.getByRole("button", { name: "Submit answer" }).click();
    await expect(page.getByRole("heading", { name: /finished the study/ })).toBeVisible();
    await expect(page.getByRole("link", { name: "click here to return" })).toHaveCount(0);
    await page.waitForTimeout(6_000);
    expect(dialogs).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`/s/${slug}/session`);
  });
});

test.describe("foreign SVG", () => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const BYPASSES = {
    namespacedScript: `<svg xmlns="${SVG_NS}" xmlns:x="${SVG_NS}" width="64" height="64"><rect width="64" height="64" fill="#123"/><x:script>alert('xss-svg-script')</x:script></svg>`,
    entityJavascript: `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><a xlink:href="&#106;avascript:alert('xss-svg-link')"><rect width="64" height="64"/></a></svg>`,
    entityHttps: `<svg xmlns="${SVG_NS}" width="64" height="64"><image href="&#104;ttps://evil.example/beacon.png" width="64" height="64"/></svg>`,
  };

  test("the three bypasses: the script becomes pixels, the links are refused, and nothing runs when the image is opened", async ({
    page,
  }) => {
    const bundle = createTestBundle({ perTask: 1 });
    const items = fs
      .readFileSync(path.join(bundle.dir, "items.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; images: Array<{ file: string }> });
    const payloads = [BYPASSES.namespacedScript, BYPASSES.entityJavascript, BYPASSES.entityHttps];
    items.forEach((item, i) => fs.writeFileSync(path.join(bundle.dir, item.images[0]!.file), payloads[i]!));
    const files = [
      "manifest.json",
      "items.jsonl",
      "answers.jsonl",
      ...items.flatMap((it) => it.images.map((im) => im.file)),
    ];
    const zip = createStoredZip(files.map((name) => ({ name, data: fs.readFileSync(path.join(bundle.dir, name)) })));

    const upload = await admin.post(`/api/admin/import?name=svg-bypass-${bundle.tag}.zip`, {
      data: zip,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(upload.status(), await upload.text()).toBe(202);
    const { batchId } = (await upload.json()) as { batchId: string };
    await expect
      .poll(
        async () =>
          (await sql<{ f: Date | null }>(`SELECT "finishedAt" AS f FROM "ImportBatch" WHERE id = $1`, [batchId]))[0]
            ?.f ?? null,
        { timeout: 60_000 },
      )
      .not.toBeNull();

    const stored = await sql<{ externalId: string; id: string; mimeType: string; position: number }>(
      `SELECT i."externalId", im.id, im."mimeType", im.position FROM "Item" i JOIN "ItemImage" im ON im."itemId" = i.id WHERE i."externalId" = ANY($1) AND im.position = 0`,
      [items.map((it) => it.id)],
    );
    // 1: the namespaced <x:script> was rasterised: stored and served as PNG.
    const scripted = stored.find((s) => s.externalId === items[0]!.id);
    expect(scripted?.mimeType).toBe("image/png");
    // 2 and 3: entity-encoded javascript: and https: references are decoded and refused (the item is skipped).
    expect(stored.map((s) => s.externalId)).not.toContain(items[1]!.id);
    expect(stored.map((s) => s.externalId)).not.toContain(items[2]!.id);
    const [batch] = await sql<{ report: unknown }>(`SELECT report FROM "ImportBatch" WHERE id = $1`, [batchId]);
    expect(JSON.stringify(batch!.report)).toContain("javascript:alert");
    expect(JSON.stringify(batch!.report)).toContain("https://evil.example/beacon.png");

    // Opened directly by a signed-in admin (the attack): a PNG, under a sandbox policy, nothing runs.
    await page.context().addCookies((await admin.storageState()).cookies);
    const dialogs = watchDialogs(page);
    const response = await page.goto(`/api/images/${scripted!.id}`);
    expect(response!.headers()["content-type"]).toBe("image/png");
    expect(response!.headers()["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(response!.headers()["x-content-type-options"]).toBe("nosniff");
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
  });

  test("an SVG stored unrasterised is served under a sandbox policy: its script does not run when opened", async ({
    page,
  }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const [image] = await sql<{ id: string }>(
      `SELECT im.id FROM "ItemImage" im JOIN "PoolItem" pi ON pi."itemId" = im."itemId" JOIN "Study" s ON s."poolVersionId" = pi."poolVersionId" WHERE s.slug = $1 AND im.position = 0`,
      [slug],
    );
    await sql(`UPDATE "ItemImage" SET data = $2 WHERE id = $1`, [
      image!.id,
      Buffer.from(BYPASSES.namespacedScript.replace("<x:script>", `<script>`).replace("</x:script>", "</script>")),
    ]);
    await page.context().addCookies((await admin.storageState()).cookies);
    const dialogs = watchDialogs(page);
    const response = await page.goto(`/api/images/${image!.id}`);
    expect(response!.headers()["content-type"]).toBe("image/svg+xml");
    expect(response!.headers()["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
  });
});

test.describe("sign-in limits", () => {
  test("failures without X-Forwarded-For do not lock out other staff (no shared 'local' key)", async ({
    playwright,
    baseURL,
  }) => {
    const anyone = await playwright.request.newContext({ baseURL });
    for (let i = 0; i < 6; i++)
      expect(await postSignIn(anyone, { email: `nobody-${suffix()}@e2e.test`, password: "wrong" })).toBe("wrong");
    const adminAgain = await playwright.request.newContext({ baseURL });
    expect(await postSignIn(adminAgain, E2E_ADMIN)).toBe("ok");
    await Promise.all([anyone.dispose(), adminAgain.dispose()]);
  });

  test("a client-chosen X-Forwarded-For does not get around the per-address limit", async ({ playwright, baseURL }) => {
    const attacker = await playwright.request.newContext({ baseURL });
    const real = address();
    const results: string[] = [];
    for (let i = 0; i < 32; i++) {
      // The client writes any first entry; the trusted proxy appends the address it saw.
      results.push(
        await postSignIn(
          attacker,
          { email: `spray-${suffix()}@e2e.test`, password: "wrong" },
          { "x-forwarded-for": `10.${i}.0.1, ${real}` },
        ),
      );
    }
    expect(results.slice(0, 30).every((r) => r === "wrong")).toBe(true);
    expect(results.slice(30)).toEqual([
      expect.stringMatching(/Too many failed sign-ins/),
      expect.stringMatching(/Too many failed sign-ins/),
    ]);
    await attacker.dispose();
  });

  test("31 parallel guesses get at most 5 password checks; the owner still signs in from her own address", async ({
    playwright,
    baseURL,
  }) => {
    const owner = await playwright.request.newContext({ baseURL });
    const target = { email: `parallel-${suffix()}@e2e.test`, password: `pw-${randomBytes(12).toString("hex")}` };
    await createAccount(admin, { ...target, role: "researcher" });
    const attackerAddress = address();
    const contexts = await Promise.all(Array.from({ length: 31 }, () => playwright.request.newContext({ baseURL })));
    const results = await Promise.all(
      contexts.map((c, i) =>
        postSignIn(
          c,
          { email: target.email, password: i === 30 ? target.password : `guess-${i}` },
          { "x-forwarded-for": attackerAddress },
        ),
      ),
    );
    const checked = results.filter((r) => r === "wrong" || r === "ok").length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(results.filter((r) => /Too many failed sign-ins/.test(r)).length).toBeGreaterThanOrEqual(26);
    expect(await postSignIn(owner, target, { "x-forwarded-for": address() })).toBe("ok");
    await Promise.all([...contexts, owner].map((c) => c.dispose()));
  });
});

test.describe("participant flood", () => {
  test("one client address cannot create more than 20 participants of a study", async ({ playwright, baseURL }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const from = address();
    const statuses: string[] = [];
    for (let i = 0; i < 30; i++) {
      const visitor = await playwright.request.newContext({ baseURL }); // no cookie
      const response = await visitor.get(`/s/${slug}`, { maxRedirects: 0, headers: { "x-forwarded-for": from } });
      statuses.push(
        new URL(response.headers()["location"] ?? "", "http://x").pathname.endsWith("/session")
          ? "joined"
          : (new URL(response.headers()["location"] ?? "", "http://x").searchParams.get("kind") ??
              String(response.status())),
      );
      await visitor.dispose();
    }
    const [count] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Participant" p JOIN "Study" s ON s.id = p."studyId" WHERE s.slug = $1`,
      [slug],
    );
    expect(count!.n).toBe(20);
    expect(statuses.filter((s) => s === "busy")).toHaveLength(10);
    // Another address still gets in.
    const other = await playwright.request.newContext({ baseURL });
    const response = await other.get(`/s/${slug}`, { maxRedirects: 0, headers: { "x-forwarded-for": address() } });
    expect(response.headers()["location"]).toContain("/session");
    await other.dispose();
  });

  test("one client address cannot consent more than 20 participants of a study", async ({ playwright, baseURL }) => {
    const { slug } = await createSentinelStudy({ count: 1, config: { answersPerItem: 100 } });
    const consentFrom = address();
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const visitor = await playwright.request.newContext({ baseURL });
      await visitor.get(`/s/${slug}`, { headers: { "x-forwarded-for": address() } }); // joins from many addresses
      const response = await visitor.post("/api/participant/consent", {
        data: { accept: true, device: null },
        headers: { "x-forwarded-for": consentFrom },
      });
      statuses.push(response.status());
      await visitor.dispose();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
  });
});

test.describe("open redirect after sign-in", () => {
  test("callbackUrl=/%5Cevil.example/x stays on this site", async ({ page, baseURL }) => {
    const researcher = { email: `redirect-${suffix()}@e2e.test`, password: `pw-${randomBytes(12).toString("hex")}` };
    await createAccount(admin, { ...researcher, role: "researcher" });
    await page.goto("/signin?callbackUrl=/%5Cevil.example/x");
    await page.getByLabel("Email").fill(researcher.email);
    await page.getByLabel("Password").fill(researcher.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page
      .waitForURL((url) => url.pathname === "/admin" || url.hostname === "evil.example", { timeout: 15_000 })
      .catch(() => undefined);
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    expect(new URL(page.url()).pathname).toBe("/admin");
  });
});

/** GET of a request target exactly as written: fetch and Playwright's request context resolve `.`, `..` and `%2e%2e`. */
function rawGet(
  baseURL: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | null; body: string }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname === "localhost" ? "127.0.0.1" : hostname,
        port,
        path: target,
        method: "GET",
        headers: { host: `${hostname}:${port}`, ...headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            location: (res.headers.location as string | undefined) ?? null,
            body,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test.describe("study link slugs", () => {
  test("a dot segment or anything no study slug can be is a 404 'Study not found', never a redirect out of /s/<slug>/", async ({
    playwright,
    baseURL,
  }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    // A participant with a session cookie: the session page would otherwise redirect it to "/s/<slug>/status".
    const participant = await playwright.request.newContext({ baseURL });
    await participant.get(`/s/${slug}?PROLIFIC_PID=sec-dots-${suffix()}`);
    const cookie = (await participant.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect(cookie).not.toBe("");
    const targets = [
      "/s/%2e%2e",
      "/s/%2E%2E",
      "/s/%2e%2e?PROLIFIC_PID=p1&STUDY_ID=s&SESSION_ID=1",
      "/s/%2E%2E/session",
      "/s/%2e%2e/status?kind=closed",
      "/s/.%2e/session",
      "/s/..",
      "/s/../session",
      "/s/.",
      "/s/./session",
      "/s/%2e/status",
      "/s/x%2Fy",
      "/s/Demo",
      "/s//session",
    ];
    for (const target of targets) {
      for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
        const res = await rawGet(baseURL!, target, headers);
        const what = `${target}${"cookie" in headers ? " (with a participant cookie)" : ""}`;
        expect(res.status, what).toBe(404);
        expect(res.location, what).toBeNull();
        expect(res.body, what).toContain("not found");
      }
    }
    // A well-formed slug no study has still goes to its own status page, inside /s/<slug>/.
    const unknown = await rawGet(baseURL!, "/s/no-such-study-here?PROLIFIC_PID=p2");
    expect(unknown.status).toBe(303);
    expect(unknown.location).toBe("/s/no-such-study-here/status?kind=not_found");
    // And the study's own link still works.
    const own = await rawGet(baseURL!, `/s/${slug}?PROLIFIC_PID=sec-dots-${suffix()}`);
    expect(own.status).toBe(303);
    expect(own.location).toBe(`/s/${slug}/session`);
    await participant.dispose();
  });
});

test.describe("requests", () => {
  test("a same-site page on another port cannot close a study (Origin / Sec-Fetch-Site)", async ({ baseURL }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const [study] = await sql<{ id: string }>(`SELECT id FROM "Study" WHERE slug = $1`, [slug]);
    const base = new URL(baseURL!);
    const otherPort = `${base.protocol}//${base.hostname}:${Number(base.port) + 9}`;
    // What a browser sends for fetch(…, {method: "POST", credentials: "include"}) from that page.
    const sameSite = await admin.post(`/api/admin/studies/${study!.id}/close`, {
      headers: { origin: otherPort, "sec-fetch-site": "same-site", "sec-fetch-mode": "cors" },
    });
    expect(sameSite.status()).toBe(403);
    const oldBrowser = await admin.post(`/api/admin/studies/${study!.id}/close`, { headers: { origin: otherPort } });
    expect(oldBrowser.status()).toBe(403);
    expect(
      (await sql<{ status: string }>(`SELECT status::text FROM "Study" WHERE id = $1`, [study!.id]))[0]!.status,
    ).toBe("open");
    // The app's own page (same-origin) still can.
    expect(
      (
        await admin.post(`/api/admin/studies/${study!.id}/close`, {
          headers: { origin: base.origin, "sec-fetch-site": "same-origin" },
        })
      ).status(),
    ).toBe(200);
  });

  test("participant routes refuse cross-site posts", async ({ playwright, baseURL }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const visitor = await playwright.request.newContext({ baseURL });
    await visitor.get(`/s/${slug}`);
    const response = await visitor.post("/api/participant/consent", {
      data: { accept: true },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(response.status()).toBe(403);
    await visitor.dispose();
  });

  test("staff JSON bodies are limited (a 5 MB body is refused with 413 before it is parsed)", async () => {
    const big = JSON.stringify({ name: "x".repeat(5 * 1024 * 1024) });
    for (const [method, url] of [
      ["POST", "/api/admin/studies"],
      ["POST", "/api/admin/pools"],
      ["POST", "/api/admin/users"],
      ["PATCH", "/api/admin/pool-versions/none/items"],
    ] as const) {
      const response = await admin.fetch(url, { method, data: big, headers: { "content-type": "application/json" } });
      expect(response.status(), `${method} ${url}`).toBe(413);
    }
    const form = await admin.post("/api/admin/models", {
      multipart: {
        model: "m",
        file: { name: "p.jsonl", mimeType: "application/json", buffer: Buffer.alloc(70 * 1024 * 1024, 0x20) },
      },
    });
    expect(form.status()).toBe(413);
  });

  test("a NUL byte in a path, query or body is a 4xx, never a 500", async ({ playwright, baseURL }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const participant = await playwright.request.newContext({ baseURL });
    await participant.get(`/s/${slug}?PROLIFIC_PID=sec-nul-${suffix()}`);
    const urls = [
      `/s/%00`,
      `/s/${slug}?PROLIFIC_PID=a%00b`,
      `/s/${slug}/status?kind=%00`,
      `/signin?callbackUrl=/admin%00`,
      `/admin/items?q=%00`,
      `/admin/items/%00`,
      `/admin/studies/%00`,
      `/api/admin/items?q=%00`,
      `/api/admin/items/%00`,
      `/api/admin/studies/%00`,
      `/api/admin/pools/%00`,
      `/api/images/a%00b`,
      `/api/results/%00`,
      `/api/export/%00/responses`,
      `/api/participant/scene/%00`,
    ];
    for (const url of urls) {
      for (const ctx of [admin, participant]) {
        const response = await ctx.get(url, { maxRedirects: 0 });
        expect(response.status(), url).toBeGreaterThanOrEqual(400);
        expect(response.status(), url).toBeLessThan(500);
      }
    }
    const bodies: Array<[APIRequestContext, string, unknown]> = [
      [participant, "/api/participant/consent", { accept: true, device: { userAgent: "a\u0000b" } }],
      [
        participant,
        "/api/participant/answer",
        { assignmentId: "a\u0000", answer: "move x 1", idempotencyKey: "key-0000-0000" },
      ],
      [admin, "/api/admin/pools", { name: "pool\u0000", mode: "stratified" }],
      [admin, "/api/admin/users", { email: "a@b.org", role: "researcher", name: "n\u0000" }],
    ];
    for (const [ctx, url, data] of bodies) {
      const response = await ctx.post(url, { data });
      expect(response.status(), url).toBeGreaterThanOrEqual(400);
      expect(response.status(), url).toBeLessThan(500);
    }
    await participant.dispose();
  });

  test("a malformed percent-encoding in a path segment is a 400, never a 500", async ({ playwright, baseURL }) => {
    const participant = await playwright.request.newContext({ baseURL });
    const urls = [
      `/s/%FF%FE`,
      `/s/%E0%A4`,
      `/s/%`,
      `/s/%FF/status`,
      `/admin/studies/%FF`,
      `/admin/items/%C0%AF`,
      `/api/images/%FF`,
      `/api/results/%FF`,
      `/api/export/%FF/responses`,
      `/api/admin/studies/%FF`,
      `/api/admin/import/%FF`,
      `/api/participant/scene/%FF`,
    ];
    for (const url of urls) {
      for (const ctx of [admin, participant]) {
        const response = await ctx.get(url, { maxRedirects: 0 });
        expect(response.status(), url).toBe(400);
      }
    }
    await participant.dispose();
  });

  test("item search treats % and _ literally", async () => {
    const tag = suffix();
    const { slug } = await createSentinelStudy({ count: 1 });
    await sql(
      `UPDATE "Item" SET question = $2 WHERE id = (SELECT pi."itemId" FROM "PoolItem" pi JOIN "Study" s ON s."poolVersionId" = pi."poolVersionId" WHERE s.slug = $1 LIMIT 1)`,
      [slug, `Residue ASP_${tag}?`],
    );
    for (const q of ["_", "%"]) {
      const body = (await (await admin.get(`/api/admin/items?q=${encodeURIComponent(q)}&pageSize=200`)).json()) as {
        rows: Array<{ questionExcerpt: string; externalId: string | null; id: string }>;
      };
      for (const row of body.rows)
        expect(`${row.questionExcerpt} ${row.externalId ?? ""} ${row.id}`, `q=${q}`).toContain(q);
      if (q === "_") expect(body.rows.some((r) => r.questionExcerpt.includes(`ASP_${tag}`))).toBe(true);
    }
  });

  test("a disabled staff account's session stops working on its next request; it cannot sign in; the admin page can disable", async ({
    playwright,
    baseURL,
    page,
  }) => {
    const researcherRequest = await playwright.request.newContext({ baseURL });
    const researcher = await newResearcher(admin, researcherRequest);
    expect((await researcherRequest.get("/api/admin/studies")).status()).toBe(200);
    const disable = await admin.patch(`/api/admin/users/${researcher.id}`, { data: { disabled: true } });
    expect(disable.status(), await disable.text()).toBe(200);
    expect((await researcherRequest.get("/api/admin/studies")).status()).toBe(401);
    expect(await postSignIn(researcherRequest, researcher)).toBe("wrong");
    const [audit] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "AuditLog" WHERE action = 'user.disable' AND "entityId" = $1`,
      [researcher.id],
    );
    expect(audit!.n).toBe(1);
    expect((await admin.patch(`/api/admin/users/${researcher.id}`, { data: { disabled: false } })).status()).toBe(200);
    // Enabled again: the session from before stays dead; a new sign-in works.
    expect((await researcherRequest.get("/api/admin/studies")).status()).toBe(401);
    expect(await postSignIn(researcherRequest, researcher)).toBe("ok");
    expect((await researcherRequest.get("/api/admin/studies")).status()).toBe(200);

    // The same through the admin page.
    const other = await playwright.request.newContext({ baseURL });
    const second = await newResearcher(admin, other);
    await signInPage(page, E2E_ADMIN, "/admin/users");
    page.on("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: `Disable ${second.email}` }).click();
    await expect(page.getByRole("button", { name: `Enable ${second.email}` })).toBeVisible();
    expect((await other.get("/api/admin/studies")).status()).toBe(401);
    await Promise.all([researcherRequest.dispose(), other.dispose()]);
  });
});

test.describe("security headers", () => {
  test("pages, APIs and assets carry the headers; the CSP nonce is on Next's scripts and nothing is blocked", async ({
    page,
    request,
  }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    const response = await page.goto("/signin");
    const headers = response!.headers();
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("same-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["x-frame-options"]).toBe("DENY");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const scripts = await page.locator("script").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
    expect(scripts.length).toBeGreaterThan(0);
    for (const n of scripts) expect(n).toBe(nonce);
    // The form works under the policy (hydrated: the client-side submit handler signs in).
    await signInPage(page, E2E_ADMIN, "/admin/studies");
    expect(violations).toEqual([]);

    // A second load gets a fresh nonce.
    const again = (await request.get("/signin")).headers()["content-security-policy"] ?? "";
    expect(/'nonce-([^']+)'/.exec(again)![1]).not.toBe(nonce);

    for (const url of ["/api/health", "/api/admin/items", "/s/no-such-study/status"]) {
      const r = await request.get(url, { maxRedirects: 0 });
      expect(r.headers()["x-content-type-options"], url).toBe("nosniff");
      expect(r.headers()["content-security-policy"], url).toContain("frame-ancestors 'none'");
    }
    const asset = await page.evaluate(
      () => (document.querySelector("script[src]") as HTMLScriptElement | null)?.src ?? "",
    );
    expect((await request.get(asset)).headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("the participant's prerendered page runs under a CSP of its inline scripts' hashes: no nonce, nothing blocked, no other inline script", async ({
    page,
  }) => {
    const { slug } = await createSentinelStudy({ count: 1 });
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    const pageResponse = page.waitForResponse((r) => new URL(r.url()).pathname === `/s/${slug}/session`);
    await page.goto(`/s/${slug}?PROLIFIC_PID=sec-shell-${suffix()}`);
    const csp = (await pageResponse).headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+(;|$)/);
    expect(csp).not.toContain("nonce-");
    expect(csp).not.toContain("strict-dynamic");
    // Hydrated under that policy: the consent button works and the first question shows.
    await page.getByRole("button", { name: /I agree/ }).click();
    await page.getByRole("button", { name: "Start" }).click();
    await expect(page.getByLabel(/Your answer/)).toBeVisible();
    expect(violations).toEqual([]);
    // An inline script the page did not ship is refused by the same policy.
    const ran = await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__injected = true";
      document.body.appendChild(s);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
  });
});
