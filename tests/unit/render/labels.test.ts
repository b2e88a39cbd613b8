import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import type { PerspectiveCamera } from "@/lib/molecule/geometry/camera";
import {
  type LabelBox,
  type LabelRequest,
  type Scene,
  type SceneAtom,
  boxesOverlap,
  measureLabelPx,
  placeLabels,
  renderSvgWithStats,
} from "@/lib/render";
import { resvgOptionsFor } from "@/lib/render/png";
import { DEFAULT_RENDER_SETTINGS } from "@/lib/render/settings";
import { type ParsedText, parseTexts } from "./svg-parse";

const CAMERA: PerspectiveCamera = { fieldOfViewDeg: 30, widthPx: 1024, heightPx: 1024, distanceA: 40, nearA: 0.5 };

/**
 * 49 ligand atoms on a 7×7 grid 0.6 Å apart (about 29 px at this camera, less than a label width) and
 * 16 pocket residues in a ring around them: far more labels than free room.
 */
function clutteredScene(): Scene {
  const atoms: SceneAtom[] = [];
  for (let i = 0; i < 49; i++) {
    const x = ((i % 7) - 3) * 0.6;
    const y = (Math.floor(i / 7) - 3) * 0.6;
    atoms.push({
      position: [x, y, (i % 5) * 0.3],
      element: i % 4 === 0 ? "N" : "C",
      role: "ligand",
      residueIndex: 0,
      label: `C${i}'`,
    });
  }
  const residueLabels: Scene["residueLabels"] = [];
  for (let r = 0; r < 16; r++) {
    const angle = (r / 16) * 2 * Math.PI;
    residueLabels.push({ text: `ARG ${100 + r}`, anchorAtomIndex: atoms.length });
    atoms.push({
      position: [3 * Math.cos(angle), 3 * Math.sin(angle), 0],
      element: "C",
      role: "pocket",
      residueIndex: r,
    });
  }
  return { atoms, bonds: [], residueLabels, camera: CAMERA };
}

/** Box the label is promised to stay within, rebuilt from the SVG text alone. */
function boxOf(t: ParsedText, haloWidthPx: number): LabelBox {
  const size = measureLabelPx(t.text, t.fontSizePx, haloWidthPx);
  const y0 = t.y - size.baselineFromTopPx;
  return { x0: t.x - size.widthPx / 2, y0, x1: t.x + size.widthPx / 2, y1: y0 + size.heightPx };
}

/** The glyphs' real extent as the rasteriser lays them out (DejaVu Sans Bold), without the halo. */
function glyphBoxOf(t: ParsedText): LabelBox {
  const text = t.text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">` +
    `<g font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${t.fontSizePx}" text-anchor="middle">` +
    `<text x="${t.x}" y="${t.y}">${text}</text></g></svg>`;
  const b = new Resvg(svg, resvgOptionsFor()).getBBox()!;
  return { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
}

describe("label placement in a cluttered scene", () => {
  const { svg, stats } = renderSvgWithStats(clutteredScene(), DEFAULT_RENDER_SETTINGS);
  const texts = parseTexts(svg);
  const haloWidthPx = Math.max(...texts.map((t) => t.haloWidthPx));

  it("places many labels and reports the rest as skipped", () => {
    expect(texts.length).toBe(stats.labelsPlaced.length);
    expect(texts.length + stats.labelsSkipped.length).toBe(49 + 16);
    expect(texts.length).toBeGreaterThan(30);
    expect(stats.labelsSkipped.length).toBeGreaterThan(0);
  });

  it("never overlaps two label boxes read back from the SVG, and keeps every box inside the image", () => {
    const boxes = texts.map((t) => boxOf(t, haloWidthPx));
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i]!;
      expect(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= 1024 && b.y1 <= 1024, `${texts[i]!.text} inside`).toBe(true);
      for (let j = i + 1; j < boxes.length; j++) {
        expect(boxesOverlap(b, boxes[j]!), `${texts[i]!.text} vs ${texts[j]!.text}`).toBe(false);
      }
    }
  });

  it("keeps the rasterised glyphs inside those boxes (so glyphs never overlap either)", () => {
    for (const t of texts) {
      const glyphs = glyphBoxOf(t);
      const box = boxOf(t, haloWidthPx);
      expect(glyphs.x0, t.text).toBeGreaterThanOrEqual(box.x0);
      expect(glyphs.x1, t.text).toBeLessThanOrEqual(box.x1);
      expect(glyphs.y0, t.text).toBeGreaterThanOrEqual(box.y0);
      expect(glyphs.y1, t.text).toBeLessThanOrEqual(box.y1);
    }
  });

  it("serves ligand labels before residue labels", () => {
    const placedLigand = stats.labelsPlaced.filter((l) => l.kind === "atom").length;
    const skippedLigand = stats.labelsSkipped.filter((t) => !t.startsWith("ARG")).length;
    const skippedResidues = stats.labelsSkipped.filter((t) => t.startsWith("ARG")).length;
    // Ligand names go first, and those short of room may move a ring or two farther out, into the
    // residues' space: a larger share of the ligand is named than of the residues.
    expect(placedLigand + skippedLigand).toBe(49);
    expect(placedLigand / 49).toBeGreaterThan((16 - skippedResidues) / 16);
    expect(stats.labelsPlaced.findIndex((l) => l.kind === "residue")).toBe(placedLigand);
  });
});

describe("placeLabels", () => {
  const base: Omit<LabelRequest, "anchorXPx" | "anchorYPx" | "text"> = {
    anchorRadiusPx: 10,
    fontSizePx: 20,
    kind: "atom",
  };
  const options = { widthPx: 400, heightPx: 300, haloWidthPx: 4, obstacles: [] };

  it("moves a second label on the same anchor to a free spot", () => {
    const { placed, skipped } = placeLabels(
      [
        { ...base, text: "C1", anchorXPx: 200, anchorYPx: 150 },
        { ...base, text: "C2", anchorXPx: 200, anchorYPx: 150 },
      ],
      options,
    );
    expect(skipped).toEqual([]);
    expect(boxesOverlap(placed[0]!.box, placed[1]!.box)).toBe(false);
    // First choice is up and to the right of the ball.
    expect(placed[0]!.box.x0).toBeGreaterThan(200);
    expect(placed[0]!.box.y1).toBeLessThan(150);
  });

  it("keeps labels inside the image at the edges", () => {
    const { placed } = placeLabels(
      [
        { ...base, text: "RIGHTEDGE", anchorXPx: 395, anchorYPx: 5 },
        { ...base, text: "CORNER", anchorXPx: 0, anchorYPx: 300 },
      ],
      options,
    );
    expect(placed).toHaveLength(2);
    for (const { box } of placed) {
      expect(box.x0).toBeGreaterThanOrEqual(0);
      expect(box.y0).toBeGreaterThanOrEqual(0);
      expect(box.x1).toBeLessThanOrEqual(400);
      expect(box.y1).toBeLessThanOrEqual(300);
    }
  });

  it("skips a label that fits nowhere", () => {
    const { placed, skipped } = placeLabels(
      [{ ...base, text: "W".repeat(40), anchorXPx: 200, anchorYPx: 150 }],
      options,
    );
    expect(placed).toEqual([]);
    expect(skipped).toEqual([0]);
  });

  it("prefers a spot that covers no ball", () => {
    const ball = { xPx: 240, yPx: 130, radiusPx: 12 }; // sits on the upper-right candidate
    const { placed } = placeLabels([{ ...base, text: "O1", anchorXPx: 200, anchorYPx: 150 }], {
      ...options,
      obstacles: [ball],
    });
    const box = placed[0]!.box;
    const nx = Math.min(Math.max(ball.xPx, box.x0), box.x1);
    const ny = Math.min(Math.max(ball.yPx, box.y0), box.y1);
    expect(Math.hypot(nx - ball.xPx, ny - ball.yPx)).toBeGreaterThanOrEqual(ball.radiusPx);
  });
});
