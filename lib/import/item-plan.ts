import { z } from "zod";
import { normalizeAnswerText } from "@/lib/tasks/grammar/text";
import { getTask } from "@/lib/tasks/registry";
import { MC_LETTERS, type ParseResult, type RenderResult, type TaskId } from "@/lib/tasks/types";
import type { ImageRef } from "./image-refs";
import type { ReportEntry } from "./report";

/** Item.source values written by imports; "generated" for items made from imported structures. */
export type ImportSource = "bundle" | "misi_release" | "vlmevalkit" | "generated";

export interface PlannedImage {
  /** Participant-visible caption ("Image 1"); never derived from file names. */
  caption: string;
  ref: ImageRef;
}

/** Everything needed to write one item, except the image bytes (read later, one record at a time). */
export interface ItemPlan {
  source: ImportSource;
  externalId: string | null;
  taskId: TaskId;
  taskVersion: number;
  split: string;
  question: string;
  /** Public fields (Item.payload). Never contains the gold answer. */
  payload: Record<string, unknown>;
  pdbId: string | null;
  gold: unknown;
  canonical: string;
  distractors: unknown;
  images: PlannedImage[];
  status: "active" | "flagged";
  statusReason: string | null;
  provenance: Record<string, unknown>;
  generatorVersion: string | null;
  seed: string | null;
  renderSettings: Record<string, unknown> | null;
  /** The Structure row a generated item was made from. */
  structureId?: string | null;
  /** Where the record was read, for report lines. */
  file: string;
  line: number;
}

export type PlanResult = { ok: true; plan: ItemPlan; warnings: ReportEntry[] } | { ok: false; skips: ReportEntry[] };

/**
 * The members of a task that imports use, with the task's own types erased: an importer holds
 * any of the nine tasks and feeds it untrusted JSON, which the task's zod schemas then check.
 */
export interface ErasedTask {
  id: TaskId;
  version: number;
  format: "cloze" | "mc";
  parseAnswer(text: string): ParseResult<unknown>;
  canonicalizeGold(gold: unknown): string;
  fieldsSchema: z.ZodType<unknown>;
  goldSchema: z.ZodType<unknown>;
  itemSchema: z.ZodType<unknown>;
  renderStoredQuestion(fields: unknown): RenderResult;
}

export function getErasedTask(id: TaskId): ErasedTask {
  return getTask(id) as unknown as ErasedTask;
}

/** zod's wording for an absent required value, shortened for report lines. */
function shortenIssue(message: string): string {
  return /^Invalid input: expected \w+, received undefined$/.test(message) ? "missing" : message;
}

/** One line per zod issue, `path: message`, joined with "; " (report lines are single lines). */
export function summarizeZodError(error: z.ZodError, maxIssues = 3): string {
  const parts = error.issues
    .slice(0, maxIssues)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${shortenIssue(i.message)}` : shortenIssue(i.message)));
  if (error.issues.length > maxIssues) parts.push(`and ${error.issues.length - maxIssues} more`);
  return parts.join("; ");
}

/** Classic PDB id (4 characters, a digit first) found in a value such as "1abc", "1ABC_protein" or "pdb1abc". */
export function extractPdbId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = /(?:^|[^A-Za-z0-9])(?:pdb)?([0-9][A-Za-z0-9]{3})(?=$|[^A-Za-z0-9])/i.exec(value.trim());
  return m ? m[1]!.toLowerCase() : null;
}

export type ResolvedAnswer =
  | { ok: true; gold: unknown; canonical: string; goldProblem: null }
  /** The answer parses, but the gold does not validate (an MC key without option commands): flag the item. */
  | { ok: true; gold: unknown; canonical: string; goldProblem: string }
  | { ok: false; problem: string };

function letterOfOptionText(answer: string, options: readonly string[] | null): string | null {
  if (!options) return null;
  const wanted = normalizeAnswerText(answer).toLowerCase();
  const hits = options
    .map((o, i) => (normalizeAnswerText(o).toLowerCase() === wanted ? MC_LETTERS[i] : null))
    .filter(Boolean);
  return hits.length === 1 ? hits[0]! : null;
}

/**
 * The gold of an item from its answer as the source writes it: text in the task grammar
 * (`move x 3`, `B`, `Yes: ARG NH2, O1B`), or a gold JSON object. For MC tasks the gold is the
 * letter plus the four option texts; an answer given as an option's text is mapped to its letter.
 * The canonical text always comes from the task (`canonicalizeGold`), and must agree with the
 * canonical form of what was parsed.
 */
export function resolveAnswer(task: ErasedTask, answer: unknown, options: readonly string[] | null): ResolvedAnswer {
  if (answer !== null && typeof answer === "object" && !Array.isArray(answer)) {
    const gold = task.goldSchema.safeParse(answer);
    if (!gold.success)
      return { ok: false, problem: `gold object is not a valid ${task.id} gold: ${summarizeZodError(gold.error)}` };
    return { ok: true, gold: gold.data, canonical: task.canonicalizeGold(gold.data), goldProblem: null };
  }
  if (typeof answer === "number" && Number.isFinite(answer)) answer = String(answer);
  if (typeof answer !== "string" || answer.trim() === "") return { ok: false, problem: "missing or empty answer" };

  let parsed = task.parseAnswer(answer);
  if (!parsed.ok && task.format === "mc") {
    const letter = letterOfOptionText(answer, options);
    if (letter) parsed = task.parseAnswer(letter);
  }
  if (!parsed.ok)
    return {
      ok: false,
      problem: `'${answer.length > 60 ? `${answer.slice(0, 59)}…` : answer}' does not parse as a ${task.id} answer: ${parsed.error}`,
    };

  const candidate =
    task.format === "mc"
      ? { ...(parsed.value as object), ...(options ? { options: [...options] } : {}) }
      : parsed.value;
  let gold = task.goldSchema.safeParse(candidate);
  // MC items score the letter (spec §4): when the source's option texts are not commands (T5/T6 option images,
  // "Image 8"), or absent, the key is the letter alone; the shown options stay in the public payload.
  if (!gold.success && task.format === "mc") gold = task.goldSchema.safeParse(parsed.value);
  if (!gold.success) {
    const why =
      task.format !== "mc"
        ? summarizeZodError(gold.error)
        : !options
          ? "the source gives no option texts"
          : `the option texts do not form a valid ${task.id} key (${summarizeZodError(gold.error, 1)})`;
    return {
      ok: true,
      gold: candidate,
      canonical: parsed.canonical,
      goldProblem: `answer key incomplete for ${task.id}: ${why}`,
    };
  }
  const canonical = task.canonicalizeGold(gold.data);
  if (canonical !== parsed.canonical) {
    return {
      ok: false,
      problem: `answer '${parsed.canonical}' and its gold '${canonical}' disagree (task grammar bug?)`,
    };
  }
  return { ok: true, gold: gold.data, canonical, goldProblem: null };
}

/** Options as four texts A–D from an array, an {A,B,C,D} object, or null when the value is none of these. */
export function readOptions(value: unknown): string[] | null {
  const asText = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : null);
  if (Array.isArray(value)) {
    const texts = value.map(asText);
    return texts.length === 4 && texts.every((t): t is string => t !== null && t !== "") ? texts : null;
  }
  if (value && typeof value === "object") {
    const o = Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.trim().toUpperCase(), v]),
    );
    const texts = MC_LETTERS.map((l) => asText(o[l]));
    return texts.every((t): t is string => t !== null && t !== "") ? texts : null;
  }
  if (typeof value === "string" && value.trim().startsWith("[")) {
    try {
      return readOptions(JSON.parse(value));
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Appends `Options:\nA. …` to an MC question that does not already list its option texts, the way
 * VLMEvalKit builds the prompt a model sees (humans must see the same text).
 */
export function appendOptionsToQuestion(question: string, options: readonly string[] | null): string {
  if (!options) return question;
  const listed = options.every((o) => question.includes(o));
  if (listed) return question;
  return `${question.trimEnd()}\nOptions:\n${options.map((o, i) => `${MC_LETTERS[i]}. ${o}`).join("\n")}`;
}

export type PayloadResult = { payload: Record<string, unknown>; problem: string | null };

/**
 * Item.payload from the public values a source gives. When they satisfy the task's fields schema
 * the parsed fields are stored; otherwise what is there is kept and the mismatch is reported
 * (the question text is complete either way; only re-rendering from fields needs the schema).
 */
export function buildPayload(task: ErasedTask, candidate: Record<string, unknown>): PayloadResult {
  const clean = Object.fromEntries(Object.entries(candidate).filter(([, v]) => v !== undefined && v !== null));
  const parsed = task.fieldsSchema.safeParse(clean);
  if (parsed.success) return { payload: parsed.data as Record<string, unknown>, problem: null };
  return {
    payload: clean,
    problem: `kept as imported; does not match the ${task.id} fields (${summarizeZodError(parsed.error)})`,
  };
}

/** Shown and keyed MC options, field schema and gold checked together (e.g. T8's options must agree). */
export function checkItemConsistency(task: ErasedTask, payload: Record<string, unknown>, gold: unknown): string | null {
  const checked = task.itemSchema.safeParse({ fields: payload, gold });
  return checked.success ? null : summarizeZodError(checked.error);
}

export interface CommonRecord {
  source: ImportSource;
  task: ErasedTask;
  file: string;
  line: number;
  externalId: string | null;
  split: string;
  question: string;
  answer: unknown;
  options: string[] | null;
  pdbId: string | null;
  images: ImageRef[];
  /** Names of the source fields each value came from, for report lines. */
  fieldNames: { answer: string; images: string; question: string };
  extraPayload?: Record<string, unknown>;
  provenance: Record<string, unknown>;
}

/** Shared last step of the MiSI and VLMEvalKit mappings: answer → gold, payload, status, captions. */
export function planRecord(record: CommonRecord): PlanResult {
  const { task, file, line } = record;
  const at = (field: string, problem: string): ReportEntry => ({ file, line, field, problem });
  const skips: ReportEntry[] = [];
  if (record.question.trim() === "") skips.push(at(record.fieldNames.question, "missing or empty question"));
  if (record.images.length === 0)
    skips.push(at(record.fieldNames.images, "no image: every item needs at least one image"));
  const answer = resolveAnswer(task, record.answer, record.options);
  if (!answer.ok) skips.push(at(record.fieldNames.answer, answer.problem));
  if (!answer.ok || skips.length > 0) return { ok: false, skips };

  const warnings: ReportEntry[] = [];
  const candidate: Record<string, unknown> = {
    pdbId: record.pdbId ?? undefined,
    ...(record.options ? { options: record.options } : {}),
    ...record.extraPayload,
  };
  const { payload, problem } = buildPayload(task, candidate);
  if (problem) warnings.push(at("payload", problem));

  let status: ItemPlan["status"] = "active";
  let statusReason: string | null = null;
  if (answer.goldProblem) {
    status = "flagged";
    statusReason = `${answer.goldProblem}; cannot be scored until the key is completed`;
    warnings.push(at(record.fieldNames.answer, `imported as flagged: ${statusReason}`));
  } else if (!problem) {
    const inconsistent = checkItemConsistency(task, payload, answer.gold);
    if (inconsistent) {
      status = "flagged";
      statusReason = `fields and answer key disagree: ${inconsistent}`;
      warnings.push(at(record.fieldNames.answer, `imported as flagged: ${statusReason}`));
    }
  }

  return {
    ok: true,
    warnings,
    plan: {
      source: record.source,
      externalId: record.externalId,
      taskId: task.id,
      taskVersion: task.version,
      split: record.split,
      question: task.format === "mc" ? appendOptionsToQuestion(record.question, record.options) : record.question,
      payload,
      pdbId: record.pdbId,
      gold: answer.gold,
      canonical: answer.canonical,
      distractors: null,
      images: record.images.map((ref, i) => ({ caption: `Image ${i + 1}`, ref })),
      status,
      statusReason,
      provenance: record.provenance,
      generatorVersion: null,
      seed: null,
      renderSettings: null,
      file,
      line,
    },
  };
}
