import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createSentinelStudy, GOLD_SENTINEL } from "./helpers/participant-fixtures";
import { createAccount, E2E_ADMIN, signInRequest, type Credentials } from "./helpers/sign-in";

/**
 * Authorisation matrix: every staff page and API, called as anonymous, as a study participant, as a researcher and
 * as an admin. Pages redirect anonymous callers to /signin and the wrong role to /forbidden; APIs answer 401 / 403.
 *
 * ONE row per route. `role` is the least role allowed. `ok` is the status an allowed caller gets: 200 for reads;
 * mutations are sent an invalid body or an unknown id so an allowed caller gets 404/422 (the role check passed, and
 * nothing changes). Placeholders {itemId}, {poolId}, {versionId}, {studyId} are filled in beforeAll.
 * The study is shared with the matrix's researcher (studies have owners: lib/server/study-access.ts); the ownership
 * test below calls every {studyId} route as a researcher it is not shared with (404), then shares it (as here).
 */
type Role = "researcher" | "admin";
interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  role: Role;
  ok?: number;
  body?: unknown;
}

const ROUTES: Route[] = [
  // pages
  { method: "GET", path: "/admin", role: "researcher" },
  { method: "GET", path: "/admin/items", role: "researcher" },
  { method: "GET", path: "/admin/items?task=translation&q=complex", role: "researcher" },
  { method: "GET", path: "/admin/items/{itemId}", role: "researcher" },
  { method: "GET", path: "/admin/pools", role: "researcher" },
  { method: "GET", path: "/admin/pools/new", role: "admin" },
  { method: "GET", path: "/admin/pools/{poolId}", role: "researcher" },
  { method: "GET", path: "/admin/studies", role: "researcher" },
  { method: "GET", path: "/admin/studies/new", role: "researcher" },
  { method: "GET", path: "/admin/studies/{studyId}", role: "researcher" },
  { method: "GET", path: "/admin/studies/{studyId}/edit", role: "researcher" },
  { method: "GET", path: "/admin/studies/{studyId}/monitor", role: "researcher" },
  { method: "GET", path: "/admin/users", role: "admin" },
  { method: "GET", path: "/admin/import", role: "admin" },
  { method: "GET", path: "/admin/results", role: "researcher" },
  { method: "GET", path: "/admin/results/{studyId}", role: "researcher" },
  { method: "GET", path: "/admin/models", role: "researcher" },
  // APIs: items
  { method: "GET", path: "/api/admin/items", role: "researcher" },
  { method: "GET", path: "/api/admin/items/{itemId}", role: "researcher" },
  {
    method: "POST",
    path: "/api/admin/items/authz-missing-item/status",
    role: "admin",
    ok: 404,
    body: { status: "flagged", reason: "authz matrix" },
  },
  // APIs: pools
  { method: "GET", path: "/api/admin/pools", role: "researcher" },
  { method: "POST", path: "/api/admin/pools", role: "admin", ok: 422, body: { mode: "stratified", name: "" } },
  { method: "GET", path: "/api/admin/pools/{poolId}", role: "researcher" },
  { method: "GET", path: "/api/admin/pool-versions/{versionId}/items", role: "researcher" },
  {
    method: "PATCH",
    path: "/api/admin/pool-versions/{versionId}/items",
    role: "admin",
    ok: 422,
    body: { addItemIds: [], removeItemIds: [] },
  },
  { method: "POST", path: "/api/admin/pool-versions/authz-missing-version/freeze", role: "admin", ok: 404 },
  // APIs: studies
  { method: "GET", path: "/api/admin/studies", role: "researcher" },
  { method: "POST", path: "/api/admin/studies", role: "researcher", ok: 422, body: {} },
  { method: "GET", path: "/api/admin/studies/{studyId}", role: "researcher" },
  { method: "PUT", path: "/api/admin/studies/{studyId}", role: "researcher", ok: 422, body: {} },
  { method: "POST", path: "/api/admin/studies/authz-missing-study/open", role: "researcher", ok: 404 },
  { method: "POST", path: "/api/admin/studies/authz-missing-study/close", role: "researcher", ok: 404 },
  { method: "GET", path: "/api/admin/studies/{studyId}/monitor", role: "researcher" },
  { method: "GET", path: "/api/admin/studies/{studyId}/shares", role: "researcher" },
  {
    method: "POST",
    path: "/api/admin/studies/authz-missing-study/shares",
    role: "researcher",
    ok: 404,
    body: { email: "nobody@example.org" },
  },
  { method: "POST", path: "/api/admin/users/authz-missing-user/unlock", role: "admin", ok: 404 },
  // APIs: import (another engineer's routes; listed here so the matrix covers every staff route)
  { method: "GET", path: "/api/admin/import", role: "admin" },
  { method: "POST", path: "/api/admin/import", role: "admin", ok: 422, body: {} },
  { method: "GET", path: "/api/admin/import/authz-missing-batch", role: "admin", ok: 404 },
  // APIs: results, exports and model runs
  { method: "GET", path: "/api/results/{studyId}", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/responses", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/task-summary", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/item-summary", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/participants", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/vlmevalkit-tsv", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/vlmevalkit-tsv?size=512", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/paper-table?format=latex&metric=both", role: "researcher" },
  { method: "GET", path: "/api/export/{studyId}/estimate?size=768", role: "researcher" },
  { method: "GET", path: "/api/export/codebook", role: "researcher" },
  { method: "GET", path: "/api/admin/models", role: "researcher" },
  { method: "DELETE", path: "/api/admin/models/authz-missing-run", role: "admin", ok: 404 },
  // APIs: accounts
  { method: "GET", path: "/api/admin/users", role: "admin" },
  {
    method: "POST",
    path: "/api/admin/users",
    role: "admin",
    ok: 422,
    body: { email: "not-an-email", role: "researcher" },
  },
];

type Caller = "anonymous" | "participant" | "researcher" | "admin";
const CALLERS: Caller[] = ["anonymous", "participant", "researcher", "admin"];

/** What a caller must get: a status, and for redirects where to. */
function expected(route: Route, caller: Caller, path: string): { status: number; location?: string } {
  const isPage = !path.startsWith("/api/");
  const staff = caller === "researcher" || caller === "admin";
  if (!staff)
    return isPage
      ? { status: 307, location: `/signin?callbackUrl=${encodeURIComponent(path.split("?")[0]!)}` }
      : { status: 401 };
  if (route.role === "admin" && caller === "researcher")
    return isPage ? { status: 307, location: "/forbidden" } : { status: 403 };
  return { status: route.ok ?? 200 };
}

const ids: Record<string, string> = {};
const contexts = {} as Record<Caller, APIRequestContext>;
let researcher: Credentials;

test.describe("authorisation matrix", () => {
  test.beforeAll(async ({ playwright }, workerInfo) => {
    const baseURL = workerInfo.project.use.baseURL;
    for (const caller of CALLERS) contexts[caller] = await playwright.request.newContext({ baseURL });

    await signInRequest(contexts.admin, E2E_ADMIN);
    researcher = {
      email: `researcher-${randomBytes(4).toString("hex")}@e2e.test`,
      password: `pw-${randomBytes(12).toString("hex")}`,
    };
    await createAccount(contexts.admin, { ...researcher, role: "researcher" });
    await signInRequest(contexts.researcher, researcher);

    // A real open study (items with answer keys, a frozen pool version) and a real participant session for it.
    const { slug } = await createSentinelStudy({ count: 2 });
    const entered = await contexts.participant.get(
      `/s/${slug}?PROLIFIC_PID=authz-${randomBytes(3).toString("hex")}&STUDY_ID=s&SESSION_ID=x`,
      { maxRedirects: 0 },
    );
    expect(entered.status(), "entering the study link").toBeLessThan(400);
    const cookies = await contexts.participant.storageState();
    expect(
      cookies.cookies.map((c) => c.name),
      "the participant flow sets its session cookie",
    ).toContain("misi_participant");

    const studies = (await (await contexts.admin.get("/api/admin/studies")).json()) as {
      studies: Array<{ id: string; slug: string }>;
    };
    ids.studyId = studies.studies.find((s) => s.slug === slug)!.id;
    const shared = await contexts.admin.post(`/api/admin/studies/${ids.studyId}/shares`, {
      data: { email: researcher.email },
    });
    expect(shared.status(), await shared.text()).toBe(200);
    const study = (await (await contexts.admin.get(`/api/admin/studies/${ids.studyId}`)).json()) as {
      poolVersion: { id: string; poolId: string };
    };
    ids.versionId = study.poolVersion.id;
    ids.poolId = study.poolVersion.poolId;
    const items = (await (await contexts.admin.get(`/api/admin/pool-versions/${ids.versionId}/items`)).json()) as {
      items: Array<{ id: string }>;
    };
    ids.itemId = items.items[0]!.id;
  });

  test.afterAll(async () => {
    for (const caller of CALLERS) await contexts[caller]?.dispose();
  });

  for (const caller of CALLERS) {
    test(`as ${caller}`, async () => {
      const mismatches: string[] = [];
      for (const route of ROUTES) {
        const path = route.path.replace(/\{(\w+)\}/g, (_, key: string) => ids[key] ?? `missing-${key}`);
        const want = expected(route, caller, path);
        const response = await contexts[caller].fetch(path, {
          method: route.method,
          maxRedirects: 0,
          ...(route.body !== undefined || route.method !== "GET" ? { data: route.body ?? {} } : {}),
        });
        const location = response.headers()["location"] ?? "";
        const got = `${response.status()}${location ? ` → ${location}` : ""}`;
        const statusOk = response.status() === want.status;
        const locationOk =
          want.location === undefined ||
          new URL(location, "http://x").pathname + new URL(location, "http://x").search === want.location;
        if (!statusOk || !locationOk)
          mismatches.push(
            `${route.method} ${path}: expected ${want.status}${want.location ? ` → ${want.location}` : ""}, got ${got}`,
          );
      }
      expect(mismatches).toEqual([]);
    });
  }

  test("the gold answer reaches admins only: researchers see items without it", async () => {
    for (const path of [`/admin/items/${ids.itemId}`, `/api/admin/items/${ids.itemId}`]) {
      const asResearcher = await contexts.researcher.get(path);
      expect(asResearcher.status()).toBe(200);
      expect(await asResearcher.text()).not.toContain(GOLD_SENTINEL);
      const asAdmin = await contexts.admin.get(path);
      expect(asAdmin.status()).toBe(200);
      expect(await asAdmin.text()).toContain(GOLD_SENTINEL);
    }
  });

  test("ownership: a researcher gets 404 on every route of a study not shared with her, and what the owner gets once shared", async ({
    playwright,
  }, workerInfo) => {
    const stranger: Credentials = {
      email: `stranger-${randomBytes(4).toString("hex")}@e2e.test`,
      password: `pw-${randomBytes(12).toString("hex")}`,
    };
    await createAccount(contexts.admin, { ...stranger, role: "researcher" });
    const ctx = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
    await signInRequest(ctx, stranger);
    // Routes of this study that read or change it without side effects (PUT gets an invalid body: 422 once allowed).
    const studyRoutes = [
      ...ROUTES.filter((r) => r.path.includes("{studyId}") && r.role === "researcher"),
      {
        method: "POST",
        path: "/api/admin/studies/{studyId}/shares",
        role: "researcher",
        ok: 403,
        body: { email: stranger.email },
      } as Route,
      { method: "GET", path: "/api/export/{studyId}/estimate?scope=pool", role: "researcher" } as Route,
    ];
    const call = (route: Route) =>
      ctx.fetch(route.path.replace("{studyId}", ids.studyId!), {
        method: route.method,
        maxRedirects: 0,
        ...(route.body !== undefined || route.method !== "GET" ? { data: route.body ?? {} } : {}),
      });
    const before: string[] = [];
    for (const route of studyRoutes) {
      const response = await call(route);
      if (response.status() !== 404) before.push(`${route.method} ${route.path}: ${response.status()}`);
      expect(await response.text()).not.toContain(GOLD_SENTINEL);
    }
    expect(before, "not shared: 404 everywhere").toEqual([]);
    const listed = (await (await ctx.get("/api/admin/studies")).json()) as { studies: Array<{ id: string }> };
    expect(listed.studies.map((s) => s.id)).not.toContain(ids.studyId);
    expect(await (await ctx.get("/admin/studies")).text()).not.toContain(ids.studyId);

    const share = await contexts.admin.post(`/api/admin/studies/${ids.studyId}/shares`, {
      data: { email: stranger.email },
    });
    expect(share.status(), await share.text()).toBe(200);
    const after: string[] = [];
    for (const route of studyRoutes) {
      const response = await call(route);
      if (response.status() !== (route.ok ?? 200)) after.push(`${route.method} ${route.path}: ${response.status()}`);
    }
    expect(after, "shared: as the owner (only the share list is the owner's)").toEqual([]);
    expect(
      ((await (await ctx.get("/api/admin/studies")).json()) as { studies: Array<{ id: string }> }).studies.map(
        (s) => s.id,
      ),
    ).toContain(ids.studyId);

    const unshare = await contexts.admin.fetch(`/api/admin/studies/${ids.studyId}/shares`, {
      method: "DELETE",
      data: { email: stranger.email },
    });
    expect(unshare.status()).toBe(200);
    expect((await ctx.get(`/admin/studies/${ids.studyId}`, { maxRedirects: 0 })).status()).toBe(404);
    await ctx.dispose();
  });

  test("staff APIs refuse bodies that are not JSON (no cross-site form posts)", async () => {
    const response = await contexts.admin.post("/api/admin/studies", {
      headers: { "content-type": "text/plain" },
      data: "{}",
    });
    expect(response.status()).toBe(400);
  });
});
