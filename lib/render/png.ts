/**
 * SVG → PNG with @resvg/resvg-js (a native module; kept out of svg.ts so the SVG renderer stays pure
 * and bundles anywhere). Text is rendered with an explicit font file and system fonts switched off, so
 * the same SVG gives the same pixels on every machine that has that font file. resvg reads TTF/OTF,
 * not WOFF2, so the Inter web font the app ships cannot be used here.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";

/** Font file inside the npm package `dejavu-fonts-ttf` (2.37.x), relative to its package root. */
const DEJAVU_PACKAGE = "dejavu-fonts-ttf";
const DEJAVU_BOLD_IN_PACKAGE = "ttf/DejaVuSans-Bold.ttf";
/** Debian/Ubuntu `fonts-dejavu-core` location: same font, used when the npm package is absent. */
const DEJAVU_BOLD_SYSTEM_PATHS = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
];
const LABEL_FONT_FAMILY = "DejaVu Sans";

export type FontSource = "package" | "system-file" | "system-fonts";

export interface LabelFont {
  /** Where the font came from: the npm package, a system copy of the same file, or whatever the system has. */
  source: FontSource;
  fontFiles: string[];
}

function findPackageFont(): string | null {
  try {
    const requireFromHere = createRequire(import.meta.url);
    const pkgJson = requireFromHere.resolve(`${DEJAVU_PACKAGE}/package.json`);
    const file = path.join(path.dirname(pkgJson), DEJAVU_BOLD_IN_PACKAGE);
    return existsSync(file) ? file : null;
  } catch {
    // Not installed, or its exports hide package.json: look in node_modules under the working directory.
    const file = path.join(process.cwd(), "node_modules", DEJAVU_PACKAGE, DEJAVU_BOLD_IN_PACKAGE);
    return existsSync(file) ? file : null;
  }
}

let cachedFont: LabelFont | null = null;

/** The label font file, found once per process: npm package first, then a system copy, else system fonts. */
export function resolveLabelFont(): LabelFont {
  if (cachedFont) return cachedFont;
  const fromPackage = findPackageFont();
  if (fromPackage) cachedFont = { source: "package", fontFiles: [fromPackage] };
  else {
    const system = DEJAVU_BOLD_SYSTEM_PATHS.find((p) => existsSync(p));
    cachedFont = system ? { source: "system-file", fontFiles: [system] } : { source: "system-fonts", fontFiles: [] };
  }
  return cachedFont;
}

/** resvg options for deterministic text: only our font file, unless none was found. */
export function resvgOptionsFor(font: LabelFont = resolveLabelFont()): ResvgRenderOptions {
  return {
    font: {
      fontFiles: font.fontFiles,
      loadSystemFonts: font.source === "system-fonts",
      defaultFontFamily: LABEL_FONT_FAMILY,
      sansSerifFamily: LABEL_FONT_FAMILY,
    },
    fitTo: { mode: "original" },
    logLevel: "off",
  };
}

export interface PngImage {
  widthPx: number;
  heightPx: number;
  png: Buffer;
  font: LabelFont;
}

/** Rasterises an SVG string to a PNG at the SVG's own size. */
export function renderPng(svg: string, font: LabelFont = resolveLabelFont()): PngImage {
  const image = new Resvg(svg, resvgOptionsFor(font)).render();
  return { widthPx: image.width, heightPx: image.height, png: image.asPng(), font };
}
