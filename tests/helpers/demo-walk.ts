import { expect, type Page } from "@playwright/test";

// A valid answer per task (as in tests/e2e/demo-study.spec.ts).
const ANSWERS: Array<[RegExp, string]> = [
  [/^Translation \+ rotation|^Rotation \+ rotation|^Interaction location/, "A"],
  [/^Translation/, "move x 1"],
  [/^Rotation/, "roll x 15"],
  [/^Zooming/, "move z 45"],
  [/^Residue/, "No"],
  [/docking/i, "roll x 15, move x 10"],
  [/^Pocket/, "No"],
];

/** Walks the seeded demo study from its link to the completion screen (generous timeouts: dev mode compiles on demand). */
export async function completeDemo(page: Page, link: string) {
  await page.goto(link);
  await page.getByRole("button", { name: /I agree/ }).click({ timeout: 120_000 });
  for (let step = 0; step < 40; step++) {
    const done = page.getByRole("heading", { name: /finished the study/ });
    const start = page.getByRole("button", { name: /^Start/ });
    const next = page.getByRole("button", { name: "Continue" });
    const title = page.locator("#q-title");
    await expect(done.or(start).or(next).or(title).first()).toBeVisible({ timeout: 120_000 });
    if (await done.isVisible()) return;
    if (await start.isVisible()) {
      await start.click();
      continue;
    }
    if (await next.isVisible()) {
      await next.click();
      continue;
    }
    const label = ((await title.textContent()) ?? "").replace("Practice", "").trim();
    const answer = ANSWERS.find(([re]) => re.test(label))?.[1];
    expect(answer, `no answer for task '${label}'`).toBeDefined();
    await page.getByLabel(/Your answer/).fill(answer!);
    await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as", { timeout: 60_000 });
    await page.getByRole("button", { name: "Submit answer" }).click();
    await expect(title.filter({ hasText: label })).toHaveCount(0, { timeout: 60_000 }).catch(() => {});
  }
}

