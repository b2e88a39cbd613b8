// Option-text-only accuracies of the MC tasks (T5, T6, T8) over generated items (lib/generate/mc-validity.ts).
//   npx tsx bench/mc-validity.mts [--structures DIR] [--items 1000]
// Loads every complex under DIR (default ../shared/data/structures), generates items with
// successive run seeds until each MC task has --items items, and prints the expected accuracy of
// the sign-mirror, median-of-options and odd-one-out strategies (chance 25 %).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type GeneratorComplex, generateItems, loadGeneratorComplex } from "@/lib/generate";
import { measureOptionTextStrategies } from "@/lib/generate/mc-validity";
import type { McLetter, TaskId } from "@/lib/tasks/types";

const { values } = parseArgs({
  options: { structures: { type: "string" }, items: { type: "string" }, tasks: { type: "string" } },
});
const root = values.structures ?? path.resolve(import.meta.dirname, "../../shared/data/structures");
const target = Number(values.items ?? 1000);
const tasks = (values.tasks ?? "translation_rotation,rotation_rotation,interaction_location").split(",") as TaskId[];

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const complexes: GeneratorComplex[] = [];
for (const file of fs
  .readdirSync(path.join(root, "plip-test-pdb"))
  .filter((f) => f.endsWith(".pdb"))
  .sort()) {
  const bytes = fs.readFileSync(path.join(root, "plip-test-pdb", file));
  const r = loadGeneratorComplex({
    pdbId: file.slice(0, 4),
    file,
    text: bytes.toString("utf8"),
    sha256: sha(bytes),
    prepareOptions: { includeSugars: file === "4rdl.pdb" },
  });
  if (r.ok) complexes.push(r.complex);
}
process.stderr.write(`${complexes.length} complexes\n`);

for (const taskId of tasks) {
  const items: { options: string[]; letter: McLetter }[] = [];
  for (let run = 0; items.length < target && run < 200; run++) {
    const r = generateItems({
      complexes,
      tasks: [taskId],
      perTask: Math.min(target - items.length, 200),
      seed: `mc-validity/${run}`,
      renderSettings: { widthPx: 64, heightPx: 64 },
    });
    if (!r.ok) throw new Error(r.error);
    for (const item of r.items) {
      const gold = item.gold as { letter: McLetter; options: string[] };
      items.push({ options: gold.options, letter: gold.letter });
    }
  }
  const report = measureOptionTextStrategies(items.slice(0, target));
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  process.stdout.write(
    `${taskId}: ${report.items} items; sign-mirror ${pct(report.accuracy["sign-mirror"])}, median-of-options ${pct(report.accuracy["median-of-options"])}, odd-one-out ${pct(report.accuracy["odd-one-out"])} (chance 25 %; worst excess ${report.worstExcessPoints} points)\n`,
  );
}
