import "server-only";
import { inferTaskFromPath } from "@/lib/import/task-inference";
import { planVlmevalkitRow, readVlmevalkitHeader, type VlmevalkitColumns } from "@/lib/import/vlmevalkit-row";
import { FatalImportError, type ImportContext } from "./import-context";
import { prepareItem } from "./item-writer";
import { loadPlannedImages, type ImageMeta } from "./load-images";
import { FileReadError, readDelimitedRows } from "./record-readers";

export function listTsvFiles(files: ReadonlyArray<{ path: string }>): string[] {
  return files.map((f) => f.path).filter((p) => p.toLowerCase().endsWith(".tsv"));
}

async function readHeader(ctx: ImportContext, file: string): Promise<string[]> {
  for await (const row of readDelimitedRows(await ctx.tree.open(file), "\t")) {
    if (row.ok) return row.cells.map((c) => c.trim());
  }
  throw new FatalImportError(file, 1, "header", "the file is empty: expected a header row");
}

/** VLMEvalKit dataset TSVs. A missing required column fails the import (every row would be unreadable). */
export async function importVlmevalkit(ctx: ImportContext): Promise<void> {
  const { tree, report, writer, progress } = ctx;
  const files = listTsvFiles(tree.files);
  if (files.length === 0) throw new FatalImportError(tree.label, 0, "files", "no .tsv file found");
  progress.setTotal(tree.files.filter((f) => files.includes(f.path)).reduce((n, f) => n + f.size, 0));

  // Check every header first, so a wrong column in the second file fails before anything is written.
  const headers = new Map<string, VlmevalkitColumns>();
  for (const file of files) {
    try {
      const header = await readHeader(ctx, file);
      const checked = readVlmevalkitHeader(header);
      if (!checked.ok) {
        for (const p of checked.problems) report.error({ file, line: 1, field: "header", problem: p });
        continue;
      }
      for (const w of checked.warnings) report.warn({ file, line: 1, field: "header", problem: w });
      headers.set(file, checked.columns);
    } catch (e) {
      if (e instanceof FileReadError) throw new FatalImportError(file, e.line, "file", e.message);
      throw e;
    }
  }
  if (report.hasErrors) return;

  for (const file of files) {
    const columns = headers.get(file)!;
    const taskFromPath = inferTaskFromPath(file);
    try {
      progress.setPhase("reading", file);
      // Hashes only (64 hex characters per image), so a pointer can be resolved however far back its row is.
      const rowImages = new Map<string, ImageMeta[]>();
      let header: string[] | null = null;
      for await (const row of readDelimitedRows(progress.meter(await tree.open(file), file), "\t")) {
        if (!header) {
          if (row.ok) header = row.cells.map((c) => c.trim());
          continue;
        }
        report.recordRead();
        if (!row.ok) {
          report.skip({ file, line: row.line, field: "row", problem: row.problem });
          continue;
        }
        if (row.cells.length !== header.length) {
          report.skip({
            file,
            line: row.line,
            field: "row",
            problem: `has ${row.cells.length} cells, the header has ${header.length} (a tab inside an unquoted field?)`,
          });
          continue;
        }
        const record = Object.fromEntries(header.map((h, i) => [h, row.cells[i] ?? ""]));
        const planned = planVlmevalkitRow(record, { file, line: row.line, columns, taskFromPath });
        const loader = { tree, index: ctx.index, pathMode: "resolve" as const, recordFile: file, rowImages };
        if (!planned.ok) {
          for (const s of planned.skips) report.skip(s);
          continue;
        }
        const images = await loadPlannedImages(planned.plan.images, loader);
        if (!images.ok) {
          report.skip({
            file,
            line: row.line,
            field: columns.image && record[columns.image]?.trim() ? columns.image : (columns.imagePath ?? "image"),
            problem: images.problem,
          });
          continue;
        }
        rowImages.set(
          planned.plan.externalId ?? "",
          images.images.map(({ sha256, mimeType }) => ({ sha256, mimeType })),
        );
        for (const w of planned.warnings) report.warn(w);
        await writer.add(prepareItem(planned.plan, images.images));
      }
    } catch (e) {
      if (e instanceof FileReadError) throw new FatalImportError(file, e.line, "file", e.message);
      throw e;
    }
  }
  await writer.flush();
}
