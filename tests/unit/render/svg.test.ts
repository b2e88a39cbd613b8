import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import type { PerspectiveCamera } from "@/lib/molecule/geometry/camera";
import {
  type Scene,
  type SceneAtom,
  RenderSettingsSchema,
  atomColorOf,
  renderSvg,
  renderSvgWithStats,
} from "@/lib/render";
import { DEFAULT_RENDER_SETTINGS } from "@/lib/render/settings";
import { parseCircles, parseLines, parseTexts } from "./svg-parse";

/** 30° horizontal field of view, 1024 px wide: focal length f = 512 / tan 15° = 1910.8100 px. */
const CAMERA_50: PerspectiveCamera = { fieldOfViewDeg: 30, widthPx: 1024, heightPx: 1024, distanceA: 50, nearA: 0.5 };
const SETTINGS = DEFAULT_RENDER_SETTINGS;

function atom(position: [number, number, number], element: string, extra: Partial<SceneAtom> = {}): SceneAtom {
  return { position, element, role: "ligand", residueIndex: 0, ...extra };
}

/** Ligand C at (2, 1, 0) and O at (−3, 0, 5), bonded; the O is 5 Å nearer the camera. */
function twoAtomScene(): Scene {
  return {
    atoms: [atom([2, 1, 0], "C"), atom([-3, 0, 5], "O")],
    bonds: [{ a: 0, b: 1, order: 1 }],
    residueLabels: [],
    camera: CAMERA_50,
  };
}

describe("renderSvg", () => {
  it("is deterministic: the same scene renders byte-identically", () => {
    const a = renderSvg(twoAtomScene(), SETTINGS);
    const b = renderSvg(twoAtomScene(), SETTINGS);
    expect(a).toBe(b);
    expect(
      a.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">'),
    ).toBe(true);
  });

  it("puts each ball where the perspective projection says, with the hand-computed size", () => {
    const circles = parseCircles(renderSvg(twoAtomScene(), SETTINGS));
    expect(circles).toHaveLength(2);
    // Printed to 0.1 px at 1024 px (svgNumberDecimals). C: depth 50 Å; x = 512 + f·2/50 = 588.43, y = 512 − f·1/50 =
    // 473.78; radius 0.25 × 1.70 Å = 0.425 Å → f·0.425/√(2² + 1² + 50² − 0.425²) = 16.23 px.
    const c = circles.find((k) => k.color === SETTINGS.colors.ligandCarbon)!;
    expect([c.cx, c.cy, c.r]).toEqual([588.4, 473.8, 16.2]);
    // O: depth 45 Å; x = 512 − f·3/45 = 384.61, y = 512; radius 0.25 × 1.52 = 0.38 Å →
    // f·0.38/√(3² + 45² − 0.38²) = 16.10 px.
    const o = circles.find((k) => k.color === SETTINGS.colors.oxygen)!;
    expect([o.cx, o.cy, o.r]).toEqual([384.6, 512, 16.1]);
  });

  it("draws each bond as two halves meeting at the projected midpoint, each from its own atom", () => {
    const svg = renderSvg(twoAtomScene(), SETTINGS);
    // Body lines are the wide ones (the highlight line on each half is narrower).
    const lines = parseLines(svg);
    const widest = Math.max(...lines.map((l) => l.width));
    const bodies = lines.filter((l) => l.width > widest * 0.6);
    expect(bodies).toHaveLength(2);
    // Midpoint (−0.5, 0.5, 2.5), depth 47.5: x = 512 − f·0.5/47.5 = 491.89, y = 512 − f·0.5/47.5 = 491.89.
    for (const body of bodies) expect([body.x2, body.y2]).toEqual([491.9, 491.9]);
    expect(bodies.map((b) => [b.x1, b.y1]).sort()).toEqual([
      [384.6, 512],
      [588.4, 473.8],
    ]);
  });

  it("paints far to near: the nearer ball comes later, whatever the input order", () => {
    for (const scene of [twoAtomScene(), { ...twoAtomScene(), atoms: [...twoAtomScene().atoms].reverse() }]) {
      const circles = parseCircles(renderSvg(scene, SETTINGS));
      const far = circles.find((k) => k.color === SETTINGS.colors.ligandCarbon)!;
      const near = circles.find((k) => k.color === SETTINGS.colors.oxygen)!;
      expect(near.order).toBeGreaterThan(far.order);
    }
  });

  it("sorts a half-bond that leaves its ball toward the viewer after the ball, one that leaves away before it", () => {
    const svg = renderSvg(twoAtomScene(), SETTINGS);
    const circles = parseCircles(svg);
    const cBall = circles.find((k) => k.color === SETTINGS.colors.ligandCarbon)!;
    const oBall = circles.find((k) => k.color === SETTINGS.colors.oxygen)!;
    const lines = parseLines(svg);
    const cHalf = lines.find((l) => l.x1 === 588.4)!;
    const oHalf = lines.find((l) => l.x1 === 384.6)!;
    // The C half points toward the viewer (to the nearer O): drawn over the C ball.
    expect(cHalf.order).toBeGreaterThan(cBall.order);
    // The O half points away from the viewer: drawn before the O ball, which covers its start.
    expect(oHalf.order).toBeLessThan(oBall.order);
  });

  it("scales with the configured image size", () => {
    const settings = RenderSettingsSchema.parse({ widthPx: 512, heightPx: 512 });
    const svg = renderSvg(twoAtomScene(), settings);
    expect(svg).toContain('width="512" height="512" viewBox="0 0 512 512"');
    const c = parseCircles(svg).find((k) => k.color === settings.colors.ligandCarbon)!;
    // Half the focal length: x = 256 + (f/2)·2/50 = 294.22.
    expect(c.cx).toBe(294.22);
  });

  it("skips atoms behind the camera or the near plane without NaN or Infinity in the output", () => {
    const scene: Scene = {
      atoms: [
        atom([0, 0, 0], "C", { label: "C1" }),
        atom([1, 0, 60], "C", { label: "BEHIND" }), // 10 Å behind the camera
        atom([0, 1, 49.8], "N", { label: "TOONEAR" }), // 0.2 Å in front of the camera, inside the near plane
        atom([0, 0, 50], "O", { label: "ATCAMERA" }), // exactly at the camera
        atom([1000, 0, 0], "C", { label: "OFFSCREEN" }), // far outside the image
      ],
      bonds: [
        { a: 0, b: 1 },
        { a: 0, b: 2 },
        { a: 0, b: 3 },
        { a: 0, b: 4 },
      ],
      residueLabels: [{ text: "ARG 1", anchorAtomIndex: 1 }],
      camera: CAMERA_50,
    };
    const { svg, stats } = renderSvgWithStats(scene, SETTINGS);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(stats.atomsDrawn).toBe(1);
    expect(stats.atomsCulled).toBe(4);
    expect(parseCircles(svg)).toHaveLength(1);
    expect(parseTexts(svg).map((t) => t.text)).toEqual(["C1"]);
    // Bonds to clipped atoms are dropped whole where the midpoint is clipped too; no half starts at a clipped atom.
    for (const line of parseLines(svg))
      expect(Number.isFinite(line.x1 + line.y1 + line.x2 + line.y2 + line.width)).toBe(true);
  });

  it("escapes XML in labels and the result still parses", () => {
    const scene: Scene = {
      atoms: [atom([0, 0, 0], "C", { label: `<&">'` }), atom([3, 0, 0], "C", { role: "pocket" })],
      bonds: [],
      residueLabels: [{ text: "A&B <1>", anchorAtomIndex: 1 }],
      camera: CAMERA_50,
    };
    const svg = renderSvg(scene, SETTINGS);
    expect(svg).toContain(">&lt;&amp;&quot;&gt;&apos;</text>");
    expect(svg).toContain(">A&amp;B &lt;1&gt;</text>");
    expect(svg).not.toContain(`<&`);
    expect(
      parseTexts(svg)
        .map((t) => t.text)
        .sort(),
    ).toEqual([`<&">'`, "A&B <1>"].sort());
    expect(() => new Resvg(svg)).not.toThrow();
    expect(() => new Resvg(svg.replace("&amp;", "&"))).toThrow();
  });

  it("carries no metadata, titles or ids beyond the gradients", () => {
    const svg = renderSvg(twoAtomScene(), SETTINGS);
    expect(svg).not.toMatch(/<title|<desc|<metadata|data-|class=/);
    expect([...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])).toEqual(["b0", "b1"]);
  });

  it("defines one gradient per colour, not per atom", () => {
    const atoms = Array.from({ length: 12 }, (_, i) => atom([i - 6, (i % 3) - 1, 0], i % 2 === 0 ? "C" : "O"));
    const svg = renderSvg({ atoms, bonds: [], residueLabels: [], camera: CAMERA_50 }, SETTINGS);
    expect(parseCircles(svg)).toHaveLength(12);
    expect(svg.match(/<radialGradient /g)).toHaveLength(2);
  });

  it("rejects a malformed scene with the offending fields named", () => {
    const scene: Scene = {
      ...twoAtomScene(),
      atoms: [atom([Number.NaN, 0, 0], "C"), atom([0, 0, 0], "O")],
      bonds: [{ a: 0, b: 7 }],
      residueLabels: [{ text: "X", anchorAtomIndex: -1 }],
    };
    expect(() => renderSvg(scene, SETTINGS)).toThrow(
      /atoms\[0\]\.position.*bonds\[0\].*residueLabels\[0\]\.anchorAtomIndex/,
    );
  });
});

describe("colour rules", () => {
  it("alternates pocket carbons purple/orange across residues; ligand C grey, O red, N blue, others CPK", () => {
    const pocket = (residueIndex: number, element = "C"): SceneAtom =>
      atom([0, 0, 0], element, { role: "pocket", residueIndex });
    const colors = SETTINGS.colors;
    expect([0, 1, 2, 3].map((r) => atomColorOf(pocket(r), colors))).toEqual([
      "#BF99F2",
      "#F2B366",
      "#BF99F2",
      "#F2B366",
    ]);
    expect(atomColorOf(atom([0, 0, 0], "C"), colors)).toBe("#A9A9A9");
    expect(atomColorOf(pocket(1, "O"), colors)).toBe("#FF0D0D");
    expect(atomColorOf(atom([0, 0, 0], "O"), colors)).toBe("#FF0D0D");
    expect(atomColorOf(pocket(0, "N"), colors)).toBe("#3050F8");
    expect(atomColorOf(atom([0, 0, 0], "N"), colors)).toBe("#3050F8");
    expect(atomColorOf(pocket(0, "S"), colors)).toBe("#FFFF30");
    expect(atomColorOf(atom([0, 0, 0], "P"), colors)).toBe("#FF8000");
  });

  it("paints those colours into the SVG", () => {
    const atoms: SceneAtom[] = [
      atom([-9, 0, 0], "C", { role: "pocket", residueIndex: 0 }),
      atom([-6, 0, 0], "C", { role: "pocket", residueIndex: 1 }),
      atom([-3, 0, 0], "C", { role: "pocket", residueIndex: 2 }),
      atom([0, 0, 0], "C"),
      atom([3, 0, 0], "O"),
      atom([6, 0, 0], "N"),
      atom([9, 0, 0], "N", { role: "pocket", residueIndex: 1 }),
    ];
    const circles = parseCircles(renderSvg({ atoms, bonds: [], residueLabels: [], camera: CAMERA_50 }, SETTINGS));
    expect(circles.sort((p, q) => p.cx - q.cx).map((k) => k.color)).toEqual([
      "#BF99F2",
      "#F2B366",
      "#BF99F2",
      "#A9A9A9",
      "#FF0D0D",
      "#3050F8",
      "#3050F8",
    ]);
  });

  it("takes colours from the settings", () => {
    const settings = RenderSettingsSchema.parse({ colors: { ligandCarbon: "#00ff00" } });
    expect(settings.colors.ligandCarbon).toBe("#00FF00");
    expect(settings.colors.oxygen).toBe("#FF0D0D");
    const circles = parseCircles(renderSvg(twoAtomScene(), settings));
    expect(circles.map((k) => k.color).sort()).toEqual(["#00FF00", "#FF0D0D"]);
  });
});
