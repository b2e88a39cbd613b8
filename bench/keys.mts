/**
 * `npm run bench:keys [-- --base <git ref>]`: recomputes the H-bond keys (T4/T9: pocket–ligand H-bonds to amino
 * acids, relaxed ChimeraX criteria) and the automatic ligand choice on every structure under
 * ../shared/data/structures and on the demo structures, with this tree's code and with the code of <base> (default
 * `main`, extracted with `git archive` into a temporary folder; nothing is checked out), and prints every key that
 * changed with its reason.
 *
 * With `--dump <file>` it only writes this tree's keys as JSON (the base run uses it).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseStructure } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import { findComplexHBonds } from "@/lib/molecule/hbonds";
import type { Structure } from "@/lib/molecule/types";

interface KeyBond {
  text: string;
  donorType: string;
  acceptorType: string;
}
interface ComplexKey {
  ligand: string;
  ligandReason: string | null;
  bonds: KeyBond[];
  error?: string;
}

const ROOT = process.cwd();
const sharedAt = process.argv.indexOf("--shared");
const SHARED = sharedAt >= 0 ? process.argv[sharedAt + 1]! : path.resolve(ROOT, "../shared/data/structures");
const DEMO = path.resolve(ROOT, "prisma/demo/structures");

/** Every complex: [label, protein file, ligand file or null]. */
function listComplexes(): [string, string, string | null][] {
  const out: [string, string, string | null][] = [];
  const plip = path.join(SHARED, "plip-test-pdb");
  for (const f of fs
    .readdirSync(plip)
    .filter((f) => f.endsWith(".pdb"))
    .sort())
    out.push([`plip-test-pdb/${f}`, path.join(plip, f), null]);
  const pb = path.join(SHARED, "posebusters-conftest");
  for (const d of fs.readdirSync(pb).sort()) {
    const dir = path.join(pb, d);
    if (!fs.statSync(dir).isDirectory()) continue;
    const files = fs.readdirSync(dir).sort();
    const protein = files.find((f) => f.endsWith(".pdb") && !f.includes("ligand.pdb"));
    const ligand = files.find((f) => /(_ligand\.sdf|_true\.mol2|_ligand\.mol2)$/.test(f));
    if (protein && ligand) out.push([`posebusters-conftest/${d}`, path.join(dir, protein), path.join(dir, ligand)]);
  }
  for (const f of fs
    .readdirSync(DEMO)
    .filter((f) => f.endsWith(".pdb"))
    .sort())
    out.push([`demo/${f}`, path.join(DEMO, f), null]);
  return out;
}

function read(file: string): Structure {
  const r = parseStructure(fs.readFileSync(file, "utf8"), path.basename(file));
  if (!r.ok) throw new Error(`${file}: ${r.error.reason}`);
  return r.structure;
}

function keysOf(): Record<string, ComplexKey> {
  const out: Record<string, ComplexKey> = {};
  for (const [label, protein, ligand] of listComplexes()) {
    try {
      const prepared = prepareComplex(read(protein), ligand ? { ligandStructure: read(ligand) } : {});
      if (!prepared.ok) throw new Error(prepared.reason);
      const c = prepared.complex;
      const bonds = findComplexHBonds(c).map((b) => ({
        text: `${b.proteinAtom.resName} ${b.proteinAtom.resSeq}${b.proteinAtom.iCode} ${b.proteinAtom.name} ${b.proteinAtom.chain}, ${b.ligandAtom.name} (${b.ligandIsDonor ? "ligand donates" : "ligand accepts"})`,
        donorType: b.donorType,
        acceptorType: b.acceptorType,
      }));
      const reason = (c.ligand as { reason?: string }).reason ?? null;
      out[label] = { ligand: c.ligand.id ?? path.basename(ligand ?? ""), ligandReason: reason, bonds };
    } catch (e) {
      out[label] = { ligand: "", ligandReason: null, bonds: [], error: (e as Error).message };
    }
  }
  return out;
}

function baseKeys(ref: string): Record<string, ComplexKey> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-keys-"));
  try {
    const tar = execFileSync("git", ["archive", ref, "lib", "tsconfig.json", "package.json"], {
      cwd: ROOT,
      maxBuffer: 1 << 30,
    });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
    fs.mkdirSync(path.join(dir, "bench"));
    fs.copyFileSync(path.join(ROOT, "bench/keys.mts"), path.join(dir, "bench/keys.mts"));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    fs.symlinkSync(path.join(ROOT, "prisma"), path.join(dir, "prisma"));
    const dump = path.join(dir, "keys.json");
    execFileSync(path.join(ROOT, "node_modules/.bin/tsx"), ["bench/keys.mts", "--dump", dump, "--shared", SHARED], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    return JSON.parse(fs.readFileSync(dump, "utf8")) as Record<string, ComplexKey>;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Why a bond appears or disappears when the ligand is the same, judged with this tree's code. */
async function bondReason(
  label: string,
  text: string,
  before: KeyBond | undefined,
  after: KeyBond | undefined,
): Promise<string> {
  const b = before ?? after!;
  const types = `[donor ${b.donorType}, acceptor ${b.acceptorType}]`;
  // Loaded here, not at the top: the base tree's copy of this script runs only keysOf and has no such modules.
  const { COMPONENT_TEMPLATES } = await import("@/lib/molecule/chemistry/component-templates");
  const { metalCoordinationDistance } = await import("@/lib/molecule/hbond-context");
  const [, protein, ligand] = listComplexes().find(([l]) => l === label)!;
  const prepared = prepareComplex(read(protein), ligand ? { ligandStructure: read(ligand) } : {});
  if (!prepared.ok) return `${text} ${types}`;
  const c = prepared.complex;
  const m = /^(\S+) (-?\d+)(\S?) (\S+) (\S*), (\S+) /.exec(text)!;
  const p = c.pocketAtoms.find(
    (a) => a.resName === m[1] && String(a.resSeq) === m[2] && a.iCode === m[3] && a.name === m[4] && a.chain === m[5],
  );
  const l = c.ligand.atoms.find((a) => a.name === m[6]);
  const d = (x: { x: number; y: number; z: number }, y: { x: number; y: number; z: number }) =>
    Math.hypot(x.x - y.x, x.y - y.y, x.z - y.z);
  const metal =
    p && l
      ? c.pocketAtoms.find(
          (a) =>
            /^[A-Z][a-z]?$/.test(a.element) &&
            !["C", "N", "O", "S", "P", "H", "Cl", "Br", "I", "F", "Se"].includes(a.element) &&
            d(a, p) <= metalCoordinationDistance(a.element) &&
            d(a, l) <= metalCoordinationDistance(a.element),
        )
      : undefined;
  if (!after && metal)
    return `${text} ${types}: metal-bridged, both atoms coordinate ${metal.resName} ${metal.resSeq} (${d(metal, p!).toFixed(2)} and ${d(metal, l!).toFixed(2)} Å)`;
  const resName = l?.resName ?? "";
  if (COMPONENT_TEMPLATES.has(resName)) return `${text} ${types}: ${resName} typed from its CCD template`;
  return `${text} ${types}`;
}

const args = process.argv.slice(2);
const dumpAt = args.indexOf("--dump");
if (dumpAt >= 0) {
  fs.writeFileSync(args[dumpAt + 1]!, JSON.stringify(keysOf()));
} else {
  const baseAt = args.indexOf("--base");
  const ref = baseAt >= 0 ? args[baseAt + 1]! : "main";
  const COMPONENT_TEMPLATES_NAMES = new Set(
    (await import("@/lib/molecule/chemistry/component-templates")).COMPONENT_TEMPLATES.keys(),
  );
  const before = baseKeys(ref);
  const after = keysOf();
  let changed = 0;
  for (const label of Object.keys(after)) {
    const o = before[label];
    const n = after[label]!;
    if (!o) continue;
    if (o.error || n.error) {
      if (o.error !== n.error) console.log(`${label}: error before "${o.error ?? ""}", after "${n.error ?? ""}"`);
      continue;
    }
    if (o.ligand !== n.ligand) {
      changed += 1;
      console.log(
        `${label}: ligand ${o.ligand} → ${n.ligand} (${n.ligandReason}); key ${o.bonds.length} → ${n.bonds.length} bonds`,
      );
      continue;
    }
    const oldBy = new Map(o.bonds.map((b) => [b.text, b]));
    const newBy = new Map(n.bonds.map((b) => [b.text, b]));
    const lines: string[] = [];
    for (const [t, b] of oldBy) if (!newBy.has(t)) lines.push(`  − ${await bondReason(label, t, b, undefined)}`);
    for (const [t, b] of newBy) if (!oldBy.has(t)) lines.push(`  + ${await bondReason(label, t, undefined, b)}`);
    for (const [t, b] of newBy) {
      const ob = oldBy.get(t);
      if (ob && (ob.donorType !== b.donorType || ob.acceptorType !== b.acceptorType))
        lines.push(
          `  ~ ${t}: ${ob.donorType} / ${ob.acceptorType} → ${b.donorType} / ${b.acceptorType}${COMPONENT_TEMPLATES_NAMES.has(n.ligand.split(":")[0]!) ? ` (${n.ligand.split(":")[0]} typed from its CCD template)` : ""}`,
        );
    }
    if (lines.length > 0) {
      changed += 1;
      console.log(`${label} (ligand ${n.ligand}):`);
      for (const l of lines) console.log(l);
    }
  }
  console.log(`keys: ${changed} of ${Object.keys(after).length} complexes changed against ${ref}`);
}
