// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RenderSettingsSchema, buildScene, renderSvgWithStats } from "@/lib/render";
import { Resvg } from "@resvg/resvg-js";
import { renderPng, resvgOptionsFor } from "@/lib/render/png";
import { loadPocketComplex } from "./pocket-scene";
import { parseCircles, parseTexts } from "./svg-parse";

const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../fixtures/render");
const GOLDEN_SVG = path.join(FIXTURES_DIR, "1aku-fmn-pocket-front-512.svg");
const GOLDEN_PNG = path.join(FIXTURES_DIR, "1aku-fmn-pocket-front-512.png");
/** `UPDATE_GOLDEN=1 npx vitest run --project unit tests/unit/render` rewrites the golden SVG and PNG. */
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === "1";

/** 1AKU (flavodoxin) with its FMN: protein residues with any heavy atom within 6 Å of the FMN. */
const complex = loadPocketComplex(["plip-test-pdb", "1aku.pdb"], "FMN", 6);
const settings = RenderSettingsSchema.parse({ widthPx: 512, heightPx: 512 });
const built = buildScene({ ...complex, settings });
if (!built.ok) throw new Error(built.reason);
const { svg, stats } = renderSvgWithStats(built.scene, settings);

function isPng(buffer: Uint8Array): boolean {
  return Buffer.from(buffer.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

describe("1aku FMN pocket, front view", () => {
  it("has the expected pocket (31 FMN heavy atoms and whole residues around it)", () => {
    expect(complex.ligand).toHaveLength(31);
    expect(complex.pocket.length).toBeGreaterThan(150);
    expect(stats.atomsDrawn).toBe(complex.ligand.length + complex.pocket.length);
    expect(stats.atomsCulled).toBe(0);
    expect(stats.halfBondsDrawn).toBe(2 * complex.bonds.length);
  });

  it("labels every FMN atom with its name and the residues, without NaN", () => {
    expect(svg).not.toMatch(/NaN|Infinity/);
    const texts = parseTexts(svg).map((t) => t.text);
    const ligandNames = complex.ligand.map((a) => a.name);
    // Every ligand atom label found a place at 512 px, even in this crowded pocket.
    expect(texts.filter((t) => ligandNames.includes(t)).sort()).toEqual([...ligandNames].sort());
    expect(texts).toContain("THR 59");
    expect(stats.labelsSkipped.every((t) => /^[A-Z]{3} \d+$/.test(t))).toBe(true);
  });

  it("shows grey ligand carbons and both pocket carbon colours", () => {
    const colors = new Set(parseCircles(svg).map((c) => c.color));
    for (const c of ["#A9A9A9", "#BF99F2", "#F2B366", "#FF0D0D", "#3050F8", "#FF8000"])
      expect(colors.has(c), c).toBe(true);
  });

  it("matches the golden SVG byte for byte", () => {
    if (UPDATE_GOLDEN || !existsSync(GOLDEN_SVG)) {
      writeFileSync(GOLDEN_SVG, svg);
      writeFileSync(GOLDEN_PNG, renderPng(svg).png);
    }
    expect(svg).toBe(readFileSync(GOLDEN_SVG, "utf8"));
  });

  it("rasterises to a 512×512 PNG: mostly black background, coloured atoms, light labels", () => {
    const png = renderPng(svg);
    expect(isPng(png.png)).toBe(true);
    // IHDR: width and height are the first two big-endian words after the chunk header.
    expect(png.png.readUInt32BE(16)).toBe(512);
    expect(png.png.readUInt32BE(20)).toBe(512);

    // The pixels renderPng encodes: the same resvg render, read back as RGBA.
    const raster = new Resvg(svg, resvgOptionsFor()).render();
    expect([raster.width, raster.height]).toEqual([512, 512]);
    let black = 0;
    let purple = 0;
    let orange = 0;
    let red = 0;
    let white = 0;
    const px = new Uint8Array(raster.pixels);
    for (let i = 0; i < px.length; i += 4) {
      const r = px[i]!;
      const g = px[i + 1]!;
      const b = px[i + 2]!;
      if (r < 8 && g < 8 && b < 8) black++;
      if (b > 200 && r > 150 && r < 215 && g > 120 && g < 180) purple++;
      if (r > 200 && g > 140 && g < 200 && b < 130) orange++;
      if (r > 200 && g < 40 && b < 40) red++;
      if (r > 245 && g > 245 && b > 245) white++;
    }
    const total = 512 * 512;
    expect(black / total).toBeGreaterThan(0.5);
    expect(black / total).toBeLessThan(0.9);
    expect(purple).toBeGreaterThan(500);
    expect(orange).toBeGreaterThan(500);
    expect(red).toBeGreaterThan(500);
    expect(white).toBeGreaterThan(1000);
  });

  it("keeps the committed golden PNG in step with the golden SVG (same size, valid PNG)", () => {
    const golden = readFileSync(GOLDEN_PNG);
    expect(isPng(golden)).toBe(true);
    expect([golden.readUInt32BE(16), golden.readUInt32BE(20)]).toEqual([512, 512]);
  });
});
