import { expect, test } from "@playwright/test";

test("home page loads and the health endpoint reports ok", async ({ page, request }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "MiSI human baseline" })).toBeVisible();
  await expect(page.getByRole("link", { name: "sign in" })).toBeVisible();

  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  const body = await health.json();
  expect(body).toMatchObject({ status: "ok", database: { reachable: true }, migrations: { pending: 0, failed: 0 } });
  expect(body.migrations.applied).toBeGreaterThan(0);
  // Anonymous callers learn the state, not which migrations the server runs.
  expect(JSON.stringify(body)).not.toMatch(/\d{14}_/);
  expect(body.migrations).not.toHaveProperty("latest");
});
