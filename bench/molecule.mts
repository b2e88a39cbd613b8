// Benchmark (not a test): parse + prepare + H-bonds on the largest shared entry, 1n7g (11034 atoms).
//   npm run bench:molecule [-- --runs 20] [--process-runs 3]
// Prints cold and warm in-process timings (target < 100 ms warm, median, on the project machine), then the
// whole-process time of `npm run hbonds` on the same file beside PLIP's (`plipcmd -f 1n7g.pdb -t`, Debian
// package `plip`), start-up included: runs in turn (ours, PLIP, ours, ...), median wall time of each and the
// median of the per-pair ratios. Without plipcmd on PATH only our time is printed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { formatParseError, parsePdb } from "@/lib/molecule/parse";
import { prepareComplex } from "@/lib/molecule/prepare";
import { findComplexHBonds } from "@/lib/molecule/hbonds";

const FILE = path.resolve(import.meta.dirname, "../../shared/data/structures/plip-test-pdb/1n7g.pdb");
const WARMUP_RUNS = 5;
const TARGET_WARM_MS = 100;

const { values } = parseArgs({
  options: { runs: { type: "string", default: "20" }, "process-runs": { type: "string", default: "3" } },
});
const runs = Number(values.runs);
const processRuns = Number(values["process-runs"]);
const ROOT = path.resolve(import.meta.dirname, "..");
const text = fs.readFileSync(FILE, "utf8");

interface Timing {
  parseMs: number;
  prepareMs: number;
  hbondsMs: number;
  totalMs: number;
  bonds: number;
  atoms: number;
  pocketAtoms: number;
}

function runOnce(): Timing {
  const t0 = performance.now();
  const parsed = parsePdb(text, "1n7g.pdb");
  if (!parsed.ok) throw new Error(formatParseError(parsed.error));
  const t1 = performance.now();
  const prepared = prepareComplex(parsed.structure, { ligandId: "NDP:A:701" });
  if (!prepared.ok) throw new Error(prepared.reason);
  const t2 = performance.now();
  const bonds = findComplexHBonds(prepared.complex);
  const t3 = performance.now();
  return {
    parseMs: t1 - t0,
    prepareMs: t2 - t1,
    hbondsMs: t3 - t2,
    totalMs: t3 - t0,
    bonds: bonds.length,
    atoms: parsed.structure.atoms.length,
    pocketAtoms: prepared.complex.pocketAtoms.length,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const cold = runOnce();
for (let i = 1; i < WARMUP_RUNS; i++) runOnce();
const warm: Timing[] = [];
for (let i = 0; i < runs; i++) warm.push(runOnce());

const fmt = (x: number) => x.toFixed(1).padStart(7);
console.log(
  `1n7g: ${cold.atoms} atoms, ligand NDP:A:701, pocket ${cold.pocketAtoms} heavy atoms, ${cold.bonds} H-bonds`,
);
console.log(
  `cold (first run)        total ${fmt(cold.totalMs)} ms  (parse ${fmt(cold.parseMs)}, prepare ${fmt(cold.prepareMs)}, hbonds ${fmt(cold.hbondsMs)})`,
);
const med = (k: keyof Timing) => median(warm.map((t) => t[k] as number));
console.log(
  `warm median of ${runs}     total ${fmt(med("totalMs"))} ms  (parse ${fmt(med("parseMs"))}, prepare ${fmt(med("prepareMs"))}, hbonds ${fmt(med("hbondsMs"))})`,
);
console.log(`warm min                total ${fmt(Math.min(...warm.map((t) => t.totalMs)))} ms`);
console.log(`target < ${TARGET_WARM_MS} ms warm: ${med("totalMs") < TARGET_WARM_MS ? "met" : "NOT met"}`);

// ------------------------------------------------------------------------------------------------
// Whole process: `npm run hbonds` against PLIP

/** Wall seconds of one run of a command (its output discarded); throws when it fails. */
function wallSeconds(command: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${r.status ?? r.signal}): ${r.stderr.slice(0, 500)}`);
  return s;
}

const hasPlip = spawnSync("sh", ["-c", "command -v plipcmd"], { stdio: "ignore" }).status === 0;
const plipOut = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plip-"));
const ours = () => wallSeconds("npm", ["run", "--silent", "hbonds", "--", FILE], ROOT);
const plip = () => wallSeconds("plipcmd", ["-f", FILE, "-t", "-o", plipOut], plipOut);
ours(); // first run builds the CLI bundle; not counted
const oursRuns: number[] = [];
const plipRuns: number[] = [];
for (let i = 0; i < processRuns; i++) {
  oursRuns.push(ours());
  if (hasPlip) plipRuns.push(plip());
}
fs.rmSync(plipOut, { recursive: true, force: true });
const sec = (x: number) => `${x.toFixed(2)} s`;
console.log(
  `whole process, median of ${processRuns}: npm run hbonds ${sec(median(oursRuns))} (min ${sec(Math.min(...oursRuns))}, max ${sec(Math.max(...oursRuns))})`,
);
if (hasPlip) {
  const ratios = oursRuns.map((t, i) => plipRuns[i]! / t);
  console.log(
    `                         PLIP plipcmd -t  ${sec(median(plipRuns))} (min ${sec(Math.min(...plipRuns))}, max ${sec(Math.max(...plipRuns))})`,
  );
  console.log(`PLIP / ours, median of the paired ratios: ${median(ratios).toFixed(1)}× (goal ≥ 5×)`);
} else console.log("PLIP: plipcmd not on PATH (Debian: apt-get install plip); no comparison");
