// Shortcut audit (lib/shortcuts): for every task, chance and knowledge-free strategies (option text, option pose,
// polar distance, most-common answer) run on generated items, with 95 % Wilson intervals.
//   npm run bench:shortcuts -- [--structures DIR] [--items 1000] [--tasks all|t1,t5,...] [--recipe paper|beyond|both] [--held-out-split]
// Loads every complex under DIR (default ../shared/data/structures: PLIP test PDBs and PoseBusters PDB + SDF pairs),
// generates items (options only: no image is rendered) with successive run seeds until each task has --items items or
// the complexes allow no further distinct item, and prints one table per recipe. "beyond" switches on the generator
// options beyond the paper: T4 hard negatives, T5/T6/T8 balanced distractors (tasks without options are left out).
// --held-out-split (T5, T6, T8 unless --tasks says otherwise): the complexes are split into two halves by a hash of
// their PDB id; each half gives half the items; the best option-only rule (strategies of the audit and the option-set
// structure rules) is chosen on one half and measured on the other, the learned attacker is trained on one half and
// tested on the other (both ways), and the run ends with one summary line.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type GeneratorComplex, generateItems, loadGeneratorComplex } from "@/lib/generate";
import { findStructurePdbId, groupStructureFiles, isStructureFile } from "@/lib/import/structure-files";
import { auditShortcuts, byT4Polarity, formatShortcutTable } from "@/lib/shortcuts/audit";
import { toShortcutItem } from "@/lib/shortcuts/from-generated";
import {
  type HeldOutResult,
  OPTION_STRUCTURE_RULES,
  crossValidateAttacker,
  crossValidateBestRule,
} from "@/lib/shortcuts/option-structure";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { SHORTCUT_STRATEGIES, type ShortcutItem } from "@/lib/shortcuts/strategies";
import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

const USAGE = `npm run bench:shortcuts -- [--items N] [--tasks all|t1,t5,…] [--recipe paper|beyond|both] [--structures DIR] [--held-out-split]
  Generates N items per task (options only, no rendering) from the structures folder (default ../shared/data/structures)
  and prints chance and every knowledge-free strategy's accuracy with a 95 % Wilson interval, task × strategy.
  --held-out-split: complexes split in two halves (N/2 items from each); option-only rules and a learned attacker
  are chosen or trained on one half and measured on the other (T5, T6, T8 by default).`;
let parsed;
try {
  parsed = parseArgs({
    options: {
      structures: { type: "string" },
      items: { type: "string", default: "1000" },
      tasks: { type: "string", default: "all" },
      recipe: { type: "string", default: "both" },
      "held-out-split": { type: "boolean", default: false },
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
const heldOut = values["held-out-split"];
const HELD_OUT_TASKS: TaskId[] = ["translation_rotation", "rotation_rotation", "interaction_location"];
const tasks: TaskId[] =
  values.tasks === "all"
    ? heldOut
      ? HELD_OUT_TASKS
      : [...TASK_IDS]
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
  interaction_location: { distractors: "balanced" },
};
const recipes = values.recipe === "both" || heldOut ? ["paper", "beyond"] : [values.recipe];
if (recipes.some((r) => r !== "paper" && r !== "beyond"))
  throw new Error(`--recipe must be paper, beyond or both, got ${values.recipe}`);

function listFiles(dir: string, rel = ""): string[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) =>
      e.isDirectory()
        ? listFiles(dir, rel ? `${rel}/${e.name}` : e.name)
        : e.isFile()
          ? [rel ? `${rel}/${e.name}` : e.name]
          : [],
    );
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
    ...(group.ligand && ligandBytes
      ? { ligandFile: group.ligand, ligandText: ligandBytes.toString("utf8"), ligandSha256: sha(ligandBytes) }
      : {}),
  });
  if (r.ok) complexes.push(r.complex);
  else process.stderr.write(`skip ${group.protein}: ${r.reason}\n`);
}
process.stderr.write(`${complexes.length} complexes loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

/** Up to `target` distinct items of one task: successive run seeds, stopping when a run adds nothing new. */
function collect(
  taskId: TaskId,
  params: Record<string, unknown> | undefined,
  pool: readonly GeneratorComplex[] = complexes,
  wanted = target,
  label = "",
): ShortcutItem[] {
  const out: ShortcutItem[] = [];
  const seen = new Set<string>();
  for (let run = 0; out.length < wanted && run < 200; run++) {
    const r = generateItems({
      complexes: [...pool],
      tasks: [taskId],
      perTask: Math.min(wanted - out.length, 200),
      seed: `shortcuts/${label}${run}`,
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
      if (out.length >= wanted) break;
    }
    if (added === 0) break;
  }
  return out;
}

if (!heldOut) {
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
    process.stdout.write(
      `\n${title} — ${items.length} items, ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    process.stdout.write(`${formatShortcutTable(auditShortcuts(items, { groupOf: byT4Polarity }))}\n`);
  }
} else {
  // Halves by a hash of the PDB id (never by file order), so a complex's items all fall on one side.
  const halves: [GeneratorComplex[], GeneratorComplex[]] = [[], []];
  [...complexes]
    .sort((a, b) => (sha(Buffer.from(a.pdbId)) < sha(Buffer.from(b.pdbId)) ? -1 : 1))
    .forEach((c, i) => halves[i % 2]!.push(c));
  process.stderr.write(
    `held-out split: ${halves[0].map((c) => c.pdbId).join(" ")} | ${halves[1].map((c) => c.pdbId).join(" ")}\n`,
  );
  const optionRules = [...SHORTCUT_STRATEGIES.filter((s) => s.needs === "option-text"), ...OPTION_STRUCTURE_RULES];
  const summary = new Map<string, { rule: HeldOutResult | null; attacker: HeldOutResult | null }>();
  const pctCi = (r: HeldOutResult | null) => {
    if (!r) return "—";
    const w = wilsonInterval(Math.round(r.exact * r.n), r.n);
    return `${(100 * r.exact).toFixed(1)} % (${(100 * w.low).toFixed(1)}–${(100 * w.high).toFixed(1)}, n ${r.n})`;
  };
  for (const recipe of recipes) {
    for (const taskId of tasks) {
      if (recipe === "beyond" && !BEYOND_PAPER[taskId]) continue;
      const params = recipe === "beyond" ? BEYOND_PAPER[taskId] : undefined;
      const started = performance.now();
      const folds = halves.map((half, h) => collect(taskId, params, half, Math.ceil(target / 2), `half${h}/`));
      const generated = performance.now() - started;
      const n = folds.reduce((s, f) => s + f.length, 0);
      const rule = crossValidateBestRule(folds, optionRules);
      const attacker = crossValidateAttacker(folds);
      summary.set(`${recipe}/${taskId}`, { rule, attacker });
      const all = folds.flat();
      const inSample = auditShortcuts(all, { strategies: optionRules })[0];
      process.stdout.write(
        `${recipe} ${taskId}: ${n} items (${folds.map((f) => f.length).join(" + ")}), ${(generated / Math.max(1, n)).toFixed(1)} ms per item; ` +
          `best option-only rule held out ${pctCi(rule)}; learned attacker held out ${pctCi(attacker)}; ` +
          `best rule in sample (all items, chosen after the fact) ${inSample?.best ? `${inSample.best.id} ${(100 * inSample.best.exact).toFixed(1)} %` : "—"}\n`,
      );
    }
  }
  const fmt = (r: HeldOutResult | null | undefined) => (r ? (100 * r.exact).toFixed(1) : "—");
  const get = (recipe: string, taskId: TaskId) => summary.get(`${recipe}/${taskId}`);
  process.stdout.write(
    `shortcuts: balanced variant, best option-only rule T5 ${fmt(get("beyond", "translation_rotation")?.rule)} %, T6 ${fmt(get("beyond", "rotation_rotation")?.rule)} %, T8 ${fmt(get("beyond", "interaction_location")?.rule)} %; ` +
      `learned attacker T5 ${fmt(get("beyond", "translation_rotation")?.attacker)} %, T6 ${fmt(get("beyond", "rotation_rotation")?.attacker)} %, T8 ${fmt(get("beyond", "interaction_location")?.attacker)} % (chance 25); ` +
      `paper recipe T5 ${fmt(get("paper", "translation_rotation")?.rule)} %, T6 ${fmt(get("paper", "rotation_rotation")?.rule)} %\n`,
  );
}
