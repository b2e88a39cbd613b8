// needs-shared-structures: whole file
/**
 * T4 images label every atom of the target residue with its atom name (and every ligand
 * atom), and labels keep a fixed offset from their atom across the images of one item.
 */
import { describe, expect, it } from "vitest";
import { generateItems, renderItemImages, renderItemViews, requireViewScene } from "@/lib/generate";
import { type LabelOffset, replayOffset } from "@/lib/render/label-placer";
import { renderSvgWithStats } from "@/lib/render/svg";
import { parseTexts } from "../render/svg-parse";
import { loadComplex, loadTestComplexes } from "./complexes";

const SIZE = { widthPx: 1024, heightPx: 1024 };

describe("T4 images label every atom of the target residue", () => {
  const complexes = [
    loadComplex({ pdbId: "1osn", file: "plip-test-pdb/1osn.pdb" }),
    loadComplex({ pdbId: "1aku", file: "plip-test-pdb/1aku.pdb" }),
  ];
  const r = generateItems({
    complexes,
    tasks: ["residue_ligand"],
    perTask: 6,
    seed: "t4-labels",
    renderSettings: SIZE,
  });
  if (!r.ok) throw new Error(r.error);

  it("generates Pos. and Neg. items", () => {
    expect(r.items).toHaveLength(6);
    expect(new Set(r.items.map((i) => (i.gold as { kind: string }).kind))).toEqual(new Set(["bonds", "none"]));
  });

  it.each(r.items.map((item) => [item.id, item] as const))(
    "%s: every SVG names every residue atom and every ligand atom",
    (_id, item) => {
      const pickers = (item.fields as { pickers: { residues: { atoms: string[] }[]; ligandAtoms: string[] } }).pickers;
      const residueAtoms = pickers.residues[0]!.atoms;
      expect(residueAtoms.length).toBeGreaterThan(3);
      for (const image of renderItemImages(item, "svg")) {
        const texts = parseTexts(new TextDecoder().decode(image.bytes)).map((t) => t.text);
        const counts = new Map<string, number>();
        for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
        // Residue atoms and ligand atoms may share names (O, N1): each name appears once per atom.
        const wanted = new Map<string, number>();
        for (const name of [...residueAtoms, ...pickers.ligandAtoms]) wanted.set(name, (wanted.get(name) ?? 0) + 1);
        for (const [name, n] of wanted)
          expect(counts.get(name) ?? 0, `${image.caption}: ${name}`).toBeGreaterThanOrEqual(n);
      }
    },
  );

  it("the question says the residue's atoms are labelled, and the task version is 3 (v2 labels, v3 ChimeraX H-bonds)", () => {
    expect(r.items[0]!.question).toMatch(
      /Every atom of the residue and every ligand atom is labelled with its atom name/,
    );
    expect(r.items[0]!.taskVersion).toBe(4);
  });
});

describe("labels keep a fixed offset from their atom across the images of an item", () => {
  const r = generateItems({
    complexes: loadTestComplexes(),
    tasks: ["translation"],
    perTask: 6,
    seed: "offsets",
    renderSettings: SIZE,
  });
  if (!r.ok) throw new Error(r.error);

  it.each(r.items.map((item) => [item.id, item] as const))("%s", (_id, item) => {
    const seen = new Map<string, LabelOffset>();
    let compared = 0;
    let kept = 0;
    // As the generator renders them: views that look the same way share remembered offsets.
    for (const { view, stats } of renderItemViews(item)) {
      for (const label of stats.labelsPlaced) {
        // Same atoms seen the same way round: the front view before and after a move or zoom.
        const key = `${view.source}|${view.content}|${view.view}|${label.key}`;
        const before = seen.get(key);
        if (before) {
          compared++;
          const expected = replayOffset(before, label.offset.anchorRadiusPx);
          if (Math.abs(expected.dx - label.offset.dx) < 0.01 && Math.abs(expected.dy - label.offset.dy) < 0.01) kept++;
        } else seen.set(key, label.offset);
      }
    }
    // Nearly every label keeps its offset (one whose old place is now outside the image or under
    // another label moves, and only then).
    expect(compared).toBeGreaterThan(0);
    expect(kept / compared).toBeGreaterThanOrEqual(0.95);
  });

  it("without the shared memory the placer re-solves per image (the test can fail)", () => {
    const item = r.items.find((i) => i.taskId === "translation")!;
    const offsetsOf = (withMemory: boolean) => {
      const memory = new Map<string, LabelOffset>();
      return item.views.map((view) => {
        const scene = requireViewScene(item.complexes[view.source]!, view, item.provenance.renderSettings);
        return renderSvgWithStats(
          scene,
          item.provenance.renderSettings,
          withMemory ? { labelOffsets: memory } : {},
        ).stats.labelsPlaced.map((l) => `${l.key}:${l.offset.dx.toFixed(1)},${l.offset.dy.toFixed(1)}`);
      });
    };
    const fixed = offsetsOf(true);
    const free = offsetsOf(false);
    const moved = (sets: string[][]) =>
      sets.slice(1).reduce((n, s) => n + s.filter((x) => !sets[0]!.includes(x)).length, 0);
    expect(moved(fixed)).toBeLessThan(moved(free));
  });
});
