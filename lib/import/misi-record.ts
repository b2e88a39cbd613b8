import type { TaskId } from "@/lib/tasks/types";
import type { FieldMapping, RecordRole } from "./field-aliases";
import { FIELD_ALIASES } from "./field-aliases";
import { parseImageRefs } from "./image-refs";
import { extractPdbId, getErasedTask, planRecord, readOptions, type PlanResult } from "./item-plan";
import type { ReportEntry } from "./report";
import { inferTaskFromName } from "./task-inference";

export interface MisiRecordContext {
  /** The record's file, relative to the import root. */
  file: string;
  line: number;
  mapping: FieldMapping;
  /** Task named by the file or folder names, if any. */
  taskFromPath: TaskId | null;
  /** Split named by the file or folder names ("train", "test"), if any. */
  splitFromPath: string | null;
}

/** Largest scalar kept per unmapped field in provenance (base64 blobs and long texts are cut). */
const MAX_PROVENANCE_VALUE_CHARS = 200;

const SPLIT_NAMES = ["train", "test", "val", "validation", "dev", "tiny"] as const;

/** "train"/"test"/… from a path, innermost segment first. */
export function inferSplitFromPath(filePath: string): string | null {
  const segments = filePath.toLowerCase().split("/").reverse();
  for (const segment of segments) {
    const tokens = segment.replace(/\.[^.]*$/, "").split(/[^a-z0-9]+/);
    const hit = SPLIT_NAMES.find((s) => tokens.includes(s));
    if (hit) return hit === "validation" ? "val" : hit;
  }
  return null;
}

function describeAliases(role: RecordRole): string {
  return `looked for ${FIELD_ALIASES[role].join(", ")}`;
}

function scalarText(value: unknown): string | null {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Small unmapped values kept for the admin (provenance), so nothing the release carried is lost silently. */
export function keepUnmapped(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = record[key];
    if (v === null || v === undefined) continue;
    if (typeof v === "string")
      out[key] =
        v.length > MAX_PROVENANCE_VALUE_CHARS ? `${v.slice(0, MAX_PROVENANCE_VALUE_CHARS)}… (${v.length} chars)` : v;
    else if (typeof v === "number" || typeof v === "boolean") out[key] = v;
    else out[key] = `(${Array.isArray(v) ? "list" : "object"} not kept)`;
  }
  return out;
}

/**
 * Maps one record of the MiSI-Bench release (JSON, JSONL, CSV or TSV; layout undocumented) to an
 * item plan: fields found by name (field-aliases.ts), the task from a task/category field or the
 * path, the answer parsed with the task grammar, images as references to resolve against the files.
 */
export function planMisiRecord(record: Record<string, unknown>, ctx: MisiRecordContext): PlanResult {
  const { file, line, mapping } = ctx;
  const at = (field: string, problem: string): ReportEntry => ({ file, line, field, problem });
  const get = (role: RecordRole): unknown =>
    mapping.roles[role] === undefined ? undefined : record[mapping.roles[role]!];
  const skips: ReportEntry[] = [];

  // Task: the record's own field; the path only when the record names none. A name that is no
  // known task is not replaced by the path's guess (it may be a task this app does not have).
  const taskKey = mapping.roles.task;
  const taskValue = scalarText(get("task"));
  const warnings: ReportEntry[] = [];
  let taskId: TaskId | null = null;
  if (taskValue) {
    taskId = inferTaskFromName(taskValue);
    if (!taskId)
      skips.push(
        at(
          taskKey!,
          `'${taskValue}' is not a known task name (expected one of the nine MiSI-Bench tasks, e.g. Translation, T5, RotRot)`,
        ),
      );
  } else {
    taskId = ctx.taskFromPath;
    if (!taskId)
      skips.push(
        at(
          taskKey ?? "task",
          `cannot tell the task: no task field (${describeAliases("task")}) and the file and folder names name none`,
        ),
      );
  }

  const questionKey = mapping.roles.question;
  const question = scalarText(get("question"));
  if (!questionKey) skips.push(at("question", `missing (${describeAliases("question")})`));
  else if (!question) skips.push(at(questionKey, "empty or not text"));

  const answerKey = mapping.roles.answer;
  if (!answerKey) skips.push(at("answer", `missing (${describeAliases("answer")})`));

  const imagesKey = mapping.roles.images;
  let images: ReturnType<typeof parseImageRefs> = { ok: true, refs: [] };
  if (!imagesKey) skips.push(at("images", `missing (${describeAliases("images")})`));
  else {
    images = parseImageRefs(get("images"));
    if (!images.ok) skips.push(at(imagesKey, images.problem));
  }

  if (!taskId || skips.length > 0 || !images.ok) return { ok: false, skips };

  const rawId = scalarText(get("id"));
  const letterOptions = mapping.optionLetterKeys ? readOptions(mapping.optionLetterKeys.map((k) => record[k])) : null;
  const options = readOptions(get("options")) ?? letterOptions;
  const pdbValue = get("pdb");
  const pdbId = extractPdbId(pdbValue);
  if (pdbValue !== undefined && pdbValue !== null && pdbValue !== "" && !pdbId) {
    warnings.push(
      at(mapping.roles.pdb!, `'${String(pdbValue)}' is not a PDB id (4 characters, a digit first); left out`),
    );
  }
  const split = scalarText(get("split"))?.toLowerCase() || ctx.splitFromPath || "test";

  const result = planRecord({
    source: "misi_release",
    task: getErasedTask(taskId),
    file,
    line,
    // Release ids restart per task file, so the task qualifies them (Item has @@unique([source, externalId])).
    externalId: rawId ? `${taskId}:${rawId}` : null,
    split,
    question: question!,
    answer: get("answer"),
    options,
    pdbId,
    images: images.refs,
    fieldNames: { answer: answerKey!, images: imagesKey!, question: questionKey! },
    provenance: {
      importedFrom: "misi_release",
      file,
      line,
      ...(rawId ? { id: rawId } : {}),
      ...(mapping.unmapped.length ? { unmappedFields: keepUnmapped(record, mapping.unmapped) } : {}),
    },
  });
  if (!result.ok) return result;
  return { ok: true, plan: result.plan, warnings: [...warnings, ...result.warnings] };
}
