import type { z } from "zod";
import {
  BundleAnswerSchema,
  BundleItemSchema,
  BundleManifestSchema,
  type BundleAnswer,
  type BundleManifest,
} from "@/lib/bundle/format";
import { findTask } from "@/lib/tasks/registry";
import { getErasedTask, summarizeZodError, type PlanResult } from "./item-plan";
import type { ReportEntry } from "./report";

/** Bundle file names (lib/bundle/format.ts). */
export const BUNDLE_FILES = { manifest: "manifest.json", items: "items.jsonl", answers: "answers.jsonl" } as const;

function zodEntries(file: string, line: number, error: z.ZodError, fallbackField: string): ReportEntry[] {
  return error.issues.map((i) => ({
    file,
    line,
    field: i.path.length ? i.path.join(".") : fallbackField,
    problem: i.message,
  }));
}

export type ManifestResult = { ok: true; manifest: BundleManifest } | { ok: false; errors: ReportEntry[] };

/** A bundle is recognised by its manifest; a wrong format or version is fatal (the reader would misread it). */
export function readBundleManifest(file: string, text: string): ManifestResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      errors: [{ file, line: 0, field: "manifest", problem: `not valid JSON: ${(e as Error).message}` }],
    };
  }
  const parsed = BundleManifestSchema.safeParse(json);
  if (!parsed.success) return { ok: false, errors: zodEntries(file, 0, parsed.error, "manifest") };
  return { ok: true, manifest: parsed.data };
}

export interface LocatedAnswer {
  answer: BundleAnswer;
  line: number;
}

export type AnswerLineResult = { ok: true; answer: BundleAnswer } | { ok: false; skips: ReportEntry[] };

export function readBundleAnswerLine(file: string, line: number, json: unknown): AnswerLineResult {
  const parsed = BundleAnswerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, skips: zodEntries(file, line, parsed.error, "answer") };
  return { ok: true, answer: parsed.data };
}

export interface BundleItemContext {
  /** Folder of the bundle inside the import (images are relative to it), "" at the root. */
  root: string;
  file: string;
  line: number;
  answersFile: string;
  findAnswer(id: string): LocatedAnswer | undefined;
}

/**
 * Maps one items.jsonl line to an item plan. A bundle is this app's own output, so everything must
 * validate against the task as it is now: the task version, fields, gold, the canonical answer text.
 * A mismatch skips the item with the reason (a bundle from another app version is not guessed at).
 */
export function planBundleItem(json: unknown, ctx: BundleItemContext): PlanResult {
  const { file, line } = ctx;
  const at = (field: string, problem: string, where: { file: string; line: number } = ctx): ReportEntry => ({
    file: where.file,
    line: where.line,
    field,
    problem,
  });
  const parsed = BundleItemSchema.safeParse(json);
  if (!parsed.success) return { ok: false, skips: zodEntries(file, line, parsed.error, "item") };
  const item = parsed.data;
  const registered = findTask(item.task);
  if (!registered) return { ok: false, skips: [at("task", `unknown task '${item.task}'`)] };
  const task = getErasedTask(registered.id);
  if (item.taskVersion !== task.version) {
    return {
      ok: false,
      skips: [
        at("taskVersion", `item was made for ${task.id} v${item.taskVersion}; this app implements v${task.version}`),
      ],
    };
  }
  const located = ctx.findAnswer(item.id);
  if (!located) return { ok: false, skips: [at("id", `no answer for '${item.id}' in ${ctx.answersFile}`)] };
  const answerAt = { file: ctx.answersFile, line: located.line };

  const skips: ReportEntry[] = [];
  const fields = task.fieldsSchema.safeParse(item.fields);
  if (!fields.success) skips.push(at("fields", `not valid ${task.id} fields: ${summarizeZodError(fields.error)}`));
  const gold = task.goldSchema.safeParse(located.answer.gold);
  if (!gold.success)
    skips.push(at("gold", `not a valid ${task.id} gold for '${item.id}': ${summarizeZodError(gold.error)}`, answerAt));
  if (!fields.success || !gold.success) return { ok: false, skips };

  const consistent = task.itemSchema.safeParse({ fields: fields.data, gold: gold.data });
  if (!consistent.success)
    return { ok: false, skips: [at("fields", `fields and gold disagree: ${summarizeZodError(consistent.error)}`)] };

  const canonical = task.canonicalizeGold(gold.data);
  const stated = task.parseAnswer(located.answer.answer);
  if (!stated.ok)
    return { ok: false, skips: [at("answer", `'${located.answer.answer}' does not parse: ${stated.error}`, answerAt)] };
  if (stated.canonical !== canonical) {
    return {
      ok: false,
      skips: [
        at(
          "answer",
          `'${located.answer.answer}' disagrees with the gold, whose canonical answer is '${canonical}'`,
          answerAt,
        ),
      ],
    };
  }

  const warnings: ReportEntry[] = [];
  const rendered = task.renderStoredQuestion(fields.data);
  if (rendered.ok && rendered.text !== item.question) {
    warnings.push(
      at("question", `differs from the ${task.id} template filled with the item's fields; the bundle's text is kept`),
    );
  }
  const prefix = ctx.root ? `${ctx.root}/` : "";
  const provenance = item.provenance;
  return {
    ok: true,
    warnings,
    plan: {
      source: "bundle",
      externalId: item.id,
      taskId: task.id,
      taskVersion: task.version,
      split: item.split,
      question: item.question,
      payload: fields.data as Record<string, unknown>,
      pdbId: item.pdbId?.toLowerCase() ?? provenance?.structure?.pdbId?.toLowerCase() ?? null,
      gold: gold.data,
      canonical,
      distractors: located.answer.distractors ?? null,
      images: item.images.map((img) => ({
        caption: img.caption,
        ref: { kind: "path" as const, path: `${prefix}${img.file}` },
      })),
      status: "active",
      statusReason: null,
      provenance: { importedFrom: "bundle", file, line, ...(provenance ? { bundle: provenance } : {}) },
      generatorVersion: provenance?.generatorVersion ?? null,
      seed: provenance?.seed ?? null,
      renderSettings: provenance?.renderSettings ?? null,
      file,
      line,
    },
  };
}
