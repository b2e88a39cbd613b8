/**
 * SVG numbers no finer than the pixels need (issue 31): a real 1024-px view from the demo structures
 * prints every pixel quantity with at most one decimal, and what it draws stays within half a step of
 * the geometry the renderer and the label placer computed.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RenderedView, generateItems, loadGeneratorComplex, renderItemViews } from "@/lib/generate";
import { DEFAULT_RENDER_SETTINGS, projectBalls, svgNumberDecimals } from "@/lib/render";
import { parseCircles, parseTexts } from "./svg-parse";

const DEMO_PDB = path.resolve(import.meta.dirname, "../../../prisma/demo/structures/3mht.pdb");
/** Half of the 0.1-px step, plus float noise. */
const HALF_STEP_PX = 0.05 + 1e-9;

/** Every number outside <defs> (the gradients' box fractions are not pixels). */
function pixelNumbers(svg: string): string[] {
  return [...svg.replace(/<defs>.*?<\/defs>/s, "").matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => m[0]);
}

describe("SVG number precision", () => {
  let views: RenderedView[] = [];
  beforeAll(() => {
    const bytes = readFileSync(DEMO_PDB);
    const loaded = loadGeneratorComplex({
      pdbId: "3MHT",
      file: "3mht.pdb",
      text: bytes.toString("utf8"),
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
    if (!loaded.ok) throw new Error(loaded.reason);
    const result = generateItems({
      complexes: [loaded.complex],
      tasks: ["interaction_location"],
      perTask: 1,
      seed: "svg-precision",
      renderSettings: { widthPx: 1024, heightPx: 1024 },
    });
    if (!result.ok) throw new Error(result.error);
    views = renderItemViews(result.items[0]!);
  });

  it("takes one decimal at 1024 px and more only for smaller images", () => {
    expect(svgNumberDecimals(DEFAULT_RENDER_SETTINGS)).toBe(1);
    expect(svgNumberDecimals({ widthPx: 2048, heightPx: 2048 })).toBe(1);
    expect(svgNumberDecimals({ widthPx: 1024, heightPx: 512 })).toBe(2);
    expect(svgNumberDecimals({ widthPx: 256, heightPx: 256 })).toBe(2);
  });

  it("prints every number of a 1024-px view with at most one decimal, no trailing zero, no -0", () => {
    expect(views.length).toBeGreaterThan(0);
    for (const { svg } of views) {
      const numbers = pixelNumbers(svg);
      expect(numbers.length).toBeGreaterThan(1000);
      expect(numbers.filter((n) => !/^-?\d+(\.\d)?$/.test(n))).toEqual([]);
      expect(numbers.filter((n) => /\.\d*0$/.test(n) || /^-0(\.0*)?$/.test(n))).toEqual([]);
    }
  });

  it("draws balls and labels within half a step of the computed geometry", () => {
    for (const { scene, svg, stats } of views) {
      const balls = projectBalls(
        scene,
        { ...scene.camera, widthPx: 1024, heightPx: 1024 },
        DEFAULT_RENDER_SETTINGS,
      ).filter((b) => b.visible);
      const circles = parseCircles(svg);
      expect(circles).toHaveLength(balls.length);
      for (const b of balls) {
        const match = circles.some(
          (c) =>
            Math.abs(c.cx - b.xPx) <= HALF_STEP_PX &&
            Math.abs(c.cy - b.yPx) <= HALF_STEP_PX &&
            Math.abs(c.r - b.radiusPx) <= HALF_STEP_PX,
        );
        expect(match, `ball at ${b.xPx}, ${b.yPx}`).toBe(true);
      }
      const texts = parseTexts(svg);
      expect(texts).toHaveLength(stats.labelsPlaced.length);
      for (const label of stats.labelsPlaced) {
        const match = texts.some(
          (t) =>
            t.text === label.text &&
            Math.abs(t.x - label.xPx) <= HALF_STEP_PX &&
            Math.abs(t.y - label.baselineYPx) <= HALF_STEP_PX,
        );
        expect(match, `label ${label.text}`).toBe(true);
      }
    }
  });
});
