import { expect, test, type Page } from "@playwright/test";
import { createSentinelStudy } from "./helpers/participant-fixtures";
import { E2E_ADMIN, signInPage } from "./helpers/sign-in";

// Integrity signals end to end: a participant who switches to another tab and pastes an answer is flagged with those
// signals on the researcher's results page, and the study's exclusion policy changes the page's counts as stated.
// The tab switch is a real second tab activated in the same window: the question page really loses and regains focus
// (window blur/focus). Headless Chromium keeps a background tab "visible", so the page's hidden state is emulated for
// the time the other tab is in front (see below); the paste is real: the text goes to the clipboard through the
// Clipboard API and is pasted with Control+V (clipboard permissions granted).

/** The gold of the current question: the fixture's item N (1-based, named in the text) is `move <x|y> <d>`. */
async function goldOfCurrent(page: Page): Promise<string> {
  const text = await page.getByRole("region", { name: "Question" }).innerText();
  const n = Number(/\(item (\d+)\)/.exec(text)?.[1]) - 1;
  return `move ${n % 2 ? "y" : "x"} ${(n % 4) + 1}`;
}

async function submit(page: Page, progress: string) {
  await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
  await page.getByRole("button", { name: "Submit answer" }).click();
  if (progress) await expect(page.getByText(progress)).toBeVisible();
}

async function start(page: Page, slug: string, pid: string) {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=${pid}&STUDY_ID=s&SESSION_ID=${pid}`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("1 of 3")).toBeVisible();
}

test("a participant who switches tabs and pastes is flagged, and the exclusion policy changes the results as stated", async ({
  browser,
}) => {
  // Policy (set before anyone joined, as the study form requires): page hidden more than 1 s in total, or any paste.
  const { slug } = await createSentinelStudy({
    count: 3,
    config: { exclusions: { hiddenSecOver: 1, anyPaste: true } },
  });
  const studyId = `st_${slug.replace(/^e2e-/, "")}`;

  // Participant A: on question 1, switches to another tab for ~2.5 s, then pastes the answer.
  const contextA = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const a = await contextA.newPage();
  await start(a, slug, "switcher");
  // A real second tab in the same window, activated as a participant's click on it would (Playwright's focus
  // emulation, which keeps every page focused, is turned off for this page so the browser's real focus is seen).
  const cdp = await contextA.newCDPSession(a);
  await cdp.send("Emulation.setFocusEmulationEnabled", { enabled: false });
  const { targetInfo } = await cdp.send("Target.getTargetInfo");
  const browserCdp = await browser.newBrowserCDPSession();
  const { targetId } = await browserCdp.send("Target.createTarget", {
    url: "about:blank",
    newWindow: false,
    browserContextId: targetInfo.browserContextId,
  });
  await browserCdp.send("Target.activateTarget", { targetId });
  await expect.poll(() => a.evaluate(() => document.hasFocus())).toBe(false);
  // Headless Chromium paints every tab, so the background tab stays "visible" (checked: Chromium 156 keeps it so for a
  // second tab, a popup, a minimised window). Where that holds, the hidden state a headed browser enters at this moment
  // is emulated on the document (its visibilityState and the visibilitychange event), and undone when the tab returns.
  const emulateHidden = (await a.evaluate(() => document.visibilityState)) === "visible";
  console.log(`tab switch: visibilityState stays visible in this browser: ${emulateHidden} (emulated when true)`);
  const setHidden = (hidden: boolean) =>
    a.evaluate((h) => {
      if (h) Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      else delete (document as unknown as Record<string, unknown>).visibilityState;
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  if (emulateHidden) await setHidden(true);
  await expect.poll(() => a.evaluate(() => document.visibilityState)).toBe("hidden");
  await a.waitForTimeout(2_500);
  if (emulateHidden) await setHidden(false);
  await browserCdp.send("Target.activateTarget", { targetId: targetInfo.targetId });
  await browserCdp.send("Target.closeTarget", { targetId });
  await expect.poll(() => a.evaluate(() => [document.visibilityState, document.hasFocus()])).toEqual(["visible", true]);
  const gold1 = await goldOfCurrent(a);
  await a.evaluate((text) => navigator.clipboard.writeText(text), gold1);
  await a.getByLabel(/Your answer/).click();
  await a.keyboard.press("Control+V");
  await expect(a.getByLabel(/Your answer/)).toHaveValue(gold1);
  await submit(a, "2 of 3");
  for (const progress of ["3 of 3", ""]) {
    await a.getByLabel(/Your answer/).fill(await goldOfCurrent(a));
    await submit(a, progress);
  }
  await expect(a.getByText(/you have finished the study/)).toBeVisible();

  // Participant B: types every answer, one of them wrong (move z is never a translation gold here: "move x 4" is).
  const contextB = await browser.newContext();
  const b = await contextB.newPage();
  await start(b, slug, "typist");
  for (const [i, progress] of ["2 of 3", "3 of 3", ""].entries()) {
    const gold = await goldOfCurrent(b);
    await b.getByLabel(/Your answer/).fill(i === 0 ? (gold === "move x 4" ? "move x 3" : "move x 4") : gold);
    await submit(b, progress);
  }
  await expect(b.getByText(/you have finished the study/)).toBeVisible();

  // The researcher's results page.
  const researcher = await browser.newPage();
  await signInPage(researcher, E2E_ADMIN, `/admin/results/${studyId}`);
  const section = researcher.locator("#integrity");
  await expect(section.getByRole("heading", { name: "Participant integrity and exclusions" })).toBeVisible();
  await section.getByText(/Signals per participant/).click();
  const rows = section.getByTestId("participant-signals").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  const switcherRow = rows.filter({ has: researcher.locator('[data-signal="pastes"]', { hasText: /^1 \(\d+\)$/ }) });
  await expect(switcherRow).toHaveCount(1);
  await expect(switcherRow.locator('[data-signal="pastes"]')).toHaveText(`1 (${gold1.length})`);
  const hiddenSec = Number(await switcherRow.locator('[data-signal="hidden-sec"]').innerText());
  expect(hiddenSec).toBeGreaterThanOrEqual(2);
  expect(Number(await switcherRow.locator('[data-signal="hidden-count"]').innerText())).toBeGreaterThanOrEqual(1);
  expect(Number(await switcherRow.locator('[data-signal="focus-losses"]').innerText())).toBeGreaterThanOrEqual(1);
  console.log(
    `switcher: hidden ${hiddenSec} s, focus losses ${await switcherRow.locator('[data-signal="focus-losses"]').innerText()}`,
  );
  // Playwright drives the browser, and the browser says so.
  await expect(switcherRow.locator('[data-signal="webdriver"]')).toHaveText("yes");
  await expect(switcherRow.locator('[data-signal="excluded-by"]')).toHaveText("hiddenSecOver; anyPaste");
  const typistRow = rows.filter({ hasNot: researcher.locator('[data-signal="pastes"]', { hasText: /^1 / }) });
  await expect(typistRow.locator('[data-signal="pastes"]')).toHaveText("0");
  await expect(typistRow.locator('[data-signal="hidden-sec"]')).toHaveText("0.0");
  await expect(typistRow.locator('[data-signal="focus-losses"]')).toHaveText("0");
  await expect(typistRow.locator('[data-signal="excluded-by"]')).toHaveText("kept");

  // The policy as stated: each rule removed the switcher, nobody else; accuracy 5/6 with everyone, 2/3 after.
  await expect(section.getByTestId("excluded-count")).toHaveText("1");
  const ruleRow = (rule: string) => section.getByTestId("exclusion-rules").locator(`tr[data-rule="${rule}"] td`);
  await expect(ruleRow("hiddenSecOver")).toHaveText(["1", "0"]);
  await expect(ruleRow("anyPaste")).toHaveText(["1", "0"]);
  const all = section.getByTestId("accuracy-all");
  const kept = section.getByTestId("accuracy-kept");
  await expect(all.locator('[data-cell="participants"]')).toHaveText("2");
  await expect(all.locator('[data-cell="answers"]')).toHaveText("6");
  await expect(all.locator('[data-cell="exact"]')).toHaveText(/^83\.3/);
  await expect(kept.locator('[data-cell="participants"]')).toHaveText("1");
  await expect(kept.locator('[data-cell="answers"]')).toHaveText("3");
  await expect(kept.locator('[data-cell="exact"]')).toHaveText(/^66\.7/);
  await section.screenshot({ path: "test-results/integrity-section.png" });

  // The study page states the policy the results applied (set before anyone joined, readable while the study is open).
  await researcher.goto(`/admin/studies/${studyId}`);
  await expect(
    researcher.locator("dl").getByText("page hidden more than 1 s in total; any paste into an answer field"),
  ).toBeVisible();

  await contextA.close();
  await contextB.close();
});
