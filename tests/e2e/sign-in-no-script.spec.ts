import { expect, test } from "@playwright/test";

// The sign-in form when its script is not running (blocked dev resources, a slow network, scripts off): the browser
// submits it natively. Without method="post" that is a GET with the password in the query string, so in the URL bar,
// the history and every server or proxy log (happens in `next dev` at 127.0.0.1, whose dev resources are blocked).
test("without its script the sign-in form posts: the password never lands in a URL", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const password = "no-script-password-in-url";
  const requests: Array<{ method: string; url: string }> = [];
  page.on("request", (r) => requests.push({ method: r.method(), url: r.url() }));
  await page.goto("/signin?callbackUrl=%2Fadmin");
  await page.getByLabel("Email").fill("nobody@e2e.test");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForLoadState();
  const submit = requests.find((r) => new URL(r.url).pathname === "/signin" && r !== requests[0]);
  expect(submit, `no native submit seen in ${JSON.stringify(requests)}`).toBeDefined();
  expect(submit!.method).toBe("POST");
  for (const r of requests) expect(r.url).not.toContain(password);
  expect(page.url()).not.toContain(password);
  await context.close();
});
