import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { Prisma } from "@/prisma/generated/client";
import { ANSWER_EXTRACTION_RULE_VERSION } from "@/lib/model-import/extract-answer";
import { createItemMatcher } from "@/lib/model-import/match-items";
import type { PredictionFile } from "@/lib/model-import/parse-prediction-file";
import type { PredictionFileResult } from "@/lib/model-import/types";
import { heavyBudgets } from "@/lib/server/heavy/budgets";
import { HeavyJobError, runHeavyJob } from "@/lib/server/heavy/pool";
import { scorePrediction } from "@/lib/model-import/score-prediction";
import { capIssues, PREDICTION_FORMATS, type FileIssue } from "@/lib/model-import/types";
import { writeAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { findTask } from "@/lib/tasks/registry";

const KEY_CHUNK = 5_000;

/**
 * Reads a prediction file in the heavy-work pool: exceljs inflates a workbook in memory, and a 2.6 MB xlsx bomb took
 * the server from 0.5 to 2 GB and stalled participants. Over its time budget or memory cap the read fails with a
 * problem naming the budget, like any unreadable file.
 */
async function readPredictionFile(input: PredictionFile): Promise<PredictionFileResult> {
  try {
    return await runHeavyJob("predictionFile", {
      ...input,
      maxXlsxInflatedBytes: heavyBudgets.MODEL_XLSX_MAX_INFLATED_BYTES,
    });
  } catch (err) {
    if (!(err instanceof HeavyJobError)) throw err;
    return {
      ok: false,
      format: input.format ?? null,
      errors: [{ file: input.fileName, line: null, field: null, problem: err.message }],
    };
  }
}

export const ImportModelRunInputSchema = z.object({
  /** Model identifier, e.g. "GPT-4o-2024-08-06". */
  model: z.string().trim().min(1, "model is required").max(200),
  /** Display name; defaults to the model. */
  name: z.string().trim().max(200).optional(),
  /** Restrict matching to this study's pool version (resolves external ids shared across sources). */
  studyId: z.string().trim().min(1).optional(),
  format: z.enum(PREDICTION_FORMATS).optional(),
});
export type ImportModelRunInput = z.infer<typeof ImportModelRunInputSchema>;

export interface ImportModelRunResult {
  status: "created" | "duplicate";
  runId: string;
  format: string;
  nRows: number;
  nMatched: number;
  nUnparseable: number;
  /** Rows not stored: unmatched or ambiguous keys, repeated items, unreadable rows. */
  skipped: FileIssue[];
  warnings: FileIssue[];
  /** Rows whose file-side correct answer disagrees with this app's gold (a sign of mismatched items). */
  referenceMismatches: FileIssue[];
}

/** Canonical text of a file's own answer under our task grammar, to compare with our gold. */
function canonicalReference(taskId: string, reference: string): string | null {
  const task = findTask(taskId);
  if (!task) return null;
  const parsed = task.parseAnswer(reference);
  return parsed.ok ? parsed.canonical : null;
}

/**
 * Imports a model's prediction file: parses it, matches rows to items (Item.id, else a unique
 * Item.externalId, within the study's pool version when studyId is given), scores every
 * prediction with the task registry's grader after the documented answer extraction, and stores a
 * ModelRun with its ModelPredictions. Idempotent by the file's SHA-256: the same bytes again return
 * the existing run. A file that cannot be read, or matches no item, fails with located problems.
 */
export async function importModelRun(options: {
  fileName: string;
  bytes: Uint8Array;
  input: unknown;
  actorId: string | null;
}): Promise<ImportModelRunResult> {
  const input = ImportModelRunInputSchema.parse(options.input);
  const contentHash = createHash("sha256").update(options.bytes).digest("hex");
  const existing = await db.modelRun.findUnique({
    where: { contentHash },
    select: { id: true, source: true, metadata: true },
  });
  if (existing) return duplicateResult(existing);

  const parsed = await readPredictionFile({
    fileName: options.fileName,
    bytes: options.bytes,
    ...(input.format ? { format: input.format } : {}),
  });
  if (!parsed.ok)
    throw new AppError("UNPROCESSABLE", `Cannot read ${options.fileName}.`, { problems: capIssues(parsed.errors) });

  let poolVersionId: string | null = null;
  if (input.studyId) {
    const study = await db.study.findUnique({ where: { id: input.studyId }, select: { poolVersionId: true } });
    if (!study) throw new AppError("NOT_FOUND", `No study with id ${input.studyId}.`);
    poolVersionId = study.poolVersionId;
  }
  const keys = [...new Set(parsed.rows.map((r) => r.key))];
  const candidates = [];
  // Chunked: two IN lists of a whole test split would approach PostgreSQL's 65 535 bind parameters.
  for (let i = 0; i < keys.length; i += KEY_CHUNK) {
    const chunk = keys.slice(i, i + KEY_CHUNK);
    candidates.push(
      ...(await db.item.findMany({
        where: {
          OR: [{ id: { in: chunk } }, { externalId: { in: chunk } }],
          ...(poolVersionId ? { poolItems: { some: { poolVersionId } } } : {}),
        },
        select: { id: true, externalId: true, taskId: true, answerKey: { select: { gold: true, canonical: true } } },
      })),
    );
  }
  const match = createItemMatcher([...new Map(candidates.map((c) => [c.id, c])).values()]);

  const skipped: FileIssue[] = [...parsed.skipped];
  const referenceMismatches: FileIssue[] = [];
  const file = options.fileName;
  const rows: Prisma.ModelPredictionCreateManyInput[] = [];
  const usedItems = new Map<string, number>();
  let nUnparseable = 0;
  for (const row of parsed.rows) {
    const found = match(row.key);
    if (!found.ok) {
      skipped.push({ file, line: row.line, field: row.keyField, problem: found.problem });
      continue;
    }
    const item = found.item;
    const earlier = usedItems.get(item.id);
    if (earlier !== undefined) {
      skipped.push({
        file,
        line: row.line,
        field: row.keyField,
        problem: `item ${item.id} was already matched by line ${earlier}; only the first prediction is used`,
      });
      continue;
    }
    const task = findTask(item.taskId);
    if (!task || !item.answerKey) {
      skipped.push({
        file,
        line: row.line,
        field: row.keyField,
        problem: `item ${item.id} ${task ? "has no answer key" : `has an unknown task '${item.taskId}'`}`,
      });
      continue;
    }
    const scored = scorePrediction(task, row.prediction, item.answerKey.gold);
    if (scored.status === "bad-gold") {
      skipped.push({ file, line: row.line, field: row.keyField, problem: `item ${item.id}: ${scored.error}` });
      continue;
    }
    usedItems.set(item.id, row.line);
    if (row.reference !== undefined) {
      const reference = canonicalReference(item.taskId, row.reference);
      if (reference !== item.answerKey.canonical) {
        referenceMismatches.push({
          file,
          line: row.line,
          field: "answer",
          problem: `the file's answer '${row.reference}' differs from this app's gold '${item.answerKey.canonical}' for item ${item.id}`,
        });
      }
    }
    if (scored.status === "unparseable") nUnparseable++;
    rows.push({
      modelRunId: "",
      itemId: item.id,
      taskId: item.taskId,
      raw: row.prediction,
      canonical: scored.status === "scored" ? scored.canonical : null,
      parseError: scored.status === "unparseable" ? scored.parseError : null,
      exact: scored.exact,
      partial: scored.partial,
    });
  }
  if (rows.length === 0) {
    throw new AppError(
      "UNPROCESSABLE",
      `No prediction in ${options.fileName} matched an item${poolVersionId ? " of this study's pool" : ""}.`,
      {
        problems: capIssues(skipped),
      },
    );
  }

  const metadata = {
    fileName: options.fileName,
    format: parsed.format,
    extractionRuleVersion: ANSWER_EXTRACTION_RULE_VERSION,
    scopeStudyId: input.studyId ?? null,
    nRows: parsed.rows.length + parsed.skipped.length,
    nMatched: rows.length,
    nUnparseable,
    skipped: capIssues(skipped),
    warnings: capIssues(parsed.warnings),
    referenceMismatches: capIssues(referenceMismatches),
    nSkipped: skipped.length,
    nReferenceMismatches: referenceMismatches.length,
  };
  try {
    const runId = await db.$transaction(async (tx) => {
      const run = await tx.modelRun.create({
        data: {
          name: input.name || input.model,
          model: input.model,
          source: parsed.format,
          contentHash,
          metadata: metadata as unknown as Prisma.InputJsonValue,
          importedById: options.actorId,
        },
        select: { id: true },
      });
      await tx.modelPrediction.createMany({ data: rows.map((r) => ({ ...r, modelRunId: run.id })) });
      await writeAudit(
        {
          actorId: options.actorId,
          action: "model_run.import",
          entityType: "model_run",
          entityId: run.id,
          details: { fileName: options.fileName, contentHash, nMatched: rows.length, nUnparseable },
        },
        tx,
      );
      return run.id;
    });
    return {
      status: "created",
      runId,
      format: parsed.format,
      nRows: metadata.nRows,
      nMatched: rows.length,
      nUnparseable,
      skipped,
      warnings: parsed.warnings,
      referenceMismatches,
    };
  } catch (err) {
    // The same file uploaded twice at once: the first import wins, the second reports it.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const winner = await db.modelRun.findUnique({
        where: { contentHash },
        select: { id: true, source: true, metadata: true },
      });
      if (winner) return duplicateResult(winner);
    }
    throw err;
  }
}

const StoredMetadataSchema = z
  .object({
    nRows: z.number().default(0),
    nMatched: z.number().default(0),
    nUnparseable: z.number().default(0),
    skipped: z.array(z.any()).default([]),
    warnings: z.array(z.any()).default([]),
    referenceMismatches: z.array(z.any()).default([]),
  })
  .partial()
  .catch({});

function duplicateResult(run: { id: string; source: string; metadata: unknown }): ImportModelRunResult {
  const m = StoredMetadataSchema.parse(run.metadata ?? {});
  return {
    status: "duplicate",
    runId: run.id,
    format: run.source,
    nRows: m.nRows ?? 0,
    nMatched: m.nMatched ?? 0,
    nUnparseable: m.nUnparseable ?? 0,
    skipped: (m.skipped ?? []) as FileIssue[],
    warnings: (m.warnings ?? []) as FileIssue[],
    referenceMismatches: (m.referenceMismatches ?? []) as FileIssue[],
  };
}
