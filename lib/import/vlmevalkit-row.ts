import type { TaskId } from "@/lib/tasks/types";
import { normalizeFieldName } from "./field-aliases";
import { parseImageRefs } from "./image-refs";
import { extractPdbId, getErasedTask, planRecord, type PlanResult } from "./item-plan";
import { keepUnmapped } from "./misi-record";
import type { ReportEntry } from "./report";
import { inferTaskFromName } from "./task-inference";

/**
 * VLMEvalKit's dataset TSV (one row per question): `index`, `image` (base64, a list of base64, or
 * the index of a row with the same image) or `image_path`, `question`, options `A`..`D`, `answer`,
 * `category`, `split`, and optionally `hint`. Column names are matched case-insensitively.
 */
export interface VlmevalkitColumns {
  index: string;
  question: string;
  answer: string;
  image: string | null;
  imagePath: string | null;
  category: string | null;
  split: string | null;
  hint: string | null;
  pdb: string | null;
  options: [string, string, string, string] | null;
  /** Columns none of the above use (kept in provenance when short). */
  other: string[];
}

export type HeaderResult =
  { ok: true; columns: VlmevalkitColumns; warnings: string[] } | { ok: false; problems: string[] };

const KNOWN: Record<string, keyof Omit<VlmevalkitColumns, "options" | "other">> = {
  index: "index",
  question: "question",
  answer: "answer",
  image: "image",
  imagepath: "imagePath",
  category: "category",
  split: "split",
  hint: "hint",
  pdb: "pdb",
  pdbid: "pdb",
};

/** Checks a header row; missing `index`, `question`, `answer` or both image columns is fatal for the file. */
export function readVlmevalkitHeader(header: readonly string[]): HeaderResult {
  const found: Partial<Record<keyof VlmevalkitColumns, string>> = {};
  const letters = new Map<string, string>();
  const other: string[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const name of header) {
    const norm = normalizeFieldName(name);
    const twin = seen.get(norm);
    if (twin !== undefined) problems.push(`column '${name}' repeats column '${twin}'`);
    seen.set(norm, name);
    const role = KNOWN[norm];
    if (role) found[role] = name;
    else if (/^[a-d]$/.test(norm) && name.trim().length === 1) letters.set(norm.toUpperCase(), name);
    else other.push(name);
  }
  for (const required of ["index", "question", "answer"] as const) {
    if (!found[required]) problems.push(`missing column '${required}' (columns are: ${header.join(", ")})`);
  }
  if (!found.image && !found.imagePath) problems.push("missing column 'image' (base64) or 'image_path'");
  if (problems.length) return { ok: false, problems };
  const warnings: string[] = [];
  const optionLetters = ["A", "B", "C", "D"].filter((l) => letters.has(l));
  if (optionLetters.length > 0 && optionLetters.length < 4) {
    warnings.push(`option columns ${optionLetters.join(", ")} only; MC items need A, B, C and D`);
    other.push(...letters.values());
  }
  return {
    ok: true,
    warnings,
    columns: {
      index: found.index!,
      question: found.question!,
      answer: found.answer!,
      image: found.image ?? null,
      imagePath: found.imagePath ?? null,
      category: found.category ?? null,
      split: found.split ?? null,
      hint: found.hint ?? null,
      pdb: found.pdb ?? null,
      options:
        optionLetters.length === 4
          ? (["A", "B", "C", "D"].map((l) => letters.get(l)!) as [string, string, string, string])
          : null,
      other,
    },
  };
}

export interface VlmevalkitRowContext {
  file: string;
  line: number;
  columns: VlmevalkitColumns;
  taskFromPath: TaskId | null;
}

/** pandas writes a missing value as an empty cell (or "nan" when it was stringified first). */
function cell(row: Record<string, string>, column: string | null): string {
  if (!column) return "";
  const v = (row[column] ?? "").trim();
  return v.toLowerCase() === "nan" ? "" : v;
}

/** Maps one TSV row to an item plan. */
export function planVlmevalkitRow(row: Record<string, string>, ctx: VlmevalkitRowContext): PlanResult {
  const { file, line, columns } = ctx;
  const at = (field: string, problem: string): ReportEntry => ({ file, line, field, problem });
  const skips: ReportEntry[] = [];
  const warnings: ReportEntry[] = [];

  const index = cell(row, columns.index);
  if (!index) skips.push(at(columns.index, "empty index"));

  const category = cell(row, columns.category);
  let taskId: TaskId | null = null;
  if (category) {
    taskId = inferTaskFromName(category);
    if (!taskId)
      skips.push(
        at(
          columns.category!,
          `'${category}' is not a known task name (expected one of the nine MiSI-Bench tasks, e.g. Translation, T5, RotRot)`,
        ),
      );
  } else {
    taskId = ctx.taskFromPath;
    if (!taskId)
      skips.push(at(columns.category ?? "category", "cannot tell the task: no category, and the file name names none"));
  }

  const imageCell = cell(row, columns.image);
  const pathCell = cell(row, columns.imagePath);
  const imageField = imageCell ? columns.image! : (columns.imagePath ?? columns.image!);
  const images = imageCell ? parseImageRefs(imageCell, { rowReferences: true }) : parseImageRefs(pathCell);
  if (!images.ok) skips.push(at(imageField, images.problem));

  if (!taskId || !images.ok || skips.length > 0) return { ok: false, skips };

  const options = columns.options ? columns.options.map((c) => cell(row, c)) : null;
  const fullOptions = options && options.every((o) => o !== "") ? options : null;
  if (options && !fullOptions && options.some((o) => o !== "")) {
    warnings.push(at(columns.options!.join("/"), "some of the options A–D are empty; options left out"));
  }
  const hint = cell(row, columns.hint);
  const question = cell(row, columns.question);
  const split = cell(row, columns.split).toLowerCase() || "test";

  const result = planRecord({
    source: "vlmevalkit",
    task: getErasedTask(taskId),
    file,
    line,
    externalId: index,
    split,
    question: hint && question ? `Hint: ${hint}\n${question}` : question,
    answer: cell(row, columns.answer),
    options: fullOptions,
    pdbId: extractPdbId(cell(row, columns.pdb)),
    images: images.refs,
    fieldNames: { answer: columns.answer, images: imageField, question: columns.question },
    provenance: {
      importedFrom: "vlmevalkit",
      file,
      line,
      index,
      ...(category ? { category } : {}),
      ...(columns.other.length ? { otherColumns: keepUnmapped(row, columns.other) } : {}),
    },
  });
  if (!result.ok) return result;
  return { ok: true, plan: result.plan, warnings: [...warnings, ...result.warnings] };
}
