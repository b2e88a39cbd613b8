/**
 * `npm run bench:metal-sites [-- --dir <folder> ...] [--within 3.5]`: the observed metal–O/N/S distances of every
 * metal site in the PDB files under ../shared/data/structures (and any further --dir folders, searched recursively),
 * read with the project's parser, beside the coordination distance the metal rule uses (metalCoordinationDistance,
 * hbond-context.ts: Harding's longest target distance + 0.5 Å).
 *
 * Prints, per metal and donor class (water O, other O, N, S), every distance up to --within, then a summary line per
 * metal: how many ligand atoms fall inside the cut-off, how many in the gap between the cut-off and --within (second
 * shell or unusually long bonds), and the longest distance inside. Then the depositors' own word: the LINK records
 * (wwPDB metalc connections, same asymmetric unit only) between a metal and an O/N/S, and whether each lies inside the
 * cut-off; and every contact inside the cut-off that a file with LINK records for that metal does not list.
 * A benchmark that prints figures, not a test.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { isMetal } from "@/lib/molecule/chemistry/bonds";
import { metalCoordinationDistance } from "@/lib/molecule/hbond-context";
import { parsePdb } from "@/lib/molecule/parse";
import type { Atom } from "@/lib/molecule/types";

const { values } = parseArgs({
  options: { dir: { type: "string", multiple: true, default: [] }, within: { type: "string", default: "3.5" } },
});
const WITHIN = Number(values.within);
const ROOT = path.resolve(import.meta.dirname, "..");
const dirs = [path.resolve(ROOT, "../shared/data/structures"), ...values.dir!.map((d) => path.resolve(d))];

function pdbFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...pdbFiles(p));
    else if (/\.(pdb|ent)$/i.test(e.name)) out.push(p);
  }
  return out.sort();
}

type DonorClass = "O water" | "O other" | "N" | "S";
interface Contact {
  file: string;
  linked: boolean;
  metal: string;
  site: string;
  ligand: string;
  cls: DonorClass;
  d: number;
}

const WATERS = new Set(["HOH", "WAT", "DOD", "H2O"]);
const contacts: Contact[] = [];
const seenFiles = new Set<string>();
let metalSites = 0;
for (const dir of dirs) {
  for (const file of pdbFiles(dir)) {
    const text = fs.readFileSync(file, "utf8");
    // The same entry shipped twice (e.g. by two packages) is counted once.
    const key = `${path.basename(file).toLowerCase()}:${text.length}`;
    if (seenFiles.has(key)) continue;
    seenFiles.add(key);
    const parsed = parsePdb(text, path.basename(file));
    if (!parsed.ok) continue;
    const links = linkRecords(text);
    const atoms = parsed.structure.atoms;
    const metals = atoms.filter((a) => a.element !== "H" && isMetal(a.element));
    const ligands = atoms.filter((a) => a.element === "O" || a.element === "N" || a.element === "S");
    for (const m of metals) {
      metalSites++;
      for (const l of ligands) {
        const d = Math.hypot(l.x - m.x, l.y - m.y, l.z - m.z);
        if (d > WITHIN) continue;
        contacts.push({
          file: path.relative(path.dirname(dir), file),
          linked: links.has(pairKey(m, l)),
          metal: m.element,
          site: label(m),
          ligand: label(l),
          cls: l.element === "O" ? (WATERS.has(l.resName) ? "O water" : "O other") : (l.element as DonorClass),
          d,
        });
      }
    }
  }
}

/** "RES CHAIN NUM ICODE NAME" of both ends of each LINK record within one asymmetric unit (symmetry 1555 or none). */
function linkRecords(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line.startsWith("LINK  ")) continue;
    const sym1 = line.slice(59, 65).trim();
    const sym2 = line.slice(66, 72).trim();
    if ((sym1 && sym1 !== "1555") || (sym2 && sym2 !== "1555")) continue;
    const end = (name: string, res: string, chain: string, seq: string, ic: string) =>
      `${res.trim()} ${chain.trim()} ${Number(seq)} ${ic.trim()} ${name.trim()}`;
    const a = end(line.slice(12, 16), line.slice(17, 20), line.slice(21, 22), line.slice(22, 26), line.slice(26, 27));
    const b = end(line.slice(42, 46), line.slice(47, 50), line.slice(51, 52), line.slice(52, 56), line.slice(56, 57));
    out.add(`${a}|${b}`);
    out.add(`${b}|${a}`);
  }
  return out;
}

function pairKey(a: Atom, b: Atom): string {
  const end = (x: Atom) => `${x.resName} ${x.chain} ${x.resSeq} ${x.iCode} ${x.name}`;
  return `${end(a)}|${end(b)}`;
}

function label(a: Atom): string {
  return `${a.resName} ${a.chain}${a.resSeq}${a.iCode} ${a.name}`;
}

console.log(`metal sites: ${metalSites} metal atoms in ${seenFiles.size} PDB files (${dirs.join(", ")})`);
const byMetal = new Map<string, Contact[]>();
for (const c of contacts) byMetal.set(c.metal, [...(byMetal.get(c.metal) ?? []), c]);
for (const [metal, list] of [...byMetal.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const cut = metalCoordinationDistance(metal);
  console.log(`\n${metal}: coordination cut-off ${cut.toFixed(2)} Å`);
  for (const cls of ["O water", "O other", "N", "S"] as const) {
    const ds = list.filter((c) => c.cls === cls).sort((a, b) => a.d - b.d);
    if (ds.length === 0) continue;
    console.log(`  ${cls.padEnd(7)} ${ds.map((c) => c.d.toFixed(2)).join(" ")}`);
  }
  const inside = list.filter((c) => c.d <= cut);
  const gap = list.filter((c) => c.d > cut);
  const longest = Math.max(...inside.map((c) => c.d));
  console.log(
    `  inside ${inside.length} (longest ${inside.length ? longest.toFixed(2) : "-"} Å), between cut-off and ${WITHIN} Å: ${gap.length}`,
  );
  for (const c of gap.filter((c) => c.d <= cut + 0.3))
    console.log(
      `    near the cut-off: ${c.file} ${c.site} – ${c.ligand} ${c.d.toFixed(2)} Å${c.linked ? " (LINK)" : ""}`,
    );
  const linked = list.filter((c) => c.linked);
  const filesWithLinks = new Set(linked.map((c) => c.file));
  const unlisted = inside.filter((c) => !c.linked && filesWithLinks.has(c.file));
  console.log(
    `  LINK records: ${linked.length}, inside the cut-off ${linked.filter((c) => c.d <= cut).length}` +
      (linked.length ? ` (longest ${Math.max(...linked.map((c) => c.d)).toFixed(2)} Å)` : "") +
      `; inside but not linked (files with ${metal} LINKs): ${unlisted.length}`,
  );
  for (const c of linked.filter((c) => c.d > cut))
    console.log(`    linked, outside the cut-off: ${c.file} ${c.site} – ${c.ligand} ${c.d.toFixed(2)} Å`);
  for (const c of unlisted)
    console.log(`    inside, not linked: ${c.file} ${c.site} – ${c.ligand} ${c.d.toFixed(2)} Å`);
}
