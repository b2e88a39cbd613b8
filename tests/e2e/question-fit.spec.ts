import { expect, test, type Page } from "@playwright/test";
import { answerFor } from "../helpers/demo-walk";
import { createStudyFromDemoPool, interactionLogs } from "./helpers/participant-fixtures";

// Issue 34 "Done when": every task of the demo study in both conditions at 1366×768 and 1280×800, as first shown
// (nothing scrolled, nothing opened). No question text overflows its box unseen: a box whose content is taller than
// what it shows (scrollHeight > clientHeight) must show a visible "more below" cue, and the box itself must lie inside
// the window. Every answer control (and every control of the 3D view) lies inside the window and inside the visible
// area of every scroll container around it: a control that needs scrolling to be seen counts as hidden. In the
// interactive condition the keyboard alone reaches the 3D view (Tab), shows focus on it, rotates it (arrow keys) and
// zooms it (+/−), and the stored camera path of every answer records those moves.

const SIZES = {
  "1366x768": { width: 1366, height: 768 },
  "1280x800": { width: 1280, height: 800 },
} as const;

/** What the page hides at first sight: question text overflowing unseen, and controls outside the window or a scroll area's view. */
async function hiddenAtFirstSight(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const W = window.innerWidth;
    const H = window.innerHeight;
    const out: string[] = [];
    const px = (v: number) => Math.round(v);
    const scrolls = (el: Element) => {
      const s = getComputedStyle(el);
      return /(auto|scroll|hidden|clip)/.test(s.overflowY) || /(auto|scroll|hidden|clip)/.test(s.overflowX);
    };
    const visibleCue = (box: Element) => {
      // A cue counts when it is rendered inside the window and says there is more (the box, or its parent, holds it).
      const scope = box.parentElement ?? box;
      return [...scope.querySelectorAll("[data-scroll-cue]")].some((c) => {
        const r = c.getBoundingClientRect();
        return (
          r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= H && /more below/i.test((c as HTMLElement).innerText)
        );
      });
    };

    const text = document.querySelector('[data-testid="question-text"]');
    if (!text) return ["no question text"];
    for (let el: Element | null = text; el && el !== document.body; el = el.parentElement) {
      const r = el.getBoundingClientRect();
      if (el.scrollHeight > el.clientHeight + 1 && scrolls(el) && !visibleCue(el)) {
        out.push(
          `question text: ${el === text ? "the text" : `its box <${el.tagName.toLowerCase()}${el.getAttribute("aria-label") ? ` ${el.getAttribute("aria-label")}` : ""}>`} shows ${el.clientHeight} of ${el.scrollHeight} px with no "more below" cue`,
        );
      }
      if (el === text && (r.top < -0.5 || r.bottom > H + 0.5) && !visibleCue(el))
        out.push(`question text: y ${px(r.top)}–${px(r.bottom)} outside the window`);
    }

    // Controls: the answer form's and the 3D view's. A visually hidden radio is shown by its label.
    const form = document.querySelector("#answer-text")?.closest("form");
    const viewer = document.querySelector('[data-testid="molecule-viewer"]');
    const controls = [
      ...(form?.querySelectorAll("button, input, select, textarea") ?? []),
      ...(viewer?.querySelectorAll("button, input") ?? []),
    ];
    for (const control of controls) {
      const shownAs = control.classList.contains("sr-only") ? (control.closest("label") ?? control) : control;
      if (control.closest(".hidden") || control.closest("dialog")) continue;
      const r = shownAs.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const name =
        control.getAttribute("aria-label") ??
        ((shownAs as HTMLElement).innerText.trim() ||
          control.closest("label")?.innerText.trim() ||
          control.tagName.toLowerCase());
      const where = `(x ${px(r.left)}–${px(r.right)}, y ${px(r.top)}–${px(r.bottom)})`;
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        out.push(`control "${name}" outside the window ${where}`);
        continue;
      }
      for (let el = shownAs.parentElement; el && el !== document.body; el = el.parentElement) {
        if (!scrolls(el)) continue;
        const a = el.getBoundingClientRect();
        if (r.top < a.top - 0.5 || r.bottom > a.bottom + 0.5 || r.left < a.left - 0.5 || r.right > a.right + 0.5) {
          out.push(
            `control "${name}" ${where} outside the visible area of its scroll container (y ${px(a.top)}–${px(a.bottom)})`,
          );
          break;
        }
      }
    }
    return out;
  });
}

/** Tab from the question title to the 3D view; true when it got there. */
async function tabToViewer(page: Page): Promise<boolean> {
  await page.locator("#q-title").focus();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.getAttribute("data-testid") === "view-3d-keys")) return true;
  }
  return false;
}

for (const condition of ["static", "interactive"] as const) {
  for (const size of ["1366x768", "1280x800"] as const) {
    test(`${condition} at ${size}: every question fully readable, every control in view${condition === "interactive" ? ", the 3D view by keyboard" : ""}`, async ({
      browser,
    }) => {
      test.setTimeout(300_000);
      const { slug } = await createStudyFromDemoPool(condition, { deviceRule: "any" });
      const externalId = `fit-${condition}-${size}`;
      const context = await browser.newContext({ viewport: SIZES[size] });
      const page = await context.newPage();
      const problems: string[] = [];
      const keyboard: string[] = [];
      const tasks: string[] = [];
      const with3d: boolean[] = [];
      try {
        await page.goto(`/s/${slug}?PROLIFIC_PID=${externalId}&STUDY_ID=fit&SESSION_ID=1`);
        await page.getByRole("button", { name: /I agree/ }).click();
        for (let step = 0; step < 40; step++) {
          const done = page.getByRole("heading", { name: /finished the study/ });
          const start = page.getByRole("button", { name: /^Start/ });
          const next = page.getByRole("button", { name: "Continue", exact: true });
          const title = page.locator("#q-title");
          await expect(done.or(start).or(next).or(title).first()).toBeVisible();
          if (await done.isVisible()) break;
          if (await start.isVisible()) {
            await start.click();
            continue;
          }
          if (await next.isVisible()) {
            await next.click();
            continue;
          }
          const label = ((await title.textContent()) ?? "").replace("Practice", "").trim();
          tasks.push(label);
          const images = page.locator('img[src*="/api/images/"]');
          await expect
            .poll(() =>
              images.evaluateAll(
                (imgs) =>
                  imgs.length > 0 &&
                  imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
              ),
            )
            .toBe(true);
          // Not every task has a 3D view (T6 compares two complexes).
          if (condition === "interactive") await expect(page.getByText("Loading the 3D view…")).toHaveCount(0);
          const has3d = (await page.getByTestId("molecule-viewer").count()) > 0;
          with3d.push(has3d);
          if (has3d) {
            await expect(page.getByTestId("molecule-viewer")).toHaveAttribute("data-ready", "true");
            // Layouts settle after the view measured its controls.
            await expect
              .poll(() =>
                page.evaluate(
                  () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))),
                ),
              )
              .toBe(true);
          }
          problems.push(...(await hiddenAtFirstSight(page)).map((p) => `${label}: ${p}`));

          if (has3d) {
            if (!(await tabToViewer(page))) keyboard.push(`${label}: Tab never reaches the 3D view`);
            else {
              const focusShown = await page.evaluate(() => {
                const s = getComputedStyle(document.activeElement!);
                return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
              });
              if (!focusShown) keyboard.push(`${label}: the focused 3D view shows no focus`);
              const pose = () =>
                page.evaluate(() => {
                  const cam = (
                    window as unknown as {
                      __misiViewer?: {
                        camera: {
                          quaternion: { x: number; y: number; z: number; w: number };
                          position: { length(): number };
                        };
                      };
                    }
                  ).__misiViewer!.camera;
                  return {
                    q: [cam.quaternion.x, cam.quaternion.y, cam.quaternion.z, cam.quaternion.w],
                    d: cam.position.length(),
                  };
                });
              const before = await pose();
              for (const key of ["ArrowRight", "ArrowRight", "ArrowUp"]) await page.keyboard.press(key);
              const turned = await pose();
              if (turned.q.every((v, i) => Math.abs(v - before.q[i]!) < 1e-4))
                keyboard.push(`${label}: arrow keys do not rotate the 3D view`);
              for (const key of ["+", "+", "-"]) await page.keyboard.press(key);
              const zoomed = await pose();
              if (Math.abs(zoomed.d - turned.d) < 1e-3) keyboard.push(`${label}: + and − do not zoom the 3D view`);
            }
          }

          await page.getByLabel(/Your answer/).fill(answerFor(label));
          await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
          await page.getByRole("button", { name: "Submit answer" }).click();
          await expect(title.filter({ hasText: label }))
            .toHaveCount(0, { timeout: 15_000 })
            .catch(() => {});
        }
        await expect(page.getByTestId("completion-code")).toHaveText("UX-DONE");
      } finally {
        await context.close();
      }
      expect(new Set(tasks).size, `tasks walked: ${[...new Set(tasks)].join(", ")}`).toBe(9);
      expect.soft(problems, "hidden at first sight").toEqual([]);
      if (condition === "interactive") {
        expect.soft(keyboard, "the 3D view by keyboard").toEqual([]);
        // The stored camera path of each answer records the keyboard's rotation and zoom.
        const logs = (await interactionLogs(slug, externalId)) as Array<{ camera?: Array<{ q: number[]; d: number }> }>;
        expect(logs).toHaveLength(tasks.length);
        expect(with3d.filter(Boolean).length, "answers with a 3D view").toBeGreaterThan(5);
        logs.forEach((log, i) => {
          if (!with3d[i]) return;
          const camera = log.camera ?? [];
          expect
            .soft(new Set(camera.map((s) => s.q.join(","))).size, `${tasks[i]}: orientations in the camera path`)
            .toBeGreaterThan(1);
          expect
            .soft(new Set(camera.map((s) => s.d)).size, `${tasks[i]}: distances in the camera path`)
            .toBeGreaterThan(1);
        });
      }
    });
  }
}

test("a typed answer survives a reload; the counter leaves out the practice question", async ({ page }) => {
  const { slug } = await createStudyFromDemoPool("static", { deviceRule: "any" });
  await page.setViewportSize(SIZES["1366x768"]);
  await page.goto(`/s/${slug}?PROLIFIC_PID=draft-1&STUDY_ID=fit&SESSION_ID=1`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: /^Start/ }).click();
  await expect(page.getByText("Practice 1 of 1", { exact: true })).toBeVisible();
  const answer = page.getByLabel(/Your answer/);
  await answer.fill("half typed");
  await page.reload();
  await expect(answer).toHaveValue("half typed");
  // The draft holds what was typed and which question it belongs to, nothing else.
  const kept = await page.evaluate(
    () => JSON.parse(sessionStorage.getItem("misi.answerDraft") ?? "null") as Record<string, unknown> | null,
  );
  expect(Object.keys(kept ?? {}).sort()).toEqual(["assignmentId", "text"]);
  const label = ((await page.locator("#q-title").textContent()) ?? "").replace("Practice", "").trim();
  await answer.fill(answerFor(label));
  await page.getByRole("button", { name: "Submit answer" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const start = page.getByRole("button", { name: /^Start/ });
  if (await start.isVisible()) await start.click();
  await expect(page.getByText("1 of 9", { exact: true })).toBeVisible();
  // Answered questions leave no draft behind.
  expect(await page.evaluate(() => sessionStorage.getItem("misi.answerDraft"))).toBeNull();
});
