import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { answerFor } from "../helpers/demo-walk";
import { createStudyFromDemoPool } from "./helpers/participant-fixtures";

// What a participant can read without opening anything, at 1280×800 and 1366×768: label sizes of the item images as
// displayed (CSS px) in both conditions, and in the interactive condition the 3D view's first frame: the atoms the
// question names are labelled and marked inside the canvas, hovering an atom names it (pocket and residue views), and
// "Centre on ligand" turns the view about the ligand. The 3D scene the browser receives carries only the fields the
// viewer draws (no key). SCREENSHOTS_DIR=<dir> saves screenshots and labels-3d.json with the measured sizes.

const SHOTS = process.env.SCREENSHOTS_DIR;
/** Fields of the 3D scene payload (lib/scene3d.ts); anything else reaching the browser fails the test. */
const SCENE_FIELDS = new Set([
  "elements",
  "positions",
  "roles",
  "residueIndex",
  "bonds",
  "camera",
  "labels",
  "atomNames",
  "residueNames",
  "named",
]);
/** Smallest label font (CSS px) accepted in the main image on the stage, without opening anything. */
const MIN_MAIN_LABEL_PX = 12;
/** Smallest 3D label font (CSS px) accepted. */
const MIN_3D_LABEL_PX = 12;

/** Label font sizes (CSS px) of an SVG item image as displayed by `img`. */
async function labelSizes(
  img: Locator,
): Promise<{ displayedPx: number; minFontPx: number; maxFontPx: number; imagePx: number; fontsPx: number[] }> {
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
      imagePx: width,
      fontsPx: [...new Set(sizes)],
    };
  });
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** Whole-pixel rounding of the overlay's transforms may put a box up to 1.5 px over the edge. */
const EDGE_SLACK_PX = 1.5;
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - EDGE_SLACK_PX &&
  inner.y >= outer.y - EDGE_SLACK_PX &&
  inner.x + inner.width <= outer.x + outer.width + EDGE_SLACK_PX &&
  inner.y + inner.height <= outer.y + outer.height + EDGE_SLACK_PX;

/** Share of the pixels in `clip` that are the named-label yellow (#ffe14d): the label is really painted there. */
async function yellowShare(page: Page, clip: Box): Promise<number> {
  const png = await page.screenshot({ clip });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    let yellow = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i]! > 200 && px[i + 1]! > 180 && px[i + 2]! < 140) yellow++;
    return yellow / (px.length / 4);
  }, png.toString("base64"));
}

/** Moves the mouse over a grid on the canvas until the hover name appears; returns its text. */
async function hoverSomeAtom(page: Page, canvas: Locator): Promise<string> {
  const box = (await canvas.boundingBox())!;
  const hover = page.getByTestId("molecule-viewer").locator(".misi-3d-hover");
  for (let gy = 0.3; gy <= 0.7; gy += 0.05) {
    for (let gx = 0.3; gx <= 0.7; gx += 0.05) {
      await page.mouse.move(box.x + gx * box.width, box.y + gy * box.height);
      if (await hover.isVisible()) return (await hover.textContent()) ?? "";
    }
  }
  return "";
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
]) {
  for (const condition of ["static", "interactive"] as const) {
    test(`${condition} at ${viewport.width}×${viewport.height}: label sizes as displayed; the 3D view shows the question's atoms from its first frame`, async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const { slug } = await createStudyFromDemoPool(condition);
      const scenes: unknown[] = [];
      page.on("response", async (r) => {
        if (r.url().includes("/api/participant/scene/") && r.ok()) scenes.push(await r.json().catch(() => null));
      });
      await page.setViewportSize(viewport);
      await page.goto(`/s/${slug}?PROLIFIC_PID=labels-${condition}-${viewport.width}`);
      await page.getByRole("button", { name: /I agree/ }).click();
      const measured: Record<string, unknown> = {};
      const seen = new Set<string>();
      let namedChecked = 0;
      let hovered = 0;
      for (let step = 0; step < 40; step++) {
        const done = page.getByRole("heading", { name: /finished the study/ });
        const start = page.getByRole("button", { name: /^Start/ });
        const next = page.getByRole("button", { name: "Continue", exact: true });
        const primer = page.getByRole("button", { name: "Continue to the instructions" });
        const title = page.locator("#q-title");
        await expect(done.or(start).or(next).or(primer).or(title).first()).toBeVisible({ timeout: 60_000 });
        if (await done.isVisible()) break;
        if (await primer.isVisible()) {
          await primer.click();
          continue;
        }
        if (await start.isVisible()) {
          await start.click();
          continue;
        }
        if (await next.isVisible()) {
          await next.click();
          continue;
        }
        const label = ((await title.textContent()) ?? "").replace("Practice", "").trim();
        const images = page.getByRole("list", { name: "Images" }).getByRole("listitem").locator("img");
        await expect
          .poll(() =>
            images.evaluateAll(
              (imgs) =>
                imgs.length > 0 &&
                imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
            ),
          )
          .toBe(true);
        if (!seen.has(label)) {
          seen.add(label);
          // The first image on the stage (the main view, what a participant reads without opening anything).
          await page.getByRole("list", { name: "Images" }).getByRole("listitem").first().getByRole("button").click();
          const main = page.getByTestId("main-image");
          await expect
            .poll(() =>
              main.evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
            )
            .toBe(true);
          const first = await labelSizes(main);
          expect(first.minFontPx, `${label}: smallest label in the main image (CSS px)`).toBeGreaterThanOrEqual(
            MIN_MAIN_LABEL_PX,
          );
          const entry: Record<string, unknown> = { mainImage: first };
          // The enlarged viewer on the same image.
          await page.getByRole("button", { name: "Enlarge", exact: true }).click();
          const dialog = page.getByRole("dialog", { name: "Image viewer" });
          await expect(dialog).toBeVisible();
          const viewerImg = dialog.getByTestId("viewer-image").last();
          await expect
            .poll(() => viewerImg.evaluate((i) => (i as HTMLImageElement).complete && i.getBoundingClientRect().width))
            .toBeGreaterThan(300);
          entry.viewer = await labelSizes(viewerImg);
          if (SHOTS && !seen.has(`viewer:${label}`))
            await page.screenshot({
              path: `${SHOTS}/${condition}-${viewport.width}-${label.replace(/\W+/g, "_")}-viewer.png`,
            });
          await page.keyboard.press("Escape");
          await expect(dialog).toBeHidden();
          // Back to the 3D view on the stage (the interactive condition shows it first).
          const stage3d = page.locator('[data-slot="3d"]');
          if ((await stage3d.count()) > 0) await stage3d.click();
          const viewer = page.getByTestId("molecule-viewer");
          if (condition === "interactive" && (await viewer.count()) > 0) {
            await expect(viewer).toHaveAttribute("data-ready", "true");
            const canvas = viewer.locator("canvas");
            const canvasBox = (await canvas.boundingBox())!;
            const named = viewer.getByTestId("named-atom-label");
            // T8 names a protein atom and a ligand atom; no other task names atoms.
            const namedCount = /^Interaction location/.test(label) ? 2 : 0;
            await expect(named).toHaveCount(namedCount);
            if (namedCount > 0) {
              // First frame: no input yet. Every named atom's label and ring are on screen, inside the canvas, painted.
              const body = await page.locator("body").innerText();
              for (let k = 0; k < namedCount; k++) {
                const span = named.nth(k);
                await expect(span).toBeVisible();
                const text = (await span.textContent()) ?? "";
                // The question names the atom (and its residue): the label says nothing the question does not.
                const atomName = text.split(" ").at(-1)!;
                expect(body).toContain(atomName);
                const box = (await span.boundingBox())!;
                expect(inside(box, canvasBox), `${text} inside the canvas`).toBe(true);
                expect(await yellowShare(page, box), `${text} painted`).toBeGreaterThan(0.05);
                const font = await span.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
                expect(font).toBeGreaterThanOrEqual(MIN_3D_LABEL_PX);
                entry[`named:${text}`] = { fontPx: font, box };
              }
              const rings = viewer.locator(".misi-3d-marker");
              for (let k = 0; k < namedCount; k++)
                expect(inside((await rings.nth(k).boundingBox())!, canvasBox)).toBe(true);
              if (SHOTS)
                await page.screenshot({
                  path: `${SHOTS}/${condition}-${viewport.width}-${label.replace(/\W+/g, "_")}-3d-first-frame.png`,
                });
              namedChecked++;
            }
            // Hover names an atom (pocket views and the one-residue view alike).
            const name = await hoverSomeAtom(page, canvas);
            expect(name, `${label}: hover over the 3D view`).toMatch(
              /^(ligand \S+|[A-Z0-9]{1,3} -?\d+[A-Z]? [A-Za-z0-9] \S+)$/,
            );
            entry.hover = name;
            hovered++;
            const centre = viewer.getByRole("button", { name: "Centre on ligand" });
            if (await centre.isVisible()) {
              const before = await page.evaluate(() =>
                (
                  window as unknown as { __misiViewer: { camera: { position: { toArray(): number[] } } } }
                ).__misiViewer.camera.position.toArray(),
              );
              await centre.click();
              const after = await page.evaluate(() =>
                (
                  window as unknown as { __misiViewer: { camera: { position: { toArray(): number[] } } } }
                ).__misiViewer.camera.position.toArray(),
              );
              expect(after).not.toEqual(before);
              if (namedCount > 0) await expect(named.first()).toBeVisible();
            }
            const spans = viewer.locator(".misi-3d-label[data-kind=a], .misi-3d-label[data-kind=r]");
            if ((await spans.count()) > 0)
              entry.labels3dFontPx = await spans.first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
          }
          measured[label] = entry;
          if (SHOTS)
            await page.screenshot({
              path: `${SHOTS}/${condition}-${viewport.width}-${label.replace(/\W+/g, "_")}.png`,
            });
        }
        await page.getByLabel(/Your answer/).fill(answerFor(label));
        await expect(page.locator("#answer-feedback")).toContainText("Will be recorded as");
        await page.getByRole("button", { name: "Submit answer" }).click();
        await expect(title.filter({ hasText: label }))
          .toHaveCount(0, { timeout: 30_000 })
          .catch(() => {});
      }
      if (condition === "interactive") {
        expect(namedChecked, "the demo's T8 question names two atoms").toBeGreaterThanOrEqual(1);
        expect(hovered).toBeGreaterThanOrEqual(2);
        expect(scenes.length).toBeGreaterThan(0);
        for (const scene of scenes) {
          expect(Object.keys(scene as object).filter((k) => !SCENE_FIELDS.has(k))).toEqual([]);
          expect(JSON.stringify(scene)).not.toMatch(
            /"(gold|answerKey|distractors|exact|partial|canonicalAnswer|letter)"\s*:/,
          );
        }
      }
      if (SHOTS) {
        fs.mkdirSync(SHOTS, { recursive: true });
        const file = `${SHOTS}/labels-3d.json`;
        const all = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>) : {};
        all[`${condition}-${viewport.width}x${viewport.height}`] = measured;
        fs.writeFileSync(file, JSON.stringify(all, null, 2));
      }
    });
  }
}
