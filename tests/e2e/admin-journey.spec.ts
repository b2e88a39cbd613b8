import { expect, test } from "@playwright/test";
import { createTestBundle } from "./helpers/item-bundle";
import { E2E_ADMIN, signInPage } from "./helpers/sign-in";

/** The test bundle holds T1–T3 (translation, rotation, zooming); the other tasks are unticked in the forms. */
const OTHER_TASK_CODES = ["T4", "T5", "T6", "T7", "T8", "T9"];

/**
 * An admin imports a bundle, builds a 5-per-task stratified pool from it, freezes it, creates and opens a study, and
 * sees a participant who opened the study link counted in the live monitor.
 */
test("admin journey: import → pool → study → participant link → monitor", async ({ page, browser }) => {
  test.setTimeout(180_000);
  page.on("dialog", (dialog) => dialog.accept());
  const bundle = createTestBundle({ perTask: 6 });

  await signInPage(page, E2E_ADMIN, "/admin");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  // 1. Import the bundle (3 tasks × 6 items) through the import page.
  await page.getByRole("navigation", { name: "Staff" }).getByRole("link", { name: "Import" }).click();
  await page.waitForLoadState("networkidle");
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: `bundle-${bundle.tag}.zip`, mimeType: "application/zip", buffer: bundle.zipBytes });
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 90_000 });

  // The items are browsable, filtered by the bundle's split.
  await page.goto(`/admin/items?split=${bundle.split}`);
  await expect(page.getByText(`${bundle.tasks.length * bundle.perTask} item(s) match`)).toBeVisible();

  // 2. Build a stratified pool: 5 per task from this bundle's split, with a recorded seed; then freeze it.
  const poolName = `Journey pool ${bundle.tag}`;
  await page.goto("/admin/pools/new");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Name", { exact: true }).fill(poolName);
  // The bundle has T1–T3 only: leave those three strata.
  const strata = page.getByRole("group", { name: "Tasks (strata)" });
  for (const code of OTHER_TASK_CODES) await strata.getByRole("checkbox", { name: new RegExp(`^${code} `) }).uncheck();
  await expect(strata.getByRole("checkbox", { checked: true })).toHaveCount(3);
  await page.getByLabel("Items per task (N)").fill("5");
  await page.getByLabel("Seed (optional)").fill(`journey-${bundle.tag}`);
  await page.getByLabel("Split").selectOption(bundle.split);
  await page.getByRole("button", { name: "Build pool" }).click();
  await expect(page.getByText("Pool built: version 1 with 15 items")).toBeVisible();
  await page.getByRole("link", { name: "Open the pool" }).click();
  await expect(page.getByRole("heading", { name: poolName })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Freeze version 1" }).click();
  await expect(page.getByRole("article", { name: "Version 1" }).getByText("frozen", { exact: true })).toBeVisible();

  // 3. Create a study on the frozen version and open it.
  const studyName = `Journey study ${bundle.tag}`;
  await page.goto("/admin/studies/new");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Study name").fill(studyName);
  const versionSelect = page.getByLabel("Pool version");
  const optionValue = await versionSelect.locator("option", { hasText: poolName }).getAttribute("value");
  await versionSelect.selectOption(optionValue!);
  const taskGroup = page.getByRole("group", { name: "Tasks and load" });
  for (const code of OTHER_TASK_CODES)
    await taskGroup.getByRole("checkbox", { name: new RegExp(`^${code} `) }).uncheck();
  await expect(taskGroup.getByRole("checkbox", { checked: true })).toHaveCount(3);
  // Settings the pool cannot satisfy are refused before saving, beside the field, with the task's name.
  await page.getByLabel("Items per task per participant").fill("6");
  await page.getByRole("button", { name: "Create study" }).click();
  await expect(
    page.getByText(
      "T1 Translation: the pool has 5 active item(s), but each participant needs 6 different ones. Lower items per task to 5 or add items.",
    ),
  ).toBeVisible();
  await expect(page.getByLabel("Items per task per participant")).toHaveAttribute("aria-invalid", "true");
  expect(page.url()).toMatch(/\/admin\/studies\/new$/);
  await page.getByLabel("Items per task per participant").fill("2");
  await page.getByLabel("Answers per item (k)").fill("3");
  await page.getByRole("button", { name: "Create study" }).click();
  await page.waitForURL(/\/admin\/studies\/[^/]+$/);
  await expect(page.getByRole("heading", { name: studyName })).toBeVisible();
  await expect(page.getByText("Ready to open.")).toBeVisible();
  await page.getByRole("button", { name: "Open study" }).click();
  await expect(page.getByRole("button", { name: "Close study" })).toBeVisible();

  // 4. A participant opens the Prolific-style link in a fresh browser context and sees the consent page.
  const link = await page.getByLabel("Participant link (lab use: anonymous id)").inputValue();
  expect(link).toMatch(/\/s\/journey-study-/);
  const participantContext = await browser.newContext();
  try {
    const participant = await participantContext.newPage();
    await participant.goto(`${link}?PROLIFIC_PID=journey-${bundle.tag}&STUDY_ID=prolific-study&SESSION_ID=session-1`);
    await expect(participant.getByRole("heading", { name: "Consent" })).toBeVisible();
  } finally {
    await participantContext.close();
  }

  // 5. The live monitor counts the participant.
  await page.getByRole("link", { name: "Live monitor" }).click();
  await expect(page.locator("dt", { hasText: "Started" }).locator("xpath=following-sibling::dd[1]")).toHaveText("1");
  await expect(page.getByRole("cell", { name: "0 / 15" }).first()).toBeVisible();
});
