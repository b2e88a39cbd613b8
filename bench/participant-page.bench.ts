// Measures the participant page in headless Chromium (SwiftShader): draw calls and frame time of the 3D view
// for a ~3,000-atom pocket; frames per second while the view turns on the largest demo pocket (a T8 scene, whose
// named atoms must be labelled on the first frame); and the JavaScript transferred for a static-condition item page.
// Prints figures; asserts nothing about timing. Needs E2E_DATABASE_URL (npm run bench:participant sets it up).
import fs from "node:fs";
import path from "node:path";
import { test } from "@playwright/test";
import { parseStructure } from "../lib/molecule/parse";
import { prepareComplex } from "../lib/molecule/prepare";
import { perceiveBonds } from "../lib/molecule/chemistry/bonds";
import { createSentinelStudy } from "../tests/e2e/helpers/participant-fixtures";
import { generateItems, loadGeneratorComplex } from "../lib/generate";
import { DEMO_STRUCTURES, DEMO_STRUCTURES_DIR } from "../prisma/demo/structures";
import type { Scene3d } from "../lib/scene3d";

const STRUCTURE = path.resolve(import.meta.dirname, "../../shared/data/structures/plip-test-pdb/1n7g.pdb");

function bigPocketScene(targetAtoms: number) {
  const parsed = parseStructure(fs.readFileSync(STRUCTURE, "utf8"), "1n7g.pdb");
  if (!parsed.ok) throw new Error("parse failed");
  let cutoff = 10;
  for (;;) {
    const prepared = prepareComplex(parsed.structure, { pocketCutoffA: cutoff });
    if (!prepared.ok) throw new Error(prepared.reason);
    const { pocketAtoms, ligand } = prepared.complex;
    if (pocketAtoms.length + ligand.atoms.length >= targetAtoms || cutoff > 40) {
      const atoms = [...pocketAtoms, ...ligand.atoms];
      const cx = atoms.reduce((s, a) => s + a.x, 0) / atoms.length;
      const cy = atoms.reduce((s, a) => s + a.y, 0) / atoms.length;
      const cz = atoms.reduce((s, a) => s + a.z, 0) / atoms.length;
      const residueKeys = new Map<string, number>();
      const residueIndex = atoms.map((a) => {
        const key = `${a.chain}:${a.resSeq}${a.iCode}`;
        if (!residueKeys.has(key)) residueKeys.set(key, residueKeys.size);
        return residueKeys.get(key)!;
      });
      const bonds = perceiveBonds(atoms).flatMap((b) => [b.a, b.b]);
      const radius = Math.max(...atoms.map((a) => Math.hypot(a.x - cx, a.y - cy, a.z - cz)));
      return {
        elements: atoms.map((a) => a.element),
        positions: atoms.flatMap((a) => [a.x - cx, a.y - cy, a.z - cz]),
        roles: atoms.map((_, i) => (i < pocketAtoms.length ? "p" : "l")),
        residueIndex,
        bonds,
        camera: { distanceA: radius / Math.sin((15 * Math.PI) / 180), fovDeg: 30 },
      };
    }
    cutoff += 2;
  }
}

test("3D view of a ~3,000-atom pocket: draw calls and frame time", async ({ page }) => {
  const scene = bigPocketScene(3000);
  const { slug } = await createSentinelStudy({ count: 1, config: { conditions: ["interactive"] }, scene3d: scene });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=bench-3d`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForSelector("[data-testid=molecule-viewer][data-ready=true]");
  await page.waitForTimeout(500);
  const stats = await page.evaluate(() => {
    const v = (
      window as unknown as {
        __misiViewer: {
          gl: {
            render: (s: unknown, c: unknown) => void;
            info: { render: { calls: number; triangles: number } };
            getContext: () => WebGLRenderingContext;
          };
          scene: unknown;
          camera: unknown;
        };
      }
    ).__misiViewer;
    const ctx = v.gl.getContext();
    const px = new Uint8Array(4);
    const frames: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      v.gl.render(v.scene, v.camera);
      ctx.readPixels(0, 0, 1, 1, ctx.RGBA, ctx.UNSIGNED_BYTE, px); // waits for the GPU (SwiftShader) to finish
      frames.push(performance.now() - t);
    }
    frames.sort((a, b) => a - b);
    return {
      calls: v.gl.info.render.calls,
      triangles: v.gl.info.render.triangles,
      medianMs: frames[15],
      minMs: frames[0],
      maxMs: frames[29],
    };
  });
  console.log(
    `3D view: ${scene.elements.length} atoms, ${scene.bonds.length / 2} bonds; ${stats.calls} draw calls, ${stats.triangles} triangles per frame; frame time median ${stats.medianMs!.toFixed(1)} ms (min ${stats.minMs!.toFixed(1)}, max ${stats.maxMs!.toFixed(1)}) in headless Chromium/SwiftShader`,
  );
});

/** The largest T8 scene the demo structures give (T8 scenes hold the whole pocket and the question's named atoms). */
function largestDemoScene(): { pdbId: string; scene: Scene3d } {
  const complexes = DEMO_STRUCTURES.map(({ file, pdbId }) => {
    const loaded = loadGeneratorComplex({
      pdbId,
      file,
      text: fs.readFileSync(path.join(DEMO_STRUCTURES_DIR, file), "utf8"),
      sha256: pdbId,
    });
    if (!loaded.ok) throw new Error(`${file}: ${loaded.reason}`);
    return loaded.complex;
  });
  const r = generateItems({
    complexes,
    tasks: ["interaction_location"],
    perTask: 2 * complexes.length,
    seed: "bench-demo",
  });
  if (!r.ok) throw new Error(r.error);
  const scenes = r.items.map((item) => ({ pdbId: item.pdbId, scene: (item.fields as { scene3d: Scene3d }).scene3d }));
  return scenes.reduce((a, b) => (b.scene.elements.length > a.scene.elements.length ? b : a));
}

/** How long the view keeps turning while frames are counted. */
const TURN_MS = 3000;

test("3D view of the largest demo pocket: named atoms on the first frame, frames per second while turning", async ({
  page,
}) => {
  const { pdbId, scene } = largestDemoScene();
  const { slug } = await createSentinelStudy({ count: 1, config: { conditions: ["interactive"] }, scene3d: scene });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/s/${slug}?PROLIFIC_PID=bench-fps`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  await page.waitForSelector("[data-testid=molecule-viewer][data-ready=true]");
  const firstFrame = await page.evaluate(
    () =>
      new Promise<{ named: number; shown: number; frames: number }>((resolve) => {
        const v = (window as unknown as { __misiViewer: { gl: { info: { render: { frame: number } } } } }).__misiViewer;
        // The first frame that three.js drew: wait for it, then read the overlay.
        const check = () => {
          if (v.gl.info.render.frame === 0) return requestAnimationFrame(check);
          const canvas = document.querySelector("[data-testid=molecule-viewer] canvas")!.getBoundingClientRect();
          const spans = [...document.querySelectorAll<HTMLElement>("[data-testid=named-atom-label]")];
          const inside = spans.filter((s) => {
            const b = s.getBoundingClientRect();
            return (
              s.style.display !== "none" &&
              b.width > 0 &&
              b.left >= canvas.left - 1.5 &&
              b.right <= canvas.right + 1.5 &&
              b.top >= canvas.top - 1.5 &&
              b.bottom <= canvas.bottom + 1.5
            );
          });
          resolve({ named: spans.length, shown: inside.length, frames: v.gl.info.render.frame });
        };
        check();
      }),
  );
  const turn = () =>
    page.evaluate(
      (turnMs) =>
        new Promise<{ frames: number; ms: number; renderer: string; dpr: number; antialias: boolean; widthPx: number }>(
          (resolve) => {
            const v = (
              window as unknown as {
                __misiViewer: {
                  gl: {
                    info: { render: { frame: number } };
                    getContext: () => WebGLRenderingContext;
                    getPixelRatio: () => number;
                    domElement: HTMLCanvasElement;
                  };
                  camera: {
                    position: { x: number; z: number; set: (x: number, y: number, z: number) => void };
                    lookAt: (x: number, y: number, z: number) => void;
                  };
                  invalidate: () => void;
                };
              }
            ).__misiViewer;
            const ctx = v.gl.getContext();
            const info = ctx.getExtension("WEBGL_debug_renderer_info");
            const renderer = String(
              info ? ctx.getParameter(info.UNMASKED_RENDERER_WEBGL) : ctx.getParameter(ctx.RENDERER),
            );
            const start = performance.now();
            const frame0 = v.gl.info.render.frame;
            const radius = Math.hypot(v.camera.position.x, v.camera.position.z);
            // Every animation frame turns the camera 2° about the vertical axis (as a drag would) and asks for a render.
            const step = () => {
              const t = performance.now() - start;
              if (t >= turnMs) {
                resolve({
                  frames: v.gl.info.render.frame - frame0,
                  ms: t,
                  renderer,
                  dpr: v.gl.getPixelRatio(),
                  antialias: ctx.getContextAttributes()?.antialias ?? false,
                  widthPx: v.gl.domElement.width,
                });
                return;
              }
              const angle = Math.atan2(v.camera.position.x, v.camera.position.z) + (2 * Math.PI) / 180;
              v.camera.position.set(radius * Math.sin(angle), 0, radius * Math.cos(angle));
              v.camera.lookAt(0, 0, 0);
              v.invalidate();
              requestAnimationFrame(step);
            };
            requestAnimationFrame(step);
          },
        ),
      TURN_MS,
    );
  const turning = await turn();
  await page.getByRole("checkbox", { name: "Labels" }).uncheck();
  const turningNoLabels = await turn();
  await page.getByRole("checkbox", { name: "Labels" }).check();
  // The share of a frame that is drawing: three.js render alone, waited for (readPixels), without the label overlay.
  const drawMs = await page.evaluate(() => {
    const v = (
      window as unknown as {
        __misiViewer: {
          gl: { render: (s: unknown, c: unknown) => void; getContext: () => WebGLRenderingContext };
          scene: unknown;
          camera: unknown;
        };
      }
    ).__misiViewer;
    const ctx = v.gl.getContext();
    const px = new Uint8Array(4);
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      v.gl.render(v.scene, v.camera);
      ctx.readPixels(0, 0, 1, 1, ctx.RGBA, ctx.UNSIGNED_BYTE, px);
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b)[7]!;
  });
  // The page's own ceiling on this machine: animation frames per second with nothing to draw.
  const idleFps = await page.evaluate(
    (turnMs) =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        let frames = 0;
        const step = () => {
          const t = performance.now() - start;
          if (t >= turnMs) return resolve((1000 * frames) / t);
          frames++;
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    TURN_MS,
  );
  const fps = (1000 * turning.frames) / turning.ms;
  const fpsNoLabels = (1000 * turningNoLabels.frames) / turningNoLabels.ms;
  console.log(
    `3D view, largest demo pocket (${pdbId}, T8 scene): ${scene.elements.length} atoms, ${scene.bonds.length / 2} bonds, ${scene.labels?.length ?? 0} labels; ` +
      `first frame: ${firstFrame.shown} of ${firstFrame.named} named atoms labelled inside the view; ` +
      `turning: ${turning.frames} frames in ${turning.ms.toFixed(0)} ms = ${fps.toFixed(1)} fps (labels off: ${fpsNoLabels.toFixed(1)} fps; the idle page: ${idleFps.toFixed(1)} animation frames per second); drawing alone ${drawMs.toFixed(1)} ms per frame (median of 15) ` +
      `(canvas ${turning.widthPx} px wide, pixel ratio ${turning.dpr}, antialias ${turning.antialias}; renderer "${turning.renderer}")`,
  );
});

test("JavaScript transferred for a static-condition item page", async ({ page }) => {
  const { slug } = await createSentinelStudy({ count: 1 });
  const scripts = new Map<string, number>();
  let threeLoaded = false;
  page.on("requestfinished", async (request) => {
    if (request.resourceType() !== "script") return;
    const sizes = await request.sizes();
    scripts.set(request.url(), sizes.responseBodySize);
    const body = (await (await request.response())?.body())?.toString("utf8") ?? "";
    if (body.includes("WebGLRenderer")) threeLoaded = true;
  });
  await page.goto(`/s/${slug}?PROLIFIC_PID=bench-static`);
  await page.getByRole("button", { name: /I agree/ }).click();
  await page.getByRole("button", { name: "Start" }).click();
  await page.getByRole("button", { name: "Submit answer" }).waitFor();
  await page.waitForLoadState("networkidle");
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  console.log(
    `Static item page: ${scripts.size} script files, ${(total / 1024).toFixed(1)} KB transferred (encoded as served by next start, gzip); 3D code loaded: ${threeLoaded}`,
  );
});
