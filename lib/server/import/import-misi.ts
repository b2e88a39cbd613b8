import "server-only";
import { mapFieldNames, type FieldMapping } from "@/lib/import/field-aliases";
import { inferSplitFromPath, planMisiRecord } from "@/lib/import/misi-record";
import { inferTaskFromPath } from "@/lib/import/task-inference";
import type { ReportEntry } from "@/lib/import/report";
import { FatalImportError, type ImportContext } from "./import-context";
import { prepareItem } from "./item-writer";
import { loadPlannedImages } from "./load-images";
import { FileReadError, readDelimitedRows, readJsonRecords, readJsonlRecords } from "./record-readers";

export type RecordFormat = "json" | "jsonl" | "csv" | "tsv";

export function recordFormatOf(filePath: string): RecordFormat | null {
  const lower = filePath.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".tsv")) return "tsv";
  return null;
}

/** Metadata files that sit beside the data in dataset releases (Hugging Face, Croissant, notebooks). */
const METADATA_FILE =
  /(^|\/)(dataset_infos?|dataset_dict|state|config|croissant|metadata|package(-lock)?|tsconfig|manifest)\.json$/i;

export function listRecordFiles(files: ReadonlyArray<{ path: string }>): string[] {
  return files.map((f) => f.path).filter((p) => recordFormatOf(p) !== null && !METADATA_FILE.test(p));
}

type RawResult =
  | { line: number; ok: true; record: Record<string, unknown> }
  | { line: number; ok: false; problem: string; field: string };

/** Records of one file as plain objects, whatever the format; JSON keys and containers become id/split hints. */
async function* readRawRecords(ctx: ImportContext, file: string, format: RecordFormat): AsyncGenerator<RawResult> {
  const stream = ctx.progress.meter(await ctx.tree.open(file), file);
  if (format === "json" || format === "jsonl") {
    const reader = format === "json" ? readJsonRecords(stream) : readJsonlRecords(stream);
    for await (const rec of reader) {
      if (!rec.ok) {
        yield { line: rec.line, ok: false, problem: rec.problem, field: "line" };
        continue;
      }
      if (rec.value === null || typeof rec.value !== "object" || Array.isArray(rec.value)) {
        yield {
          line: rec.line,
          ok: false,
          problem: `expected an object (a record), got ${Array.isArray(rec.value) ? "a list" : typeof rec.value}`,
          field: "record",
        };
        continue;
      }
      const record = rec.value as Record<string, unknown>;
      // `{"<id>": {...}}` keys are ids; `{"test": [...]}` containers are splits.
      const hints: Record<string, unknown> = {};
      if (rec.key !== null) hints.__key = rec.key;
      if (rec.container !== null) hints.__container = rec.container;
      yield { line: rec.line, ok: true, record: { ...record, ...hints } };
    }
    return;
  }
  let header: string[] | null = null;
  for await (const row of readDelimitedRows(stream, format === "tsv" ? "\t" : ",")) {
    if (!row.ok) {
      yield { line: row.line, ok: false, problem: row.problem, field: "row" };
      continue;
    }
    if (!header) {
      header = row.cells.map((c) => c.trim());
      continue;
    }
    if (row.cells.length !== header.length) {
      yield {
        line: row.line,
        ok: false,
        problem: `has ${row.cells.length} cells, the header has ${header.length}`,
        field: "row",
      };
      continue;
    }
    yield { line: row.line, ok: true, record: Object.fromEntries(header.map((h, i) => [h, row.cells[i]])) };
  }
}

function describeMapping(file: string, mapping: FieldMapping): ReportEntry[] {
  const out: ReportEntry[] = [];
  const roles = Object.entries(mapping.roles).map(([role, key]) => `${role}←${key}`);
  out.push({
    file,
    line: 0,
    field: "fields",
    problem: `read as ${roles.join(", ")}${mapping.optionLetterKeys ? `, options←${mapping.optionLetterKeys.join("/")}` : ""}`,
  });
  if (mapping.unmapped.length)
    out.push({
      file,
      line: 0,
      field: "fields",
      problem: `not mapped (kept in provenance when short): ${mapping.unmapped.join(", ")}`,
    });
  for (const s of mapping.shadowed)
    out.push({ file, line: 0, field: s.ignored, problem: `also names the ${s.role}; '${s.used}' was used` });
  return out;
}

/**
 * The MiSI-Bench release, layout unknown: every JSON/JSONL/CSV/TSV file is read as records, field
 * names mapped by alias, the task taken from a task/category field or from the path. A file whose
 * first record has neither a question nor an answer field is not a record file (reported, skipped).
 */
export async function importMisiRelease(ctx: ImportContext): Promise<void> {
  const { tree, report, writer, progress } = ctx;
  const files = listRecordFiles(tree.files);
  if (files.length === 0) throw new FatalImportError(tree.label, 0, "files", "no JSON, JSONL, CSV or TSV files found");
  progress.setTotal(tree.files.filter((f) => files.includes(f.path)).reduce((n, f) => n + f.size, 0));
  let filesWithRecords = 0;

  for (const file of files) {
    const format = recordFormatOf(file)!;
    progress.setPhase("reading", file);
    const taskFromPath = inferTaskFromPath(file);
    const splitFromPath = inferSplitFromPath(file);
    const mappings = new Map<string, FieldMapping>();
    let described = false;
    let notRecords = false;
    try {
      for await (const raw of readRawRecords(ctx, file, format)) {
        if (notRecords) break;
        if (!raw.ok) {
          report.recordRead();
          report.skip({ file, line: raw.line, field: raw.field, problem: raw.problem });
          continue;
        }
        const { __key, __container, ...record } = raw.record;
        const keys = Object.keys(record);
        const signature = keys.join("\u0000");
        let mapping = mappings.get(signature);
        if (!mapping) {
          mapping = mapFieldNames(keys);
          mappings.set(signature, mapping);
          if (!described) {
            if (!mapping.roles.question && !mapping.roles.answer) {
              report.warn({
                file,
                line: 0,
                field: "file",
                problem: `not read as records: its first record has no question or answer field (keys: ${keys.slice(0, 12).join(", ")})`,
              });
              notRecords = true;
              continue;
            }
            for (const e of describeMapping(file, mapping)) report.note(e);
            described = true;
            filesWithRecords += 1;
          }
        }
        report.recordRead();
        if (mapping.roles.id === undefined && typeof __key === "string") {
          record.id = __key;
          mapping = mapFieldNames([...keys, "id"]);
        }
        const containerSplit = typeof __container === "string" ? inferSplitFromPath(__container) : null;
        const planned = planMisiRecord(record, {
          file,
          line: raw.line,
          mapping,
          taskFromPath,
          splitFromPath: containerSplit ?? splitFromPath,
        });
        if (!planned.ok) {
          for (const s of planned.skips) report.skip(s);
          continue;
        }
        const images = await loadPlannedImages(planned.plan.images, {
          tree,
          index: ctx.index,
          pathMode: "resolve",
          recordFile: file,
        });
        if (!images.ok) {
          report.skip({ file, line: raw.line, field: mapping.roles.images ?? "images", problem: images.problem });
          continue;
        }
        for (const w of planned.warnings) report.warn(w);
        await writer.add(prepareItem(planned.plan, images.images));
      }
    } catch (e) {
      if (e instanceof FileReadError) throw new FatalImportError(file, e.line, "file", e.message);
      throw e;
    }
  }
  await writer.flush();
  if (filesWithRecords === 0)
    throw new FatalImportError(
      tree.label,
      0,
      "files",
      "none of the JSON/JSONL/CSV/TSV files holds question/answer records",
    );
}
