import "server-only";
import { UNSPECIFIED_COHORT } from "@/lib/export/response-table";
import type { ResponseRecord } from "@/lib/results/response-records";
import { RESULT_TASK_IDS, type ResultTaskId } from "@/lib/results/task-columns";
import { db } from "@/lib/server/db";
import { Prisma } from "@/prisma/generated/client";
import { classifyResidueLigandItems } from "./classify-items";
import { loadKeyAnswerSpaces } from "./load-key-answer-spaces";
import { FAIR_SCORE_TASKS, fairFieldsOf } from "@/lib/tasks/fair-score";
import type { TaskId } from "@/lib/tasks/types";

/** Rows per round trip: big enough to be fast, small enough that one page never dominates memory. */
const RECORD_PAGE_SIZE = 10_000;

interface RawRecordRow {
  id: string;
  submittedAt: Date;
  participantId: string;
  itemId: string;
  taskId: string;
  exact: number;
  partial: number;
  condition: string;
  canonicalAnswer: string;
  /** Stored past a timed question's limit: scored 0 like a time-out (paper and fair), kept out of the answer analysis. */
  late: boolean;
  cohort: string | null;
}

/** A stored response left out of the results, with the reason (never dropped silently). */
export interface SkippedResponse {
  responseId: string;
  itemId: string;
  reason: string;
}

export interface ResponseRecordsDto {
  records: ResponseRecord[];
  skipped: SkippedResponse[];
}

const RESULT_TASKS: ReadonlySet<string> = new Set(RESULT_TASK_IDS);

/** Golds of the items whose fair score can differ from the paper's (FAIR_SCORE_TASKS), by item id. */
export async function loadFairScoreGolds(
  rows: readonly { itemId: string; taskId: string }[],
): Promise<Map<string, unknown>> {
  const fairTasks: ReadonlySet<string> = new Set(FAIR_SCORE_TASKS);
  const itemIds = [...new Set(rows.filter((r) => fairTasks.has(r.taskId)).map((r) => r.itemId))];
  const golds = new Map<string, unknown>();
  for (let i = 0; i < itemIds.length; i += RECORD_PAGE_SIZE) {
    const keys = await db.answerKey.findMany({
      where: { itemId: { in: itemIds.slice(i, i + RECORD_PAGE_SIZE) } },
      select: { itemId: true, gold: true },
    });
    for (const k of keys) golds.set(k.itemId, k.gold);
  }
  return golds;
}

/**
 * The public pick lists (`{ pickers }`) of the same items, by item id: the fair score reads from them which residues
 * are C-terminal (O/OXT). Only the pickers leave the database, not the whole payload (the 3D scene is large).
 */
export async function loadFairScoreFields(
  rows: readonly { itemId: string; taskId: string }[],
): Promise<Map<string, { pickers: unknown }>> {
  const fairTasks: ReadonlySet<string> = new Set(FAIR_SCORE_TASKS);
  const itemIds = [...new Set(rows.filter((r) => fairTasks.has(r.taskId)).map((r) => r.itemId))];
  const fields = new Map<string, { pickers: unknown }>();
  for (let i = 0; i < itemIds.length; i += RECORD_PAGE_SIZE) {
    const page = await db.$queryRaw<{ id: string; pickers: unknown }[]>`
      SELECT id, payload->'pickers' AS pickers FROM "Item" WHERE id = ANY(${itemIds.slice(i, i + RECORD_PAGE_SIZE)}::text[])`;
    for (const r of page) if (r.pickers !== null) fields.set(r.id, { pickers: r.pickers });
  }
  return fields;
}

/**
 * The main-phase responses of the given studies as plain records for lib/results: cohort resolved
 * (UNSPECIFIED_COHORT when none), T4 polarity from the gold, canonical answer when there is one.
 * Read in keyset pages over (submittedAt, id), the order of the Response index.
 */
export async function listResponseRecords(
  studyIds: readonly string[],
  pageSize = RECORD_PAGE_SIZE,
): Promise<ResponseRecordsDto> {
  const rows: RawRecordRow[] = [];
  for (const studyId of studyIds) {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const keyset: Prisma.Sql = after
        ? Prisma.sql`AND (r."submittedAt", r.id) > (${after.at}::timestamp(3), ${after.id}::text)`
        : Prisma.empty;
      const page: RawRecordRow[] = await db.$queryRaw<RawRecordRow[]>`
        SELECT r.id, r."submittedAt", r."participantId", r."itemId", r."taskId", r.exact, r.partial, r.condition, r."canonicalAnswer", r.late, p.cohort
        FROM "Response" r JOIN "Participant" p ON p.id = r."participantId"
        WHERE r."studyId" = ${studyId} AND r.phase = 'main' ${keyset}
        ORDER BY r."submittedAt", r.id LIMIT ${pageSize}`;
      rows.push(...page);
      const last = page[page.length - 1];
      if (!last || page.length < pageSize) break;
      after = { at: last.submittedAt, id: last.id };
    }
  }

  const t4Items = rows.filter((r) => r.taskId === "residue_ligand").map((r) => r.itemId);
  const { polarity, unreadable } = await classifyResidueLigandItems(t4Items);
  // Fair score (lib/tasks/fair-score.ts): computed here from the stored canonical answer and the gold.
  const fairTasks: ReadonlySet<string> = new Set(FAIR_SCORE_TASKS);
  const golds = await loadFairScoreGolds(rows);
  const itemFields = await loadFairScoreFields(rows);
  const answerSpaces = await loadKeyAnswerSpaces(rows);
  const records: ResponseRecord[] = [];
  const skipped: SkippedResponse[] = [];
  for (const r of rows) {
    if (!RESULT_TASKS.has(r.taskId)) {
      skipped.push({ responseId: r.id, itemId: r.itemId, reason: `unknown task '${r.taskId}'` });
      continue;
    }
    const record: ResponseRecord = {
      participantId: r.participantId,
      itemId: r.itemId,
      taskId: r.taskId as ResultTaskId,
      exact: r.exact === 1 ? 1 : 0,
      partial: Number(r.partial),
      condition: r.condition,
      cohort: r.cohort && r.cohort.trim() !== "" ? r.cohort : UNSPECIFIED_COHORT,
    };
    const space = answerSpaces.get(r.itemId);
    if (space) record.keyAnswerSpace = space;
    if (r.exact !== 0 && r.exact !== 1) {
      skipped.push({ responseId: r.id, itemId: r.itemId, reason: `exact score ${r.exact} is neither 0 nor 1` });
      continue;
    }
    if (r.taskId === "residue_ligand") {
      const p = polarity.get(r.itemId);
      if (!p) {
        skipped.push({
          responseId: r.id,
          itemId: r.itemId,
          reason: `cannot tell Pos./Neg.: ${unreadable.get(r.itemId) ?? "no gold"}`,
        });
        continue;
      }
      record.t4Polarity = p;
    }
    // A late answer counts as a time-out: no answer for the item analysis, fair score from an empty answer (0).
    const canonical = r.late ? "" : r.canonicalAnswer;
    if (canonical !== "") record.answer = canonical;
    if (fairTasks.has(r.taskId)) {
      if (!golds.has(r.itemId)) {
        skipped.push({ responseId: r.id, itemId: r.itemId, reason: "item has no answer key (fair score)" });
        continue;
      }
      const fair = fairFieldsOf(r.taskId as TaskId, canonical, golds.get(r.itemId), record, itemFields.get(r.itemId));
      if (!fair.ok) {
        skipped.push({ responseId: r.id, itemId: r.itemId, reason: fair.error });
        continue;
      }
      if (fair.fields) Object.assign(record, fair.fields);
    }
    records.push(record);
  }
  return { records, skipped };
}
