import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { answerFor } from "../helpers/demo-walk";
import { createStudyFromDemoPool, e2eDatabaseUrl } from "./helpers/participant-fixtures";

// The question page at the two desktop sizes the label contract names (1366×768, 1280×800) and on a 390×844 phone, for
// every task of the demo study in both conditions, without opening anything: Submit lies fully inside the viewport on
// desktop, and so does every other participant control (the 3D view with its hint line and Labels/Centre/Reset row,
// the answer inputs), the main image is at least MIN_MAIN_IMAGE_PX wide, and on the phone the question text comes before
// the images and the answer after them, with no control cut at the sides. The measured label text height (the item's render settings × displayed width /
// image width) is logged per task; LAYOUT_REPORT_DIR=<dir> also saves the measurements and a screenshot per task.

const REPORT = process.env.LAYOUT_REPORT_DIR;
/** At this displayed width a label rendered at 21 px in a 1024-px image is ≥ 12 CSS px (the label contract). */
const MIN_MAIN_IMAGE_PX = 600;

const SIZES = {
  "1366x768": { width: 1366, height: 768 },
  "1280x800": { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type SizeName = keyof typeof SIZES;

interface Measurement {
  task: string;
  /** Controls not fully inside the window (controlsOutside), with the 3D view on the stage and then the first image. */
  outside: string[];
  /** The 3D view as first shown (interactive condition): its width, what its controls take below the canvas, its bottom. */
  view3d: string | null;
  submitTop: number;
  submitBottom: number;
  submitRight: number;
  mainImagePx: number;
  mainImageNaturalPx: number;
  canvasPx: number | null;
  questionTop: number;
  firstImageTop: number;
  answerTop: number;
  atomLabelCssPx: number | null;
  residueLabelCssPx: number | null;
}

async function renderSettingsOf(itemId: string): Promise<Record<string, unknown> | null> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const r = await client.query(`SELECT "renderSettings" AS s FROM "Item" WHERE id = $1`, [itemId]);
    return (r.rows[0]?.s as Record<string, unknown> | null) ?? null;
  } finally {
    await client.end();
  }
}

/** Positions on the page as first shown (no scrolling, nothing opened). */
async function measure(page: Page, task: string, outside: string[], view3d: string | null): Promise<Measurement> {
  const m = await page.evaluate(() => {
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && !el.closest("dialog");
    };
    const submit = [...document.querySelectorAll("button")]
      .find((b) => b.textContent?.trim() === "Submit answer")!
      .getBoundingClientRect();
    const imgs = [...document.querySelectorAll<HTMLImageElement>('img[src*="/api/images/"]')].filter(shown);
    // The main image where the layout marks one, else the largest image on the page.
    const main =
      document.querySelector<HTMLImageElement>('[data-testid="main-image"]') ??
      imgs.sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width)[0]!;
    const canvas = document.querySelector("[data-testid=molecule-viewer] canvas");
    const question = document.querySelector('[data-testid="question-text"]')!.getBoundingClientRect();
    const answer = document.querySelector("#answer-text")!.getBoundingClientRect();
    const firstVisual = Math.min(
      ...imgs.map((i) => i.getBoundingClientRect().top),
      ...(canvas && shown(canvas) ? [canvas.getBoundingClientRect().top] : []),
    );
    return {
      submitTop: submit.top,
      submitBottom: submit.bottom,
      submitRight: submit.right,
      mainImagePx: main.getBoundingClientRect().width,
      mainImageNaturalPx: main.naturalWidth,
      canvasPx: canvas && shown(canvas) ? canvas.getBoundingClientRect().width : null,
      questionTop: question.top,
      firstImageTop: firstVisual,
      answerTop: answer.top,
    };
  });
  const session = (await page.evaluate(() =>
    fetch("/api/participant/session", { cache: "no-store" }).then((r) => r.json()),
  )) as { current: { item: { id: string } } };
  const settings = await renderSettingsOf(session.current.item.id);
  let atom: number | null = null;
  let residue: number | null = null;
  if (settings && typeof settings.widthPx === "number") {
    const w = settings.widthPx;
    const h = typeof settings.heightPx === "number" ? settings.heightPx : w;
    // Label sizes are given at a 1024-px image and scale with the smaller side (lib/render/settings.ts).
    const toCss = (fontPx: unknown) =>
      typeof fontPx === "number" ? (fontPx * (Math.min(w, h) / 1024) * m.mainImagePx) / w : null;
    atom = toCss(settings.labelFontSizePx ?? 17);
    residue = toCss(settings.residueLabelFontSizePx ?? 20);
  }
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    task,
    outside,
    view3d,
    ...m,
    atomLabelCssPx: atom === null ? null : round(atom),
    residueLabelCssPx: residue === null ? null : round(residue),
  };
}

/**
 * The participant's controls not fully inside the window as first shown (nothing scrolled): the 3D view whole (canvas,
 * hint line, Labels/Centre/Reset row) and each of its controls, the answer form's scroll area, the answer text field,
 * Submit, and every answer-widget control the form's own scroll area shows (a control it clips is reached by scrolling
 * that area, which lies inside the window). On the phone, where the page itself scrolls, only the sides count: no
 * control is cut at the left or right edge. Each entry names the control and how far it is out.
 */
async function controlsOutside(page: Page, phone: boolean): Promise<string[]> {
  return page.evaluate((phone) => {
    const W = window.innerWidth;
    const H = window.innerHeight;
    const out: string[] = [];
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && !el.closest("dialog") && !el.closest(".hidden");
    };
    const check = (name: string, el: Element | null) => {
      if (!el || !shown(el)) return;
      const r = el.getBoundingClientRect();
      const over = phone ? [-r.left, r.right - W] : [-r.left, -r.top, r.right - W, r.bottom - H];
      const worst = Math.max(...over);
      if (worst > 0.5)
        out.push(
          `${name} out by ${Math.round(worst)} px (x ${Math.round(r.left)}–${Math.round(r.right)}, y ${Math.round(r.top)}–${Math.round(r.bottom)})`,
        );
    };
    const viewer = document.querySelector('[data-testid="molecule-viewer"]');
    check("3D view", viewer);
    viewer
      ?.querySelectorAll("button, input")
      .forEach((el) =>
        check(
          `3D view: ${(el as HTMLElement).innerText || (el.closest("label") as HTMLElement | null)?.innerText || el.tagName}`,
          el,
        ),
      );
    const form = document.querySelector("#answer-text")?.closest("form") ?? null;
    check("answer form", form);
    check("answer text field", document.querySelector("#answer-text"));
    check(
      "Submit",
      [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Submit answer") ?? null,
    );
    const area = form?.firstElementChild?.getBoundingClientRect();
    form?.querySelectorAll("button, input:not(.sr-only), select, textarea").forEach((el) => {
      const r = el.getBoundingClientRect();
      // Clipped by the form's own scroll area: reached by scrolling it.
      if (!phone && area && (r.bottom > area.bottom + 0.5 || r.top < area.top - 0.5)) return;
      check(`answer control ${el.getAttribute("aria-label") ?? el.tagName.toLowerCase()}`, el);
    });
    return out;
  }, phone);
}

/** In the interactive condition the 3D view is the first thing on the stage: show the first image instead. */
async function showFirstImage(page: Page) {
  const thumbs = page.getByRole("list", { name: "Images" }).getByRole("button");
  const mainImage = page.getByTestId("main-image");
  if (
    (await mainImage.count()) === 0 &&
    (await page.getByTestId("molecule-viewer").count()) > 0 &&
    (await page.getByTestId("stage").count()) > 0
  ) {
    await thumbs.first().click();
    await expect(mainImage).toBeVisible();
  }
}

async function walk(browser: Browser, condition: "static" | "interactive", size: SizeName): Promise<Measurement[]> {
  const { slug } = await createStudyFromDemoPool(condition, { deviceRule: "any" });
  const phone = size === "phone";
  const context = await browser.newContext({
    viewport: SIZES[size],
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const out: Measurement[] = [];
  try {
    await page.goto(`/s/${slug}?PROLIFIC_PID=layout-${condition}-${size}&STUDY_ID=layout&SESSION_ID=1`);
    await page.getByRole("button", { name: /I agree/ }).click();
    const seen = new Set<string>();
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
      if (condition === "interactive") await expect(page.getByText("Loading the 3D view…")).toHaveCount(0);
      if (!seen.has(label)) {
        seen.add(label);
        if (REPORT)
          await page.screenshot({
            path: path.join(REPORT, `${condition}-${size}-${label.replace(/\W+/g, "_")}.png`),
            fullPage: phone,
          });
        // The controls as the participant meets them (in the interactive condition with the 3D view on the stage).
        const outside = (await controlsOutside(page, phone)).map((o) =>
          condition === "interactive" ? `with the 3D view: ${o}` : o,
        );
        const viewer = page.getByTestId("molecule-viewer");
        const view3d =
          (await viewer.count()) > 0
            ? await viewer.evaluate((v) => {
                const r = v.getBoundingClientRect();
                return `${Math.round(r.width)} px wide + ${Math.round(r.height - r.width)} px of controls, bottom ${Math.round(r.bottom)}`;
              })
            : null;
        if (condition === "interactive" && !phone) {
          // The 3D view first, as the participant meets it; then the first image on the stage for the image measurement.
          if (REPORT)
            await page.screenshot({
              path: path.join(REPORT, `${condition}-${size}-${label.replace(/\W+/g, "_")}-3d.png`),
            });
          await showFirstImage(page);
          outside.push(...(await controlsOutside(page, phone)).map((o) => `with the first image: ${o}`));
        }
        out.push(await measure(page, label, outside, view3d));
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
  expect(out.map((m) => m.task)).toHaveLength(9);
  return out;
}

function report(name: string, rows: Measurement[]) {
  console.log(`\n${name}`);
  for (const r of rows) {
    console.log(
      `  ${r.task.padEnd(32)} submit y ${Math.round(r.submitTop)}–${Math.round(r.submitBottom)}  main image ${Math.round(r.mainImagePx)} px${r.canvasPx ? `  3D ${Math.round(r.canvasPx)} px` : ""}  labels atom ${r.atomLabelCssPx ?? "-"} / residue ${r.residueLabelCssPx ?? "-"} CSS px  question ${Math.round(r.questionTop)} images ${Math.round(r.firstImageTop)} answer ${Math.round(r.answerTop)}`,
    );
    if (r.view3d) console.log(`    3D view: ${r.view3d}`);
    for (const o of r.outside) console.log(`    outside the window: ${o}`);
  }
  if (REPORT) fs.writeFileSync(path.join(REPORT, `${name}.json`), JSON.stringify(rows, null, 2));
}

for (const condition of ["static", "interactive"] as const) {
  for (const size of ["1366x768", "1280x800"] as const) {
    test(`${condition} at ${size}: Submit fully on screen and the main image at least ${MIN_MAIN_IMAGE_PX} px wide for every task`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      if (REPORT) fs.mkdirSync(REPORT, { recursive: true });
      const rows = await walk(browser, condition, size);
      report(`${condition}-${size}`, rows);
      const { width, height } = SIZES[size];
      for (const r of rows) {
        expect.soft(r.submitTop, `${r.task}: Submit top`).toBeGreaterThanOrEqual(0);
        expect.soft(r.submitBottom, `${r.task}: Submit bottom`).toBeLessThanOrEqual(height);
        expect.soft(r.submitRight, `${r.task}: Submit right edge`).toBeLessThanOrEqual(width);
        expect.soft(r.mainImagePx, `${r.task}: main image width`).toBeGreaterThanOrEqual(MIN_MAIN_IMAGE_PX);
        expect
          .soft(
            r.outside,
            `${r.task}: every control (3D view and its controls, answer inputs, Submit) inside the window`,
          )
          .toEqual([]);
      }
    });
  }
  test(`${condition} on a 390×844 phone: the question text first, then the images, then the answer`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    if (REPORT) fs.mkdirSync(REPORT, { recursive: true });
    const rows = await walk(browser, condition, "phone");
    report(`${condition}-phone`, rows);
    for (const r of rows) {
      expect.soft(r.questionTop, `${r.task}: question text above the images`).toBeLessThan(r.firstImageTop);
      expect.soft(r.firstImageTop, `${r.task}: images above the answer`).toBeLessThan(r.answerTop);
      expect
        .soft(r.outside, `${r.task}: no control (3D view and its controls, answer inputs, Submit) cut at the sides`)
        .toEqual([]);
    }
  });
}

test("the filmstrip: ← → keys, a swipe and side by side move between and compare the images of a T5 item", async ({
  browser,
}) => {
  const { slug } = await createStudyFromDemoPool("static", {
    deviceRule: "any",
    tasks: ["translation_rotation"],
    practiceItemIds: [],
  });
  for (const phone of [false, true]) {
    const context = await browser.newContext({
      viewport: phone ? SIZES.phone : SIZES["1366x768"],
      ...(phone ? { isMobile: true, hasTouch: true } : {}),
    });
    const page = await context.newPage();
    await page.goto(`/s/${slug}?PROLIFIC_PID=film-${phone ? "phone" : "desk"}`);
    await page.getByRole("button", { name: /I agree/ }).click();
    await page.getByRole("button", { name: /^Start/ }).click();
    const thumbs = page.getByRole("list", { name: "Images" }).getByRole("button");
    const count = await thumbs.count();
    expect(count).toBe(11);
    const caption = page.getByTestId("stage-caption");
    const main = page.getByTestId("main-image");
    await expect(caption).toContainText(`(1 of ${count})`);
    if (!phone) {
      // Keys: from a focused thumbnail ← → move the stage (and the focus) along the filmstrip, wrapping around.
      await thumbs.first().focus();
      await page.keyboard.press("ArrowRight");
      await expect(caption).toContainText(`(2 of ${count})`);
      await expect(thumbs.nth(1)).toBeFocused();
      await expect(thumbs.nth(1)).toHaveAttribute("aria-pressed", "true");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await expect(caption).toContainText(`(${count} of ${count})`);
      await page.keyboard.press("ArrowRight");
      await expect(caption).toContainText(`(1 of ${count})`);
    }
    // A horizontal swipe (finger on the phone, mouse drag on the desktop) to the left shows the next image.
    const box = (await main.boundingBox())!;
    const y = box.y + box.height / 2;
    if (phone) {
      const at = (x: number) => ({
        pointerType: "touch",
        isPrimary: true,
        button: 0,
        clientX: x,
        clientY: y,
        pointerId: 7,
      });
      await main.dispatchEvent("pointerdown", at(box.x + box.width * 0.8));
      await main.dispatchEvent("pointerup", at(box.x + box.width * 0.2));
    } else {
      await page.mouse.move(box.x + box.width * 0.8, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, y, { steps: 4 });
      await page.mouse.move(box.x + box.width * 0.2, y, { steps: 4 });
      await page.mouse.up();
    }
    await expect(caption).toContainText(`(2 of ${count})`);
    // Side by side: an option image beside the image the task compares it with, both on screen.
    await thumbs.nth(count - 1).click();
    await page.getByRole("button", { name: "Side by side" }).click();
    const compared = page.getByTestId("compared-image");
    await expect(compared).toBeVisible();
    const a = (await main.boundingBox())!;
    const b = (await compared.boundingBox())!;
    if (phone) {
      // One above the other, each the full width (not two 190-px panes).
      expect(b.y).toBeGreaterThan(a.y + a.height - 1);
      expect(a.width).toBeGreaterThan(340);
      expect(b.width).toBeGreaterThan(340);
    } else {
      expect(Math.abs(a.y - b.y)).toBeLessThan(2);
      expect(a.width).toBeGreaterThan(300);
      expect(b.width).toBeCloseTo(a.width, 0);
      expect(b.x + b.width).toBeLessThanOrEqual(SIZES["1366x768"].width);
    }
    await context.close();
  }
});
