// Measures the participant page in headless Chromium (SwiftShader): draw calls and frame time of the 3D view
// for a ~3,000-atom pocket, and the JavaScript transferred for a static-condition item page.
// Prints figures; asserts nothing about timing. Needs E2E_DATABASE_URL (npm run bench:participant sets it up).
import fs from "node:fs";
import path from "node:path";
import { test } from "@playwright/test";
import { parseStructure } from "../lib/molecule/parse";
import { prepareComplex } from "../lib/molecule/prepare";
import { perceiveBonds } from "../lib/molecule/chemistry/bonds";
import { createSentinelStudy } from "../tests/e2e/helpers/participant-fixtures";

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
          gl: { render: (s: unknown, c: unknown) => void; info: { render: { calls: number; triangles: number } }; getContext: () => WebGLRenderingContext };
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
    return { calls: v.gl.info.render.calls, triangles: v.gl.info.render.triangles, medianMs: frames[15], minMs: frames[0], maxMs: frames[29] };
  });
  console.log(
    `3D view: ${scene.elements.length} atoms, ${scene.bonds.length / 2} bonds; ${stats.calls} draw calls, ${stats.triangles} triangles per frame; frame time median ${stats.medianMs!.toFixed(1)} ms (min ${stats.minMs!.toFixed(1)}, max ${stats.maxMs!.toFixed(1)}) in headless Chromium/SwiftShader`,
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
  console.log(`Static item page: ${scripts.size} script files, ${(total / 1024).toFixed(1)} KB transferred (encoded as served by next start, gzip); 3D code loaded: ${threeLoaded}`);
});
