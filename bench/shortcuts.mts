// Shortcut audit (lib/shortcuts): for every task, chance and knowledge-free strategies (option text, option pose,
// polar distance, most-common answer) run on generated items, with 95 % Wilson intervals.
//   npm run bench:shortcuts -- [--structures DIR] [--items 1000] [--tasks all|t1,t5,...] [--recipe paper|beyond|both]
// Loads every complex under DIR (default ../shared/data/structures: PLIP test PDBs and PoseBusters PDB + SDF pairs),
// generates items (options only: no image is rendered) with successive run seeds until each task has --items items or
// the complexes allow no further distinct item, and prints one table per recipe. "beyond" switches on the generator
// options beyond the paper: T4 hard negatives, T5/T6 balanced distractors (tasks without options are left out).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type GeneratorComplex, generateItems, loadGeneratorComplex } from "@/lib/generate";
import { findStructurePdbId, groupStructureFiles, isStructureFile } from "@/lib/import/structure-files";
import { auditShortcuts, byT4Polarity, formatShortcutTable } from "@/lib/shortcuts/audit";
import { toShortcutItem } from "@/lib/shortcuts/from-generated";
import type { ShortcutItem } from "@/lib/shortcuts/strategies";
import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

const USAGE = `npm run bench:shortcuts -- [--items N] [--tasks all|t1,t5,…] [--recipe paper|beyond|both] [--structures DIR]
  Generates N items per task (options only, no rendering) from the structures folder (default ../shared/data/structures)
  and prints chance and every knowledge-free strategy's accuracy with a 95 % Wilson interval, task × strategy.`;
let parsed;
try {
  parsed = parseArgs({
    options: {
      structures: { type: "string" },
      items: { type: "string", default: "1000" },
      tasks: { type: "string", default: "all" },
      recipe: { type: "string", default: "both" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const root = values.structures ?? path.resolve(import.meta.dirname, "../../shared/data/structures");
const target = Number(values.items);
if (!Number.isInteger(target) || target < 1) throw new Error(`--items must be a whole number ≥ 1, got ${values.items}`);
const tasks: TaskId[] =
  values.tasks === "all"
    ? [...TASK_IDS]
    : values.tasks.split(",").map((t) => {
        const code = /^t([1-9])$/i.exec(t.trim());
        const id = code ? TASK_IDS[Number(code[1]) - 1] : TASK_IDS.find((x) => x === t.trim());
        if (!id) throw new Error(`--tasks: unknown task '${t}'`);
        return id;
      });

/** Generator params of the beyond-paper recipe (each off by default). */
const BEYOND_PAPER: Partial<Record<TaskId, Record<string, unknown>>> = {
  residue_ligand: { negatives: "hard" },
  translation_rotation: { distractors: "balanced" },
  rotation_rotation: { distractors: "balanced" },
};
const recipes = values.recipe === "both" ? ["paper", "beyond"] : [values.recipe];
if (recipes.some((r) => r !== "paper" && r !== "beyond")) throw new Error(`--recipe must be paper, beyond or both, got ${values.recipe}`);

function listFiles(dir: string, rel = ""): string[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? listFiles(dir, rel ? `${rel}/${e.name}` : e.name) : e.isFile() ? [rel ? `${rel}/${e.name}` : e.name] : []));
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const t0 = performance.now();
const complexes: GeneratorComplex[] = [];
const grouped = groupStructureFiles(listFiles(root).filter(isStructureFile));
for (const group of grouped.complexes) {
  const bytes = fs.readFileSync(path.join(root, group.protein));
  const text = bytes.toString("utf8");
  const pdbId = findStructurePdbId(group.protein, text);
  if (!pdbId) continue;
  const ligandBytes = group.ligand ? fs.readFileSync(path.join(root, group.ligand)) : undefined;
  const r = loadGeneratorComplex({
    pdbId,
    file: group.protein,
    text,
    sha256: sha(bytes),
    ...(group.ligand && ligandBytes ? { ligandFile: group.ligand, ligandText: ligandBytes.toString("utf8"), ligandSha256: sha(ligandBytes) } : {}),
  });
  if (r.ok) complexes.push(r.complex);
  else process.stderr.write(`skip ${group.protein}: ${r.reason}\n`);
}
process.stderr.write(`${complexes.length} complexes loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

/** Up to `target` distinct items of one task: successive run seeds, stopping when a run adds nothing new. */
function collect(taskId: TaskId, params: Record<string, unknown> | undefined): ShortcutItem[] {
  const out: ShortcutItem[] = [];
  const seen = new Set<string>();
  for (let run = 0; out.length < target && run < 200; run++) {
    const r = generateItems({
      complexes,
      tasks: [taskId],
      perTask: Math.min(target - out.length, 200),
      seed: `shortcuts/${run}`,
      ...(params ? { params: { [taskId]: params } } : {}),
      renderSettings: { widthPx: 64, heightPx: 64 },
    });
    if (!r.ok) throw new Error(r.error);
    let added = 0;
    for (const item of r.items) {
      // Deterministic tasks (T9: one item per complex) give the same items for every seed: count each once.
      const identity = `${item.pdbId}\u0000${JSON.stringify(item.fields.residue ?? null)}\u0000${item.canonicalAnswer}\u0000${JSON.stringify(item.gold)}`;
      if (taskId === "pocket_ligand" || taskId === "residue_ligand") {
        if (seen.has(identity)) continue;
        seen.add(identity);
      }
      out.push(toShortcutItem(item));
      added++;
      if (out.length >= target) break;
    }
    if (added === 0) break;
  }
  return out;
}

for (const recipe of recipes) {
  const started = performance.now();
  const items: ShortcutItem[] = [];
  for (const taskId of tasks) {
    if (recipe === "beyond" && !BEYOND_PAPER[taskId]) continue;
    items.push(...collect(taskId, recipe === "beyond" ? BEYOND_PAPER[taskId] : undefined));
  }
  const title =
    recipe === "paper"
      ? "Paper recipe (defaults)"
      : `Beyond-paper options: ${Object.entries(BEYOND_PAPER)
          .map(([t, p]) => `${t} ${JSON.stringify(p)}`)
          .join(", ")}`;
  process.stdout.write(`\n${title} — ${items.length} items, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${formatShortcutTable(auditShortcuts(items, { groupOf: byT4Polarity }))}\n`);
}
