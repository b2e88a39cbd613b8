import "server-only";
import path from "node:path/posix";
import { TASK_IDS } from "@/lib/tasks/types";
import {
  BUNDLE_FILES,
  planBundleItem,
  readBundleAnswerLine,
  readBundleManifest,
  type LocatedAnswer,
} from "@/lib/import/bundle-record";
import { FatalImportError, type ImportContext } from "./import-context";
import { prepareItem } from "./item-writer";
import { loadPlannedImages } from "./load-images";
import { FileReadError, readJsonlRecords } from "./record-readers";
import { readSmallFile } from "./source-tree";

const MAX_MANIFEST_BYTES = 1024 * 1024;

/** The folder holding manifest.json: the import root or the single folder inside a zip. */
export function findBundleRoot(files: ReadonlyArray<{ path: string }>): string | null {
  const manifests = files
    .map((f) => f.path)
    .filter((p) => path.basename(p) === BUNDLE_FILES.manifest && p.split("/").length <= 2);
  if (manifests.length === 0) return null;
  const shallowest = Math.min(...manifests.map((m) => m.split("/").length));
  const top = manifests.filter((m) => m.split("/").length === shallowest);
  if (top.length > 1)
    throw new FatalImportError(
      top.join(", "),
      0,
      "manifest",
      "more than one bundle in this import; import them one at a time",
    );
  const dir = path.dirname(top[0]!);
  return dir === "." ? "" : dir;
}

async function readRecordsOrFail<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof FileReadError) throw new FatalImportError(file, e.line, "file", e.message);
    throw e;
  }
}

/**
 * The app's own bundle (lib/bundle/format.ts). answers.jsonl is read first into a map by id
 * (small: text and gold per item), then items.jsonl streams one line at a time, each item's
 * images read as it goes.
 */
export async function importBundle(ctx: ImportContext): Promise<void> {
  const { tree, report, writer, progress } = ctx;
  const root = findBundleRoot(tree.files);
  if (root === null)
    throw new FatalImportError(tree.label, 0, "manifest", `no ${BUNDLE_FILES.manifest}: not an item bundle`);
  const at = (name: string) => (root ? `${root}/${name}` : name);
  const manifestFile = at(BUNDLE_FILES.manifest);
  const manifest = readBundleManifest(
    manifestFile,
    (await readSmallFile(tree, manifestFile, MAX_MANIFEST_BYTES)).toString("utf8"),
  );
  if (!manifest.ok) {
    for (const e of manifest.errors) report.error(e);
    return;
  }
  const itemsFile = at(BUNDLE_FILES.items);
  const answersFile = at(BUNDLE_FILES.answers);
  for (const f of [itemsFile, answersFile]) {
    if (!ctx.index.has(f))
      throw new FatalImportError(
        f,
        0,
        "file",
        `missing: a bundle needs ${BUNDLE_FILES.items} and ${BUNDLE_FILES.answers} beside ${BUNDLE_FILES.manifest}`,
      );
  }
  progress.setTotal(
    tree.files.filter((f) => f.path === itemsFile || f.path === answersFile).reduce((n, f) => n + f.size, 0),
  );

  progress.setPhase("reading", answersFile);
  const answers = new Map<string, LocatedAnswer>();
  await readRecordsOrFail(answersFile, async () => {
    for await (const rec of readJsonlRecords(progress.meter(await tree.open(answersFile), answersFile))) {
      if (!rec.ok) {
        report.skip({ file: answersFile, line: rec.line, field: "line", problem: rec.problem });
        continue;
      }
      const parsed = readBundleAnswerLine(answersFile, rec.line, rec.value);
      if (!parsed.ok) {
        for (const s of parsed.skips) report.skip(s);
        continue;
      }
      const twin = answers.get(parsed.answer.id);
      if (twin) {
        report.skip({
          file: answersFile,
          line: rec.line,
          field: "id",
          problem: `'${parsed.answer.id}' already answered on line ${twin.line}; this line is ignored`,
        });
        continue;
      }
      answers.set(parsed.answer.id, { answer: parsed.answer, line: rec.line });
    }
  });

  progress.setPhase("reading", itemsFile);
  const used = new Set<string>();
  const perTask = new Map<string, number>();
  await readRecordsOrFail(itemsFile, async () => {
    for await (const rec of readJsonlRecords(progress.meter(await tree.open(itemsFile), itemsFile))) {
      report.recordRead();
      if (!rec.ok) {
        report.skip({ file: itemsFile, line: rec.line, field: "line", problem: rec.problem });
        continue;
      }
      const id = (rec.value as { id?: unknown } | null)?.id;
      if (typeof id === "string") used.add(id);
      const planned = planBundleItem(rec.value, {
        root,
        file: itemsFile,
        line: rec.line,
        answersFile,
        findAnswer: (i) => answers.get(i),
      });
      if (!planned.ok) {
        for (const s of planned.skips) report.skip(s);
        continue;
      }
      perTask.set(planned.plan.taskId, (perTask.get(planned.plan.taskId) ?? 0) + 1);
      const images = await loadPlannedImages(planned.plan.images, {
        tree,
        index: ctx.index,
        pathMode: "exact",
        recordFile: itemsFile,
        ownSvg: ctx.ownSvg,
      });
      if (!images.ok) {
        report.skip({ file: itemsFile, line: rec.line, field: "images", problem: images.problem });
        continue;
      }
      for (const w of planned.warnings) report.warn(w);
      await writer.add(prepareItem(planned.plan, images.images));
    }
  });
  await writer.flush();

  for (const [id, a] of answers) {
    if (!used.has(id))
      report.warn({
        file: answersFile,
        line: a.line,
        field: "id",
        problem: `no item '${id}' in ${BUNDLE_FILES.items}; answer ignored`,
      });
  }
  // The manifest's counts are per task (or a total); a mismatch means a partial copy of the bundle.
  for (const [key, expected] of Object.entries(manifest.manifest.counts)) {
    const total = [...perTask.values()].reduce((a, b) => a + b, 0);
    const seen =
      key === "items" || key === "total"
        ? total
        : (TASK_IDS as readonly string[]).includes(key)
          ? (perTask.get(key) ?? 0)
          : undefined;
    if (seen !== undefined && seen !== expected) {
      report.warn({
        file: manifestFile,
        line: 0,
        field: `counts.${key}`,
        problem: `manifest says ${expected}, ${BUNDLE_FILES.items} has ${seen} valid item(s)`,
      });
    }
  }
}
