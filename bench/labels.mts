/**
 * Label legibility audit (not a test): T9 and T4 items from every shared structure, each view rendered as
 * the generator renders it. Prints label sizes (image px at the render size; CSS px when the image is shown
 * 600 and 696 px wide), how many views label each residue the key or question names, how many contact-shell
 * residues and (T9) how many of their polar atoms reach the minimum number of views, ligand atom labels skipped, and label boxes that cover
 * another label's text.
 *
 *   npm run bench:labels            (MISI_SHARED_DIR points at the shared/ folder when it is not ../shared)
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type GeneratorComplex, generateItems, loadGeneratorComplex, renderItemViews } from "@/lib/generate";
import { auditItemLabels, namedResiduesOf, residueLabelTextsOf, viewsLabelling } from "@/lib/generate/label-coverage";
import { findStructurePdbId, groupStructureFiles, isStructureFile } from "@/lib/import/structure-files";
import { LABEL_CAP_HEIGHT_EM } from "@/lib/render/text-metrics";
import { sharedStructuresDir } from "@/tests/helpers/shared-location";

/** Display widths (CSS px) of the main image: the layout's contract at 1366×768, and the enlarged viewer at 1280×800. */
const DISPLAY_WIDTHS_CSS_PX = [600, 696] as const;
const T4_ITEMS = 40;
const MIN_VIEWS = 2;

function listFiles(root: string, dir = ""): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) return listFiles(root, rel);
      return e.isFile() ? [rel] : [];
    });
}

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const root = sharedStructuresDir();
if (!fs.existsSync(root)) {
  console.error(`${root} not found (set MISI_SHARED_DIR to the shared/ folder)`);
  process.exit(1);
}
const grouped = groupStructureFiles(listFiles(root).filter(isStructureFile));
const complexes: GeneratorComplex[] = [];
for (const group of grouped.complexes) {
  const bytes = fs.readFileSync(path.join(root, group.protein));
  const text = bytes.toString("utf8");
  const pdbId = findStructurePdbId(group.protein, text);
  if (!pdbId) continue;
  const ligandBytes = group.ligand ? fs.readFileSync(path.join(root, group.ligand)) : undefined;
  const loaded = loadGeneratorComplex({
    pdbId,
    file: group.protein,
    text,
    sha256: sha256(bytes),
    ...(group.ligand && ligandBytes
      ? { ligandFile: group.ligand, ligandText: ligandBytes.toString("utf8"), ligandSha256: sha256(ligandBytes) }
      : {}),
  });
  if (loaded.ok) complexes.push(loaded.complex);
}
console.log(`${complexes.length} complexes from ${root}`);

for (const [taskId, perTask] of [
  ["pocket_ligand", complexes.length],
  ["residue_ligand", T4_ITEMS],
] as const) {
  const r = generateItems({ complexes, tasks: [taskId], perTask, seed: "bench-labels" });
  if (!r.ok) throw new Error(r.error);
  const settings = r.renderSettings;
  let named = 0;
  let namedOk = 0;
  let namedZero = 0;
  let shell = 0;
  let shellOk = 0;
  let polarAtoms = 0;
  let polarAtomsOk = 0;
  let polarAtomsNone = 0;
  let ligandAtoms = 0;
  let ligandAtomsOk = 0;
  let skipped = 0;
  let requested = 0;
  let overlaps = 0;
  let forced = 0;
  let svgBytes = 0;
  let views = 0;
  const fonts = { atom: new Set<number>(), residue: new Set<number>(), residueAtom: new Set<number>() };
  const misses: string[] = [];
  for (const item of r.items) {
    const rendered = renderItemViews(item);
    const audit = auditItemLabels(item, rendered);
    for (const ref of namedResiduesOf(item)) {
      const n = viewsLabelling(audit, ref);
      named++;
      if (n >= MIN_VIEWS) namedOk++;
      else misses.push(`${item.pdbId} ${residueLabelTextsOf(ref)[1]}: ${n} view(s)`);
      if (n === 0) namedZero++;
    }
    for (const text of audit.contactResidueTexts) {
      shell++;
      if ((audit.residueViews.get(text) ?? 0) >= MIN_VIEWS) shellOk++;
    }
    for (const n of audit.residueAtomViews.values()) {
      polarAtoms++;
      if (n >= MIN_VIEWS) polarAtomsOk++;
      if (n === 0) polarAtomsNone++;
    }
    for (const n of audit.ligandAtomViews.values()) {
      ligandAtoms++;
      if (n >= MIN_VIEWS) ligandAtomsOk++;
    }
    skipped += audit.ligandLabelsSkipped;
    requested += audit.ligandLabelsRequested;
    overlaps += audit.overlaps.length;
    forced += audit.forced;
    for (const f of audit.fontSizesPx.atom) fonts.atom.add(Math.round(f * 100) / 100);
    for (const f of audit.fontSizesPx.residue) fonts.residue.add(Math.round(f * 100) / 100);
    for (const f of audit.fontSizesPx.residueAtom) fonts.residueAtom.add(Math.round(f * 100) / 100);
    for (const v of rendered) svgBytes += v.svg.length;
    views += rendered.length;
  }
  const sizeLine = (kind: keyof typeof fonts) =>
    [...fonts[kind]]
      .map(
        (f) =>
          `${f} px font (capitals ${(f * LABEL_CAP_HEIGHT_EM).toFixed(1)} px) at ${settings.widthPx} px; ` +
          DISPLAY_WIDTHS_CSS_PX.map(
            (w) =>
              `at ${w} CSS px: ${((f * w) / settings.widthPx).toFixed(1)} font / ${((f * LABEL_CAP_HEIGHT_EM * w) / settings.widthPx).toFixed(1)} capitals`,
          ).join("; "),
      )
      .join(" | ");
  console.log(
    `\n${taskId}: ${r.items.length} items, ${views} views, mean SVG ${(svgBytes / Math.max(1, views) / 1024).toFixed(1)} KiB`,
  );
  console.log(`  atom labels:    ${sizeLine("atom")}`);
  console.log(`  residue labels: ${sizeLine("residue")}`);
  if (fonts.residueAtom.size > 0) console.log(`  residue-atom labels: ${sizeLine("residueAtom")}`);
  console.log(
    `  named residues (key / question) labelled in ≥ ${MIN_VIEWS} views: ${namedOk}/${named}; in no view: ${namedZero}`,
  );
  console.log(`  contact-shell residues labelled in ≥ ${MIN_VIEWS} views: ${shellOk}/${shell}`);
  if (polarAtoms > 0)
    console.log(
      `  contact-shell polar atoms (N, O, S) named in ≥ ${MIN_VIEWS} views: ${polarAtomsOk}/${polarAtoms}; in no view: ${polarAtomsNone}`,
    );
  console.log(
    `  ligand atoms named in ≥ ${MIN_VIEWS} views: ${ligandAtomsOk}/${ligandAtoms}; ligand labels skipped per view: ${skipped}/${requested}`,
  );
  console.log(`  label boxes covering another label's text: ${overlaps}; forced labels: ${forced}`);
  for (const m of misses.slice(0, 12)) console.log(`    short: ${m}`);
}
