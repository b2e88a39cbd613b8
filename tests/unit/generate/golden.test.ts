// needs-shared-structures: whole file (module-level code reads ../shared/data/structures)
/**
 * One golden image per task (256×256, small 6 Å pockets of 1osn and 4qnb): the SVG is compared byte
 * for byte; the PNG beside it is for people to look at.
 * `UPDATE_GOLDEN=1 npx vitest run --project unit tests/unit/generate/golden.test.ts` rewrites both.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateItems, renderItemImages } from "@/lib/generate";
import { renderPng } from "@/lib/render/png";
import { TASK_IDS, type TaskId } from "@/lib/tasks/types";
import { loadComplex } from "./complexes";

const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../fixtures/generate");
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === "1";
const SIZE_PX = 256;

/** The most telling image of each task (0-based view index). */
const GOLDEN_VIEW: Record<TaskId, { index: number; what: string }> = {
  translation: { index: 3, what: "front view after the move" },
  rotation: { index: 3, what: "front view after the roll" },
  zooming: { index: 3, what: "front view after the zoom" },
  residue_ligand: { index: 0, what: "one residue + ligand, front" },
  translation_rotation: { index: 3, what: "reference after the transformation" },
  rotation_rotation: { index: 3, what: "front view after the two rolls" },
  docking: { index: 6, what: "pocket + displaced ligand" },
  interaction_location: { index: 0, what: "pocket + ligand, front" },
  pocket_ligand: { index: 1, what: "pocket + ligand, left view" },
};

const complexes = [
  loadComplex({ pdbId: "1osn", file: "plip-test-pdb/1osn.pdb", pocketCutoffA: 6 }),
  loadComplex({ pdbId: "4qnb", file: "plip-test-pdb/4qnb.pdb", pocketCutoffA: 6 }),
];
const result = generateItems({
  complexes,
  tasks: TASK_IDS,
  perTask: 1,
  seed: "golden",
  renderSettings: { widthPx: SIZE_PX, heightPx: SIZE_PX },
});
if (!result.ok) throw new Error(result.error);

describe.each(TASK_IDS)("golden image: %s", (taskId) => {
  const item = result.items.find((i) => i.taskId === taskId)!;
  const { index, what } = GOLDEN_VIEW[taskId];
  const svgFile = path.join(FIXTURES_DIR, `${taskId}.svg`);
  const pngFile = path.join(FIXTURES_DIR, `${taskId}.png`);

  it(`${what} matches the golden SVG byte for byte`, () => {
    const [image] = renderItemImages({ ...item, views: [item.views[index]!] }, "svg");
    const svg = new TextDecoder().decode(image!.bytes);
    if (UPDATE_GOLDEN || !existsSync(svgFile)) {
      mkdirSync(FIXTURES_DIR, { recursive: true });
      writeFileSync(svgFile, svg);
      writeFileSync(pngFile, renderPng(svg).png);
    }
    expect(svg).toBe(readFileSync(svgFile, "utf8"));
  });

  it("has a committed PNG of the same size", () => {
    const png = readFileSync(pngFile);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([SIZE_PX, SIZE_PX]);
  });
});
