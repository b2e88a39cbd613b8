import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Accounts the e2e web server seeds (playwright.config.ts) or the specs create. */
export const E2E_ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password" } as const;

export interface Credentials {
  email: string;
  password: string;
}

/**
 * Signs a request context in through next-auth's credentials flow (GET /api/auth/csrf, then a form-encoded
 * POST /api/auth/callback/credentials); the context keeps the session cookie for later requests.
 */
export async function signInRequest(request: APIRequestContext, credentials: Credentials): Promise<void> {
  const csrf = await request.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: credentials.email, password: credentials.password, json: "true" },
    maxRedirects: 0,
  });
  // next-auth answers 200 (json: true) or a 302; either way a failed sign-in points at ?error=.
  expect([200, 302]).toContain(response.status());
  const target =
    response.headers()["location"] ?? ((await response.json().catch(() => ({}))) as { url?: string }).url ?? "";
  expect(target, `sign-in as ${credentials.email} failed`).not.toContain("error=");
  const session = await request.get("/api/auth/session");
  const body = (await session.json()) as { user?: { email?: string } };
  expect(body.user?.email, `no session for ${credentials.email}`).toBe(credentials.email);
}

/** Signs a browser page in through the sign-in form, then waits for the destination. */
export async function signInPage(page: Page, credentials: Credentials, callbackUrl = "/admin"): Promise<void> {
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === callbackUrl);
}

/** Creates a staff account through the admin-only API (the request must be signed in as an admin). */
export async function createAccount(
  adminRequest: APIRequestContext,
  account: Credentials & { role: "admin" | "researcher" },
): Promise<void> {
  const response = await adminRequest.post("/api/admin/users", { data: account });
  expect(response.status(), await response.text()).toBe(201);
}
