import { expect, test } from "@playwright/test";
import { countResponses } from "./helpers/participant-fixtures";

// A valid answer per task (scores don't matter here; the grammar must accept them).
const ANSWERS: Array<[RegExp, string]> = [
  [/^Translation \+ rotation|^Rotation \+ rotation|^Interaction location/, "A"],
  [/^Translation/, "move x 1"],
  [/^Rotation/, "roll x 15"],
  [/^Zooming/, "move z 45"],
  [/^Residue/, "No"],
  [/docking/i, "roll x 15, move x 10"],
  [/^Pocket/, "No"],
];

test("a participant completes the seeded demo study (items generated from the shipped structures)", async ({ page }) => {
  test.setTimeout(180_000);
  const shots = process.env.SCREENSHOTS_DIR;
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto("/s/demo?PROLIFIC_PID=demo-walker&STUDY_ID=demo&SESSION_ID=1");
  await page.getByRole("button", { name: /I agree/ }).click();
  const seen = new Set<string>();
  for (let step = 0; step < 40; step++) {
    const done = page.getByRole("heading", { name: /finished the study/ });
    const start = page.getByRole("button", { name: /^Start/ });
    const next = page.getByRole("button", { name: "Continue" });
    const title = page.locator("#q-title");
    await expect(done.or(start).or(next).or(title).first()).toBeVisible();
    if (await done.isVisible()) break;
    if (await start.isVisible()) {
      await start.click();
      continue;
    }
    if (await next.isVisible()) {
      if (shots) await page.screenshot({ path: `${shots}/practice-feedback.png` });
      await next.click();
      continue;
    }
    const label = ((await title.textContent()) ?? "").replace("Practice", "").trim();
    const images = page.getByRole("list", { name: "Images" }).getByRole("listitem");
    expect(await images.count()).toBeGreaterThanOrEqual(4);
    // Every image actually loads (opaque ids, served to this participant only).
    await expect.poll(() => images.locator("img").evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    if (shots && !seen.has(label)) await page.screenshot({ path: `${shots}/${label.replace(/\W+/g, "_")}.png`, fullPage: true });
    seen.add(label);
    const answer = ANSWERS.find(([re]) => re.test(label))?.[1];
    expect(answer, `no answer for task '${label}'`).toBeDefined();
    await page.getByLabel(/Your answer/).fill(answer!);
    await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
    await page.getByRole("button", { name: "Submit answer" }).click();
    await expect(title.filter({ hasText: label })).toHaveCount(0, { timeout: 15_000 }).catch(() => {});
  }
  await expect(page.getByTestId("completion-code")).toHaveText("DEMO-DONE");
  expect(seen.size).toBe(9);
  // Nine main items plus the practice item.
  expect(await countResponses("demo", "demo-walker")).toBe(10);
});
