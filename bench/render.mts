/**
 * Static renderer benchmark (not a test): a ~600-atom pocket view → SVG, and SVG → PNG at 1024²;
 * then the bytes of real views (one item per task from the demo structures, as the load bench serves
 * them) raw, gzip and brotli. Prints medians; target for SVG generation is under 20 ms per view.
 *
 *   npm run bench:render
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { type GeneratorComplex, generateItems, loadGeneratorComplex, renderItemImages } from "@/lib/generate";
import { DEFAULT_RENDER_SETTINGS, buildScene, renderSvg, renderSvgWithStats } from "@/lib/render";
import { findStructurePdbId } from "@/lib/import/structure-files";
import { renderPng } from "@/lib/render/png";
import { TASK_IDS } from "@/lib/tasks/types";
import { loadPocketComplex } from "@/tests/unit/render/pocket-scene";

const TARGET_ATOMS = 600;
const SVG_WARMUP_RUNS = 10;
const SVG_RUNS = 50;
const PNG_WARMUP_RUNS = 2;
const PNG_RUNS = 10;
const SVG_TARGET_MS = 20;
const DEMO_STRUCTURES = "prisma/demo/structures";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function timeRuns(warmup: number, runs: number, body: () => void): number[] {
  for (let i = 0; i < warmup; i++) body();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    body();
    times.push(performance.now() - t0);
  }
  return times;
}

// Grow the 1AKU FMN pocket cut until the view holds about TARGET_ATOMS heavy atoms.
let cutoffA = 6;
let complex = loadPocketComplex(["plip-test-pdb", "1aku.pdb"], "FMN", cutoffA);
while (complex.ligand.length + complex.pocket.length < TARGET_ATOMS) {
  cutoffA += 1;
  complex = loadPocketComplex(["plip-test-pdb", "1aku.pdb"], "FMN", cutoffA);
}
const settings = DEFAULT_RENDER_SETTINGS;
const built = buildScene({ ...complex, settings });
if (!built.ok) throw new Error(built.reason);
const scene = built.scene;

const { svg, stats } = renderSvgWithStats(scene, settings);
console.log(
  `scene: 1aku FMN, residues within ${cutoffA} Å: ${scene.atoms.length} atoms, ${scene.bonds.length} bonds, ` +
    `${scene.residueLabels.length} residue labels; SVG ${(svg.length / 1024).toFixed(1)} KiB, ` +
    `${stats.labelsPlaced.length} labels placed, ${stats.labelsSkipped.length} skipped`,
);

const svgTimes = timeRuns(SVG_WARMUP_RUNS, SVG_RUNS, () => renderSvg(scene, settings));
const svgMedian = median(svgTimes);
console.log(
  `renderSvg ${settings.widthPx}×${settings.heightPx}: median ${svgMedian.toFixed(2)} ms over ${SVG_RUNS} runs ` +
    `(min ${Math.min(...svgTimes).toFixed(2)}, max ${Math.max(...svgTimes).toFixed(2)}); target < ${SVG_TARGET_MS} ms: ` +
    (svgMedian < SVG_TARGET_MS ? "met" : "MISSED"),
);

let font = "";
const pngTimes = timeRuns(PNG_WARMUP_RUNS, PNG_RUNS, () => {
  font = renderPng(svg).font.source;
});
console.log(
  `renderPng ${settings.widthPx}×${settings.heightPx}: median ${median(pngTimes).toFixed(1)} ms over ${PNG_RUNS} runs ` +
    `(min ${Math.min(...pngTimes).toFixed(1)}, max ${Math.max(...pngTimes).toFixed(1)}); font: ${font}`,
);

// View bytes: the same views as `npm run bench:load` serves (generator seed "bench-views", one item per
// task), each distinct picture once; gzip at level 9 and brotli at quality 11, as stored static forms would be.
const complexes: GeneratorComplex[] = readdirSync(DEMO_STRUCTURES)
  .filter((f) => f.endsWith(".pdb"))
  .sort()
  .map((file) => {
    const bytes = readFileSync(path.join(DEMO_STRUCTURES, file));
    const text = bytes.toString("utf8");
    const loaded = loadGeneratorComplex({
      pdbId: findStructurePdbId(file, text) ?? path.basename(file, ".pdb"),
      file,
      text,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
    if (!loaded.ok) throw new Error(`${file}: ${loaded.reason}`);
    return loaded.complex;
  });
const generated = generateItems({
  complexes,
  tasks: [...TASK_IDS],
  perTask: 1,
  seed: "bench-views",
  renderSettings: { widthPx: 1024, heightPx: 1024 },
});
if (!generated.ok) throw new Error(generated.error);
const views = new Map<string, Uint8Array>();
for (const item of generated.items)
  for (const image of renderItemImages(item, "svg")) views.set(image.file, image.bytes);
const forms = {
  raw: (b: Uint8Array) => b.byteLength,
  gzip: (b: Uint8Array) => gzipSync(b, { level: 9 }).byteLength,
  brotli: (b: Uint8Array) =>
    brotliCompressSync(b, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: b.byteLength },
    }).byteLength,
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const bytesLine = Object.entries(forms)
  .map(([name, size]) => {
    const sizes = [...views.values()].map(size);
    return `${name} median ${kb(median(sizes))}, max ${kb(Math.max(...sizes))}`;
  })
  .join("; ");
console.log(
  `view bytes (${views.size} views of ${generated.items.length} items, demo structures, render settings ` +
    `v${DEFAULT_RENDER_SETTINGS.version}): ${bytesLine}`,
);
