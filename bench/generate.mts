/**
 * Item generator benchmark (not a test): item generation per task, and one ~600-atom generated view
 * → Scene → SVG (target < 20 ms) and → PNG at 1024². Prints medians.
 *
 *   npx tsx bench/generate.mts
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { type GeneratorComplex, generateItems, loadGeneratorComplex, requireViewScene } from "@/lib/generate";
import { renderPng } from "@/lib/render/png";
import { renderSvg } from "@/lib/render/svg";
import { TASK_IDS } from "@/lib/tasks/types";
import { sharedStructurePath } from "@/tests/helpers/shared-data";

const SVG_TARGET_MS = 20;
const RUNS = 50;
const WARMUP = 10;
const PNG_RUNS = 5;
const ITEMS_PER_TASK = 10;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function time(runs: number, warmup: number, body: () => void): number[] {
  for (let i = 0; i < warmup; i++) body();
  return Array.from({ length: runs }, () => {
    const t0 = performance.now();
    body();
    return performance.now() - t0;
  });
}

function load(pdbId: string, file: string, ligandFile?: string): GeneratorComplex {
  const bytes = readFileSync(sharedStructurePath(file));
  const ligand = ligandFile ? readFileSync(sharedStructurePath(ligandFile)) : undefined;
  const loaded = loadGeneratorComplex({
    pdbId,
    file,
    text: bytes.toString("utf8"),
    sha256: createHash("sha256").update(bytes).digest("hex"),
    ...(ligandFile && ligand
      ? {
          ligandFile,
          ligandText: ligand.toString("utf8"),
          ligandSha256: createHash("sha256").update(ligand).digest("hex"),
        }
      : {}),
  });
  if (!loaded.ok) throw new Error(loaded.reason);
  return loaded.complex;
}

// 1s3v (PoseBusters split): 602 pocket + 27 ligand heavy atoms at the 10 Å pocket cut.
const t0 = performance.now();
const complexes = [
  load(
    "1s3v",
    "posebusters-conftest/1s3v/1s3v_protein_one_lig_removed.pdb",
    "posebusters-conftest/1s3v/1s3v_ligand.sdf",
  ),
  load("1aku", "plip-test-pdb/1aku.pdb"),
];
console.log(
  `prepared ${complexes.length} complexes (parse, pocket, bonds, H-bonds) in ${(performance.now() - t0).toFixed(0)} ms`,
);

for (const taskId of TASK_IDS) {
  const t = performance.now();
  const result = generateItems({
    complexes,
    tasks: [taskId],
    perTask: ITEMS_PER_TASK,
    seed: "bench",
    renderSettings: { widthPx: 1024, heightPx: 1024 },
  });
  if (!result.ok) throw new Error(result.error);
  const ms = performance.now() - t;
  console.log(
    `generate ${taskId}: ${result.items.length} items in ${ms.toFixed(0)} ms (${(ms / Math.max(1, result.items.length)).toFixed(1)} ms/item, scenes for scene3d included)`,
  );
}

const result = generateItems({
  complexes: [complexes[0]!],
  tasks: ["pocket_ligand"],
  perTask: 1,
  seed: "bench",
  renderSettings: { widthPx: 1024, heightPx: 1024 },
});
if (!result.ok) throw new Error(result.error);
const item = result.items[0]!;
const settings = item.provenance.renderSettings;
const view = item.views[0]!;
const scene = requireViewScene(item.complexes[0]!, view, settings);
console.log(
  `view: ${item.pdbId} ${view.caption}: ${scene.atoms.length} atoms, ${scene.bonds.length} bonds, ${scene.residueLabels.length} residue labels`,
);

const sceneTimes = time(RUNS, WARMUP, () => requireViewScene(item.complexes[0]!, view, settings));
const svgTimes = time(RUNS, WARMUP, () => renderSvg(scene, settings));
const both = median(sceneTimes) + median(svgTimes);
console.log(`build scene: median ${median(sceneTimes).toFixed(2)} ms over ${RUNS} runs`);
console.log(
  `renderSvg ${settings.widthPx}×${settings.heightPx}: median ${median(svgTimes).toFixed(2)} ms (min ${Math.min(...svgTimes).toFixed(2)}, max ${Math.max(...svgTimes).toFixed(2)}); ` +
    `scene + SVG ${both.toFixed(2)} ms; target < ${SVG_TARGET_MS} ms: ${both < SVG_TARGET_MS ? "met" : "MISSED"}`,
);
const svg = renderSvg(scene, settings);
const pngTimes = time(PNG_RUNS, 1, () => renderPng(svg));
console.log(
  `renderPng ${settings.widthPx}×${settings.heightPx}: median ${median(pngTimes).toFixed(0)} ms over ${PNG_RUNS} runs`,
);
