import "server-only";
import { UNSPECIFIED_COHORT, type ResponseExportRow } from "@/lib/export/response-table";
import { toResultColumnKey, type ResultTaskId } from "@/lib/results/task-columns";
import { db } from "@/lib/server/db";
import { classifyResidueLigandItem, residueLigandTask } from "@/lib/tasks/residue-ligand";

/** Responses per keyset page. Pages are independent queries, so memory is bounded by one page. */
export const EXPORT_PAGE_ROWS = 5_000;

interface RawResponseRow {
  responseId: string;
  studyId: string;
  studySlug: string;
  participantId: string;
  participantExternalId: string;
  cohort: string | null;
  condition: string;
  itemId: string;
  itemExternalId: string | null;
  taskId: string;
  taskVersion: number;
  phase: string;
  rawAnswer: string;
  canonicalAnswer: string;
  goldAnswer: string | null;
  t4Gold: unknown;
  exact: number;
  partial: number;
  rtClientMs: number | null;
  rtServerMs: number | null;
  shownAt: Date | null;
  submittedAt: Date;
  deviceInfo: unknown;
}

async function readPage(studyId: string, after: { at: Date; id: string } | null, limit: number): Promise<RawResponseRow[]> {
  // One statement per page; the WHERE/ORDER BY follow the (studyId, submittedAt, id) index exactly.
  if (after === null) {
    return db.$queryRaw<RawResponseRow[]>`
      SELECT r.id AS "responseId", r."studyId", s.slug AS "studySlug", r."participantId", p."externalId" AS "participantExternalId",
             p.cohort, r.condition, r."itemId", i."externalId" AS "itemExternalId", r."taskId", r."taskVersion", r.phase::text AS phase,
             r."rawAnswer", r."canonicalAnswer", ak.canonical AS "goldAnswer",
             CASE WHEN r."taskId" = 'residue_ligand' THEN ak.gold END AS "t4Gold",
             r.exact, r.partial, r."rtClientMs", r."rtServerMs", r."shownAt", r."submittedAt", p."deviceInfo"
      FROM "Response" r
      JOIN "Participant" p ON p.id = r."participantId"
      JOIN "Study" s ON s.id = r."studyId"
      JOIN "Item" i ON i.id = r."itemId"
      LEFT JOIN "AnswerKey" ak ON ak."itemId" = r."itemId"
      WHERE r."studyId" = ${studyId}
      ORDER BY r."submittedAt", r.id
      LIMIT ${limit}`;
  }
  return db.$queryRaw<RawResponseRow[]>`
    SELECT r.id AS "responseId", r."studyId", s.slug AS "studySlug", r."participantId", p."externalId" AS "participantExternalId",
           p.cohort, r.condition, r."itemId", i."externalId" AS "itemExternalId", r."taskId", r."taskVersion", r.phase::text AS phase,
           r."rawAnswer", r."canonicalAnswer", ak.canonical AS "goldAnswer",
           CASE WHEN r."taskId" = 'residue_ligand' THEN ak.gold END AS "t4Gold",
           r.exact, r.partial, r."rtClientMs", r."rtServerMs", r."shownAt", r."submittedAt", p."deviceInfo"
    FROM "Response" r
    JOIN "Participant" p ON p.id = r."participantId"
    JOIN "Study" s ON s.id = r."studyId"
    JOIN "Item" i ON i.id = r."itemId"
    LEFT JOIN "AnswerKey" ak ON ak."itemId" = r."itemId"
    WHERE r."studyId" = ${studyId} AND (r."submittedAt", r.id) > (${after.at}::timestamp(3), ${after.id}::text)
    ORDER BY r."submittedAt", r.id
    LIMIT ${limit}`;
}

/**
 * Every response of the given studies (all phases) in long format, study by study, each in
 * (submittedAt, id) order, fetched in keyset pages: never more than one page in memory.
 */
export async function* iterateResponseRows(studyIds: readonly string[], pageRows = EXPORT_PAGE_ROWS): AsyncGenerator<ResponseExportRow> {
  // T4 polarity per item, computed once from its gold (items are far fewer than responses).
  const polarity = new Map<string, "pos" | "neg" | null>();
  for (const studyId of studyIds) {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page = await readPage(studyId, after, pageRows);
      for (const r of page) {
        let resultColumn: string | null = null;
        if (r.taskId === "residue_ligand") {
          if (!polarity.has(r.itemId)) {
            const gold = residueLigandTask.goldSchema.safeParse(r.t4Gold);
            polarity.set(r.itemId, gold.success ? classifyResidueLigandItem(gold.data) : null);
          }
          const p = polarity.get(r.itemId);
          resultColumn = p ? toResultColumnKey("residue_ligand", p) : null;
        } else {
          resultColumn = toResultColumnKey(r.taskId as ResultTaskId) ?? null;
        }
        yield {
          responseId: r.responseId,
          studyId: r.studyId,
          studySlug: r.studySlug,
          participantId: r.participantId,
          participantExternalId: r.participantExternalId,
          cohort: r.cohort && r.cohort.trim() !== "" ? r.cohort : UNSPECIFIED_COHORT,
          condition: r.condition,
          itemId: r.itemId,
          itemExternalId: r.itemExternalId,
          taskId: r.taskId,
          taskVersion: r.taskVersion,
          resultColumn,
          phase: r.phase,
          rawAnswer: r.rawAnswer,
          canonicalAnswer: r.canonicalAnswer,
          goldAnswer: r.goldAnswer,
          exact: r.exact,
          partial: r.partial,
          rtClientMs: r.rtClientMs,
          rtServerMs: r.rtServerMs,
          shownAt: r.shownAt,
          submittedAt: r.submittedAt,
          deviceInfo: r.deviceInfo,
        };
      }
      const last = page[page.length - 1];
      if (!last || page.length < pageRows) break;
      after = { at: last.submittedAt, id: last.responseId };
    }
  }
}
