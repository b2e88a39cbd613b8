import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { answerFor } from "../helpers/demo-walk";
import { countResponses, createStudyFromDemoPool } from "./helpers/participant-fixtures";

// The participant's screens at 1280×800 in both conditions: axe-core finds no serious or critical violation on
// consent, instructions, one question of every task, the image viewer, practice feedback and completion; the static
// session is done with the keyboard alone; labels in the image viewer are readable. SCREENSHOTS_DIR=<dir> also saves a
// screenshot of every task (page and viewer) and labels.json with the measured label sizes.

const SHOTS = process.env.SCREENSHOTS_DIR;
const VIEWPORT = { width: 1280, height: 800 };
/** Smallest label font size (CSS px) accepted in the image viewer at 1280×800. */
const MIN_VIEWER_LABEL_PX = 11;

async function expectNoSeriousViolations(page: Page, where: string, log: string[]) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const minor = results.violations.filter((v) => !serious.includes(v));
  log.push(
    `${where}: ${serious.length} serious/critical, ${minor.length} minor/moderate${minor.length ? ` (${minor.map((v) => v.id).join(", ")})` : ""}`,
  );
  expect(
    serious.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join("; ")}`,
    ),
    `axe on ${where}`,
  ).toEqual([]);
}

/** Presses Tab until `target` has focus (fails after `max` presses): proves it is reachable by keyboard. */
async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`could not reach ${target.toString()} with Tab`);
}

/** Label font sizes (CSS px) of an SVG item image as displayed by `img`. */
async function labelSizes(img: Locator): Promise<{ displayedPx: number; minFontPx: number; maxFontPx: number }> {
  return img.evaluate(async (el) => {
    const image = el as HTMLImageElement;
    const svg = await (await fetch(image.src)).text();
    const width = Number(
      /viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/.exec(svg)?.[1] ?? /width="([\d.]+)"/.exec(svg)?.[1] ?? image.naturalWidth,
    );
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    const displayed = image.getBoundingClientRect().width;
    const scale = displayed / width;
    return {
      displayedPx: Math.round(displayed),
      minFontPx: Math.min(...sizes) * scale,
      maxFontPx: Math.max(...sizes) * scale,
    };
  });
}

const shotName = (label: string) => label.replace(/\W+/g, "_").replace(/^_|_$/g, "");

async function runSession(page: Page, condition: "static" | "interactive", keyboardOnly: boolean) {
  // The interactive study also shows the H-bond primer (before the first H-bond task).
  const { slug } = await createStudyFromDemoPool(condition, { hbondPrimer: condition === "interactive" });
  const log: string[] = [];
  const labels: Record<string, unknown> = {};
  const pid = `ux-${condition}`;
  await page.setViewportSize(VIEWPORT);
  await page.goto(`/s/${slug}?PROLIFIC_PID=${pid}&STUDY_ID=ux&SESSION_ID=1`);
  // Consent: the duration comes from the study's length (10 questions), not a fixed "30–45 minutes".
  await expect(page.getByRole("heading", { name: "Consent" })).toBeVisible();
  await expect(page.getByText(/It takes about \d+–\d+ minutes\./)).toBeVisible();
  await expectNoSeriousViolations(page, `${condition}: consent`, log);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-consent.png` });
  const agree = page.getByRole("button", { name: /I agree/ });
  if (keyboardOnly) {
    await tabTo(page, agree);
    await page.keyboard.press("Enter");
  } else await agree.click();

  const seen = new Set<string>();
  let sawFeedback = false;
  let sawInstructions = false;
  let with3d = 0;
  let sawPrimer = 0;
  for (let step = 0; step < 40; step++) {
    const done = page.getByRole("heading", { name: /finished the study/ });
    const start = page.getByRole("button", { name: /^Start/ });
    const next = page.getByRole("button", { name: "Continue", exact: true });
    const primer = page.getByRole("button", { name: "Continue to the instructions" });
    const title = page.locator("#q-title");
    await expect(done.or(start).or(next).or(primer).or(title).first()).toBeVisible();
    if (await done.isVisible()) break;
    if (await primer.isVisible()) {
      expect(condition).toBe("interactive");
      await expectNoSeriousViolations(page, `${condition}: H-bond primer`, log);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-hbond-primer.png`, fullPage: true });
      sawPrimer += 1;
      await primer.click();
      continue;
    }
    if (await start.isVisible()) {
      if (!sawInstructions) {
        await expectNoSeriousViolations(page, `${condition}: instructions`, log);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-instructions.png` });
        sawInstructions = true;
      }
      // The Start button has focus when the instructions appear: Enter starts.
      if (keyboardOnly) {
        await expect(start).toBeFocused();
        await page.keyboard.press("Enter");
      } else await start.click();
      continue;
    }
    if (await next.isVisible()) {
      // Practice feedback: the images again, the correct answer and how to see it.
      await expect(page.getByTestId("correct-answer")).not.toBeEmpty();
      await expect(page.getByTestId("how-to-see")).toBeVisible();
      await expect(page.getByRole("list", { name: "Images" }).getByRole("listitem")).toHaveCount(4);
      if (!sawFeedback) await expectNoSeriousViolations(page, `${condition}: practice feedback`, log);
      if (SHOTS && !sawFeedback) await page.screenshot({ path: `${SHOTS}/${condition}-practice-feedback.png` });
      sawFeedback = true;
      if (keyboardOnly) {
        await expect(next).toBeFocused();
        await page.keyboard.press("Enter");
      } else await next.click();
      continue;
    }
    const label = ((await title.textContent()) ?? "").replace("Practice", "").trim();
    const images = page.getByRole("list", { name: "Images" }).getByRole("listitem");
    // The question appears with its images: all loaded when the title is there (prefetched while the previous
    // question was answered; the next question is shown once its images are in).
    await expect
      .poll(() =>
        images
          .locator("img")
          .evaluateAll(
            (imgs) =>
              imgs.length > 0 &&
              imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
          ),
      )
      .toBe(true);
    if (condition === "interactive") {
      await expect(page.getByText("Loading the 3D view…")).toHaveCount(0);
      if ((await page.getByTestId("molecule-viewer").count()) > 0) with3d += 1;
    }
    if (!seen.has(label)) {
      await expectNoSeriousViolations(page, `${condition}: ${label}`, log);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-${shotName(label)}.png` });
      // The image viewer: put the last image (an option image in MC tasks) on the stage, enlarge it, keys ← → and Esc.
      const count = await images.count();
      const lastThumb = images.nth(count - 1).getByRole("button");
      const enlarge = page.getByRole("button", { name: "Enlarge" });
      if (keyboardOnly) {
        await tabTo(page, lastThumb);
        await page.keyboard.press("Enter");
        await expect(lastThumb).toHaveAttribute("aria-pressed", "true");
        await tabTo(page, enlarge);
        await page.keyboard.press("Enter");
      } else {
        await lastThumb.click();
        await enlarge.click();
      }
      const viewer = page.getByRole("dialog", { name: "Image viewer" });
      await expect(viewer).toBeVisible();
      const caption = viewer.getByTestId("viewer-caption").last();
      await expect(caption).toContainText(`(${count} of ${count})`);
      const viewerImgs = viewer.getByTestId("viewer-image");
      await expect
        .poll(() =>
          viewerImgs.evaluateAll(
            (imgs) =>
              imgs.length > 0 &&
              imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
          ),
        )
        .toBe(true);
      // Laid out at its full size (not a pre-layout placeholder) before anything is measured.
      await expect.poll(() => viewerImgs.last().evaluate((i) => i.getBoundingClientRect().width)).toBeGreaterThan(300);
      // An MC option image opens beside the reference image; S switches to the single, larger view.
      const optionImage = /option [A-D]/.test((await caption.textContent()) ?? "");
      await expect(viewerImgs).toHaveCount(optionImage ? 2 : 1);
      if (optionImage) {
        labels[`${condition}: ${label} (side by side)`] = await labelSizes(viewerImgs.last());
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-${shotName(label)}-compare.png` });
        await page.keyboard.press("s");
        await expect(viewerImgs).toHaveCount(1);
      }
      // After S the single view is laid out on the next frames: poll until the size settles (it fails if it never
      // reaches the minimum).
      await expect
        .poll(async () => (await labelSizes(viewerImgs.last())).minFontPx, {
          message: `label size in the viewer for ${label}`,
        })
        .toBeGreaterThanOrEqual(MIN_VIEWER_LABEL_PX);
      const sizes = await labelSizes(viewerImgs.last());
      labels[`${condition}: ${label}`] = sizes;
      if (!seen.size) await expectNoSeriousViolations(page, `${condition}: image viewer`, log);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-${shotName(label)}-viewer.png` });
      await page.keyboard.press("ArrowRight");
      await expect(caption).toContainText(`(1 of ${count})`);
      await page.keyboard.press("ArrowLeft");
      await expect(caption).toContainText(`(${count} of ${count})`);
      await page.keyboard.press("Escape");
      await expect(viewer).toBeHidden();
      seen.add(label);
    }
    const answer = answerFor(label);
    const field = page.getByLabel(/Your answer/);
    if (keyboardOnly) {
      await tabTo(page, field);
      await page.keyboard.type(answer);
      await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
      // Enter in the answer field submits the form.
      await page.keyboard.press("Enter");
    } else {
      await field.fill(answer);
      await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
      await page.getByRole("button", { name: "Submit answer" }).click();
    }
    await expect(title.filter({ hasText: label }))
      .toHaveCount(0, { timeout: 15_000 })
      .catch(() => {});
  }
  await expect(page.getByTestId("completion-code")).toHaveText("UX-DONE");
  await expectNoSeriousViolations(page, `${condition}: completion`, log);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${condition}-completion.png` });
  expect(sawFeedback).toBe(true);
  if (condition === "interactive") {
    expect(with3d).toBeGreaterThan(0);
    expect(sawPrimer).toBe(1);
  }
  expect(seen.size).toBe(9);
  expect(await countResponses(slug, pid)).toBe(10);
  console.log(log.join("\n"));
  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    fs.writeFileSync(path.join(SHOTS, `${condition}-labels.json`), JSON.stringify(labels, null, 2));
    fs.writeFileSync(path.join(SHOTS, `${condition}-axe.txt`), log.join("\n") + "\n");
  }
}

test("static condition, keyboard only: every screen passes axe, the viewer works with ← → Esc, labels are readable", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await runSession(page, "static", true);
});

test("interactive condition: every screen passes axe with the 3D view beside the images", async ({ page }) => {
  test.setTimeout(300_000);
  await runSession(page, "interactive", false);
});
