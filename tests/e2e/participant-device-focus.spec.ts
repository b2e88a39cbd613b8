import pg from "pg";
import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  countResponses,
  createSentinelStudy,
  createStudyFromDemoPool,
  e2eDatabaseUrl,
  interactionLogs,
} from "./helpers/participant-fixtures";
import { answerFor } from "../helpers/demo-walk";

// Keyboard focus visible on every control of the question page, the device rule (desktop-only H-bond studies screen
// phones out before consent), the H-bond primer recorded on the server, and an answer kept across a page reload.

async function participantRow(
  slug: string,
  externalId: string,
): Promise<{ status: string; deviceInfo: Record<string, unknown> | null; flags: Record<string, unknown> | null }> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT p.status::text AS status, p."deviceInfo", p.flags FROM "Participant" p JOIN "Study" s ON s.id = p."studyId" WHERE s.slug = $1 AND p."externalId" = $2`,
      [slug, externalId],
    );
    return r.rows[0];
  } finally {
    await client.end();
  }
}

/** How the focused control shows focus: its own outline/box-shadow, or its label's when the control is visually hidden. */
async function focusIndicator(page: Page): Promise<{ what: string; visible: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: "body", visible: false };
    const r = el.getBoundingClientRect();
    // A visually hidden radio (1×1 px, clipped) shows its focus on the label that draws it.
    const shown = r.width <= 2 || r.height <= 2 ? ((el.closest("label") as HTMLElement | null) ?? el) : el;
    const cs = getComputedStyle(shown);
    const outline = cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2;
    const shadow = cs.boxShadow !== "none" && cs.boxShadow !== "";
    const name = `${el.tagName.toLowerCase()}${el.getAttribute("aria-label") ? `[${el.getAttribute("aria-label")}]` : ""} ${(el.textContent ?? "").trim().slice(0, 30)}${shown !== el ? " (via its label)" : ""}`;
    return { what: name, visible: outline || shadow };
  });
}

async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`could not reach ${target.toString()} with Tab`);
}

test("every control of the question page shows keyboard focus; the axis picker's label carries the ring of its hidden radio", async ({
  page,
}) => {
  const { slug } = await createSentinelStudy({ count: 1 });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=focus-1`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.locator("#q-title")).toBeFocused();

  const axisX = page.getByRole("radio", { name: "x", exact: true });
  await tabTo(page, axisX);
  const ringOf = (label: Locator) =>
    label.evaluate((el) => ({
      style: getComputedStyle(el).outlineStyle,
      width: parseFloat(getComputedStyle(el).outlineWidth),
    }));
  const labelX = page.getByTestId("axis-option").filter({ hasText: /^x$/ });
  const labelY = page.getByTestId("axis-option").filter({ hasText: /^y$/ });
  expect(await ringOf(labelX)).toEqual({ style: "solid", width: 3 });
  // The arrow keys move within the radio group (and choose): the ring follows the choice.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: "y", exact: true })).toBeFocused();
  await expect(page.getByLabel(/Your answer/)).toHaveValue("move y 0");
  expect(await ringOf(labelY)).toEqual({ style: "solid", width: 3 });
  expect((await ringOf(labelX)).style).toBe("none");

  // Every control reached with Tab from the top of the page shows where the focus is.
  await page.locator("#q-title").focus();
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const f = await focusIndicator(page);
    if (f.what === "body") break;
    seen.push(f.what);
    expect(f.visible, `no visible focus on ${f.what}`).toBe(true);
    if (f.what.startsWith("button") && f.what.includes("Submit answer")) break;
  }
  expect(seen.length).toBeGreaterThan(8);
});

test("a desktop-only study screens a phone out before consent, with the device recorded and a way back to Prolific", async ({
  browser,
  playwright,
  baseURL,
}) => {
  const { slug } = await createStudyFromDemoPool("static", {
    prolific: { completionCode: "UX-DONE", returnUrl: "https://app.prolific.com/submissions/complete?cc=NODEVICE" },
  });
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  const page = await phone.newPage();
  await page.goto(`/s/${slug}?PROLIFIC_PID=phone-1&STUDY_ID=x&SESSION_ID=1`);
  await expect(page.getByText(/needs a desktop or laptop computer/)).toBeVisible();
  await expect(page.getByRole("button", { name: /I agree/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Return" })).toHaveAttribute(
    "href",
    "https://app.prolific.com/submissions/complete?cc=NODEVICE",
  );
  const row = await participantRow(slug, "phone-1");
  expect(row.status).toBe("screened_out");
  expect(row.flags).toMatchObject({ screenOutReason: "device" });
  expect(row.deviceInfo).toMatchObject({ viewportWidth: 390, pointer: "coarse" });
  // Reloading keeps the screen-out; nothing was reserved.
  await page.reload();
  await expect(page.getByText(/needs a desktop or laptop computer/)).toBeVisible();
  expect(await countResponses(slug, "phone-1")).toBe(0);
  await phone.close();

  // A client that skips the browser's check is screened out at consent by the same rule.
  const visitor = await playwright.request.newContext({ baseURL });
  await visitor.get(`/s/${slug}?PROLIFIC_PID=phone-2`);
  const consent = await visitor.post("/api/participant/consent", {
    data: {
      accept: true,
      device: {
        viewportWidth: 390,
        viewportHeight: 844,
        screenWidth: 390,
        screenHeight: 844,
        devicePixelRatio: 3,
        userAgent: "phone",
        pointer: "coarse",
      },
    },
  });
  expect(consent.status()).toBe(200);
  const session = (await consent.json()) as { screenedOut: { message: string } | null; current: unknown };
  expect(session.screenedOut?.message).toMatch(/needs a desktop or laptop computer/);
  expect(session.current).toBeNull();
  expect((await participantRow(slug, "phone-2")).status).toBe("screened_out");
  await visitor.dispose();

  // A desktop gets the consent screen; a study set to "any device" takes the phone.
  const desktop = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const desk = await desktop.newPage();
  await desk.goto(`/s/${slug}?PROLIFIC_PID=desk-1`);
  await expect(desk.getByRole("button", { name: /I agree/ })).toBeVisible();
  await desk.waitForTimeout(500);
  expect((await participantRow(slug, "desk-1")).status).toBe("consenting");
  await desktop.close();
  const { slug: anySlug } = await createStudyFromDemoPool("static", { deviceRule: "any" });
  const phone2 = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page2 = await phone2.newPage();
  await page2.goto(`/s/${anySlug}?PROLIFIC_PID=phone-3`);
  await expect(page2.getByRole("button", { name: /I agree/ })).toBeVisible();
  await phone2.close();
});

test("the H-bond primer is recorded on the server: resuming in a new browser does not show it again", async ({
  browser,
}) => {
  const { slug } = await createStudyFromDemoPool("static", {
    hbondPrimer: true,
    tasks: ["residue_ligand", "pocket_ligand"],
    practiceItemIds: [],
  });
  const link = `/s/${slug}?PROLIFIC_PID=primer-1&STUDY_ID=x&SESSION_ID=1`;
  const first = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await first.newPage();
  await page.goto(link);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Continue to the instructions" }).click();
  await page.getByRole("button", { name: /^Start/ }).click();
  const title = page.locator("#q-title");
  const label = ((await title.textContent()) ?? "").trim();
  await page.getByLabel(/Your answer/).fill(answerFor(label));
  await page.getByRole("button", { name: "Submit answer" }).click();
  // The second H-bond task's instructions (no primer: it was read once).
  await expect(page.getByRole("heading", { name: /^Instructions:/ })).toBeVisible();
  await first.close();
  expect((await participantRow(slug, "primer-1")).flags).toHaveProperty("hbondPrimerSeenAt");

  const second = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page2 = await second.newPage();
  await page2.goto(link);
  await expect(page2.getByRole("heading", { name: /^Instructions:/ })).toBeVisible();
  await expect(page2.getByRole("button", { name: "Continue to the instructions" })).toHaveCount(0);
  await second.close();
});

test("an answer on its way when the page reloads is sent again after the reload and stored once", async ({ page }) => {
  const { slug } = await createSentinelStudy({ count: 2 });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=reload-1`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("1 of 2")).toBeVisible();
  // The server is "restarting": every attempt fails until the page reloads (as a dev server's restart reloads it).
  await page.route("**/api/participant/answer", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "UNAVAILABLE", message: "restarting" } }),
    }),
  );
  await page.getByLabel(/Your answer/).fill("move x 3");
  await page.getByRole("button", { name: "Submit answer" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Reconnecting/ })).toBeVisible();
  expect(await countResponses(slug, "reload-1")).toBe(0);
  await page.unroute("**/api/participant/answer");
  await page.reload();
  await expect(page.getByText("2 of 2")).toBeVisible();
  expect(await countResponses(slug, "reload-1")).toBe(1);
  // Stored as given, with the window it was given in.
  const [log] = (await interactionLogs(slug, "reload-1")) as Array<{ viewport?: { width: number; height: number } }>;
  expect(log?.viewport).toEqual({ width: 1366, height: 768 });
  // The next question starts clean: nothing is resent for it.
  await expect(page.getByLabel(/Your answer/)).toHaveValue("");
  await page.reload();
  await expect(page.getByText("2 of 2")).toBeVisible();
  expect(await countResponses(slug, "reload-1")).toBe(1);
});
