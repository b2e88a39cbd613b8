// Generates an item bundle (lib/bundle/format.ts) from a folder of structures.
//   npm run generate -- --structures DIR --tasks all|t1,t2,... --per-task N --seed S --out DIR
//                       [--size 1024] [--format png|svg] [--params FILE.json] [--force]
// DIR holds PDB complexes, and/or PDB + ligand SDF/MOL2 pairs in subfolders (PDBbind/PoseBusters
// style). Files that cannot be used are reported on stderr and in the manifest, never skipped
// silently. The same arguments give byte-identical output (sorted inputs, no timestamps, sorted keys).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createBundleManifest, toBundleAnswer, toBundleItem, toJsonLines } from "@/lib/generate/bundle";
import {
  type GeneratorComplex,
  type ImageFormat,
  generateItems,
  loadGeneratorComplex,
  renderItemImages,
  toStableJson,
} from "@/lib/generate";
import { findStructurePdbId, groupStructureFiles, isStructureFile } from "@/lib/import/structure-files";
import { formatShortcutTable } from "@/lib/shortcuts/audit";
import { TASK_IDS, type TaskId } from "@/lib/tasks/types";

const USAGE =
  "usage: npm run generate -- --structures DIR --tasks all|t1,t2,... --per-task N --seed S --out DIR [--size 1024] [--format png|svg] [--params FILE.json] [--force]";
/** A progress line at most this often per task (and always at its end). */
const PROGRESS_EVERY_ITEMS = 10;
const BUNDLE_FILES = ["manifest.json", "items.jsonl", "answers.jsonl", "images"];

function fail(message: string): never {
  process.stderr.write(`generate: ${message}\n`);
  process.exit(1);
}

function parseTasks(raw: string): TaskId[] {
  if (raw === "all") return [...TASK_IDS];
  const out: TaskId[] = [];
  for (const part of raw.split(",").map((s) => s.trim().toLowerCase())) {
    const code = /^t([1-9])$/.exec(part);
    const id = code ? TASK_IDS[Number(code[1]) - 1] : TASK_IDS.find((t) => t === part);
    if (!id) fail(`--tasks: unknown task '${part}': use all, t1..t9, or ids (${TASK_IDS.join(", ")})`);
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

function listFiles(root: string, dir = ""): string[] {
  const entries = fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return listFiles(root, rel);
    return e.isFile() ? [rel] : [];
  });
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function seconds(t0: number): string {
  return `${((performance.now() - t0) / 1000).toFixed(1)} s`;
}

function main(): void {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        structures: { type: "string" },
        tasks: { type: "string", default: "all" },
        "per-task": { type: "string" },
        seed: { type: "string" },
        out: { type: "string" },
        size: { type: "string", default: "1024" },
        format: { type: "string", default: "png" },
        params: { type: "string" },
        force: { type: "boolean", default: false },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.structures || !values.out || values.seed === undefined || values["per-task"] === undefined) {
    fail(`--structures, --per-task, --seed and --out are required\n${USAGE}`);
  }
  const perTask = Number(values["per-task"]);
  if (!Number.isInteger(perTask) || perTask < 1)
    fail(`--per-task must be a whole number ≥ 1, got '${values["per-task"]}'`);
  const size = Number(values.size);
  if (!Number.isInteger(size) || size < 16 || size > 8192)
    fail(`--size must be a whole number of pixels in 16..8192, got '${values.size}'`);
  if (values.format !== "png" && values.format !== "svg") fail(`--format must be png or svg, got '${values.format}'`);
  const format: ImageFormat = values.format;
  const tasks = parseTasks(values.tasks);
  let params: Record<string, unknown> | undefined;
  if (values.params) {
    try {
      params = JSON.parse(fs.readFileSync(values.params, "utf8")) as Record<string, unknown>;
    } catch (e) {
      fail(`--params ${values.params}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const root = values.structures;
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) fail(`--structures ${root}: not a folder`);
  const out = values.out;
  if (fs.existsSync(out)) {
    const present = fs.readdirSync(out);
    if (present.length > 0 && !values.force)
      fail(`--out ${out} is not empty (add --force to replace its bundle files)`);
    for (const name of BUNDLE_FILES) fs.rmSync(path.join(out, name), { recursive: true, force: true });
  }

  // 1. Structures → complexes.
  const t0 = performance.now();
  const files = listFiles(root).filter(isStructureFile);
  const grouped = groupStructureFiles(files);
  const skipped: { file: string; reason: string }[] = grouped.skipped.map((s) => ({ file: s.file, reason: s.problem }));
  const complexes: GeneratorComplex[] = [];
  for (const group of grouped.complexes) {
    const proteinBytes = fs.readFileSync(path.join(root, group.protein));
    const text = proteinBytes.toString("utf8");
    const pdbId = findStructurePdbId(group.protein, text);
    const label = group.ligand ? `${group.protein} + ${group.ligand}` : group.protein;
    if (!pdbId) {
      skipped.push({
        file: label,
        reason: "no PDB id in the HEADER record or the file/folder name (questions name complexes by it)",
      });
      continue;
    }
    const ligandBytes = group.ligand ? fs.readFileSync(path.join(root, group.ligand)) : undefined;
    const loaded = loadGeneratorComplex({
      pdbId,
      file: group.protein,
      text,
      sha256: sha256(proteinBytes),
      ...(group.ligand && ligandBytes
        ? { ligandFile: group.ligand, ligandText: ligandBytes.toString("utf8"), ligandSha256: sha256(ligandBytes) }
        : {}),
    });
    if (!loaded.ok) skipped.push({ file: label, reason: loaded.reason });
    else {
      for (const n of loaded.complex.parseNotes ?? []) process.stderr.write(`note ${n}\n`);
      complexes.push(loaded.complex);
    }
  }
  for (const s of skipped)
    process.stderr.write(`skip ${s.reason.startsWith(s.file) ? s.reason : `${s.file}: ${s.reason}`}\n`);
  process.stderr.write(`${complexes.length} complexes prepared, ${skipped.length} skipped (${seconds(t0)})\n`);
  if (complexes.length === 0) fail("no usable complex");

  // 2. Items.
  let taskStart = performance.now();
  let lastTask: TaskId | null = null;
  const result = generateItems({
    complexes,
    tasks,
    perTask,
    seed: values.seed,
    params: params as Partial<Record<TaskId, unknown>> | undefined,
    renderSettings: { widthPx: size, heightPx: size },
    onProgress: ({ taskId, done, total }) => {
      if (taskId !== lastTask) {
        lastTask = taskId;
        taskStart = performance.now();
      }
      if (done % PROGRESS_EVERY_ITEMS === 0 || done === total)
        process.stderr.write(`[${taskId}] generated ${done}/${total} items, ${seconds(taskStart)}\n`);
    },
  });
  if (!result.ok) fail(result.error);
  for (const r of result.reports) {
    for (const x of r.ineligible) process.stderr.write(`[${r.taskId}] not used: ${x.file}: ${x.reason}\n`);
    for (const f of r.failures) process.stderr.write(`[${r.taskId}] item ${f.index + 1} not made: ${f.reason}\n`);
    for (const n of r.notes) process.stderr.write(`[${r.taskId}] note: ${n}\n`);
    if (r.optionTextStrategies) {
      const a = r.optionTextStrategies.accuracy;
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      process.stderr.write(
        `[${r.taskId}] option-text-only accuracy over ${r.optionTextStrategies.items} items (chance 25%): sign-mirror ${pct(a["sign-mirror"])}, median-of-options ${pct(a["median-of-options"])}, odd-one-out ${pct(a["odd-one-out"])}\n`,
      );
    }
  }
  const audits = result.reports.flatMap((r) => r.shortcuts ?? []);
  if (audits.length > 0)
    process.stderr.write(
      `shortcut audit (also in manifest.json, recipe.reports[].shortcuts):\n${formatShortcutTable(audits)}\n`,
    );

  // 3. Images and records.
  fs.mkdirSync(path.join(out, "images"), { recursive: true });
  const itemRecords: unknown[] = [];
  const answerRecords: unknown[] = [];
  const written = new Set<string>();
  const byTask = new Map<TaskId, number>();
  let renderStart = performance.now();
  let renderTask: TaskId | null = null;
  for (const item of result.items) {
    if (item.taskId !== renderTask) {
      renderTask = item.taskId;
      renderStart = performance.now();
    }
    const images = renderItemImages(item, format);
    for (const img of images) {
      if (written.has(img.file)) continue;
      fs.writeFileSync(path.join(out, img.file), img.bytes);
      written.add(img.file);
    }
    itemRecords.push(toBundleItem(item, images));
    answerRecords.push(toBundleAnswer(item));
    const done = (byTask.get(item.taskId) ?? 0) + 1;
    byTask.set(item.taskId, done);
    const total = result.reports.find((r) => r.taskId === item.taskId)?.generated ?? done;
    if (done % PROGRESS_EVERY_ITEMS === 0 || done === total)
      process.stderr.write(`[${item.taskId}] rendered ${done}/${total} items, ${seconds(renderStart)}\n`);
  }

  const recipe = {
    structures: root,
    tasks,
    perTask,
    seed: values.seed,
    size,
    format,
    params: params ?? {},
    complexes: complexes.map((c) => ({
      file: c.file,
      ligandFile: c.ligandFile,
      pdbId: c.pdbId,
      sha256: c.sha256,
      ligand: c.ligandLabel,
      ...(c.parseNotes !== undefined ? { parseNotes: c.parseNotes } : {}),
    })),
    skipped,
    reports: result.reports,
  };
  const manifest = createBundleManifest(recipe, result.items);
  fs.writeFileSync(path.join(out, "manifest.json"), `${toStableJson(manifest)}\n`);
  fs.writeFileSync(path.join(out, "items.jsonl"), toJsonLines(itemRecords));
  fs.writeFileSync(path.join(out, "answers.jsonl"), toJsonLines(answerRecords));
  const counts = tasks.map((t) => `${t} ${manifest.counts[t] ?? 0}`).join(", ");
  process.stderr.write(
    `wrote ${result.items.length} items (${counts}) and ${written.size} images to ${out} in ${seconds(t0)}\n`,
  );
}

main();
