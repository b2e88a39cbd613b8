import { expect, type Page } from "@playwright/test";

// A valid answer per task of the demo items (scores don't matter; the answer grammar must accept them).
const ANSWERS: Array<[RegExp, string]> = [
  [/^Translation \+ rotation|^Rotation \+ rotation|^Interaction location/, "A"],
  [/^Translation/, "move x 1"],
  [/^Rotation/, "roll x 15"],
  [/^Zooming/, "move z 45"],
  [/^Residue/, "No"],
  [/docking/i, "roll x 15, move x 10"],
  [/^Pocket/, "No"],
];

/** An answer the task with this question title accepts (the title without "Practice"). */
export function answerFor(label: string): string {
  const answer = ANSWERS.find(([re]) => re.test(label))?.[1];
  expect(answer, `no answer for task '${label}'`).toBeDefined();
  return answer!;
}

export interface WalkOptions {
  /** Per screen (dev mode compiles on demand: give it minutes). */
  timeoutMs?: number;
  /** On each question before it is answered (its title without "Practice"). */
  onQuestion?: (label: string) => Promise<void>;
  /** On the practice feedback screen before Continue. */
  onFeedback?: () => Promise<void>;
}

/** Walks a participant from the study link through consent, instructions, practice and questions to the completion screen. */
export async function completeDemo(page: Page, link: string, options: WalkOptions = {}) {
  const timeout = options.timeoutMs ?? 120_000;
  await page.goto(link);
  await page.getByRole("button", { name: /I agree/ }).click({ timeout });
  for (let step = 0; step < 40; step++) {
    const done = page.getByRole("heading", { name: /finished the study/ });
    const start = page.getByRole("button", { name: /^Start/ });
    const next = page.getByRole("button", { name: "Continue" });
    const title = page.locator("#q-title");
    await expect(done.or(start).or(next).or(title).first()).toBeVisible({ timeout });
    if (await done.isVisible()) return;
    if (await start.isVisible()) {
      await start.click();
      continue;
    }
    if (await next.isVisible()) {
      await options.onFeedback?.();
      await next.click();
      continue;
    }
    const label = ((await title.textContent()) ?? "").replace("Practice", "").trim();
    await options.onQuestion?.(label);
    await page.getByLabel(/Your answer/).fill(answerFor(label));
    await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as", {
      timeout: Math.min(timeout, 60_000),
    });
    await page.getByRole("button", { name: "Submit answer" }).click();
    await expect(title.filter({ hasText: label }))
      .toHaveCount(0, { timeout: Math.min(timeout, 60_000) })
      .catch(() => {});
  }
}
