import "server-only";
import pg from "pg";
import { toResponseExportRow, type ResponseExportRow, type StoredResponseRow } from "@/lib/export/response-table";
import { toResultColumnKey, type ResultTaskId } from "@/lib/results/task-columns";
import { classifyResidueLigandItem, residueLigandTask } from "@/lib/tasks/residue-ligand";
import { IdenticalRunTracker } from "@/lib/participant/integrity";
import { parseUtcTimestamp, PG_TIMESTAMP_OID } from "./parse-utc-timestamp";

// The responses export's SQL and row mapping, with no Prisma or app environment: shared by the
// in-process iterator (iterate-response-rows.ts) and the export worker thread (responses-csv-worker.ts).

/** Responses per keyset page. Pages are independent queries, so memory is bounded by one page. */
export const EXPORT_PAGE_ROWS = 5_000;

/** One row of the page query: the stored response plus the item's gold for T4 (null for other tasks). */
export interface RawResponseRow extends StoredResponseRow {
  t4Gold: unknown;
}

/** The keyset position after the last row of a page: (submittedAt, id) as the index orders them. */
export interface PageCursor {
  at: Date;
  id: string;
}

/** Reads one page of a study's responses after `after` (from the start when null). */
export type PageReader = (studyId: string, after: PageCursor | null, limit: number) => Promise<RawResponseRow[]>;

// One statement per page; the WHERE/ORDER BY follow the (studyId, submittedAt, id) index exactly.
// $1 = study id, $2/$3 = cursor (submittedAt as UTC text, id), last = page size.
const SELECT_RESPONSES = `
  SELECT r.id AS "responseId", r."studyId", s.slug AS "studySlug", r."participantId", p."externalId" AS "participantExternalId",
         p.cohort, r.condition, r."itemId", i."externalId" AS "itemExternalId", r."taskId", r."taskVersion", r.phase::text AS phase,
         r."rawAnswer", r."canonicalAnswer", ak.canonical AS "goldAnswer",
         CASE WHEN r."taskId" = 'residue_ligand' THEN ak.gold END AS "t4Gold",
         r.exact, r.partial, r."rtClientMs", r."rtServerMs", r."shownAt", r."submittedAt", p."deviceInfo", r.late, sig.signals
  FROM "Response" r
  JOIN "Participant" p ON p.id = r."participantId"
  JOIN "Study" s ON s.id = r."studyId"
  JOIN "Item" i ON i.id = r."itemId"
  LEFT JOIN "AnswerKey" ak ON ak."itemId" = r."itemId"
  LEFT JOIN "AnswerSignals" sig ON sig."assignmentId" = r."assignmentId"`;
export const FIRST_PAGE_SQL = `${SELECT_RESPONSES}
  WHERE r."studyId" = $1
  ORDER BY r."submittedAt", r.id
  LIMIT $2`;
export const NEXT_PAGE_SQL = `${SELECT_RESPONSES}
  WHERE r."studyId" = $1 AND (r."submittedAt", r.id) > ($2::timestamp(3), $3::text)
  ORDER BY r."submittedAt", r.id
  LIMIT $4`;

export const EXPORT_PG_TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === PG_TIMESTAMP_OID && format !== "binary"
      ? parseUtcTimestamp
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL: plain rows from node-postgres on a connection of the export's own, without the
 * copies Prisma's $queryRaw makes of every page (driver-adapter result set, interpreter values,
 * deserialised objects): 60k instead of 53k rows/s on the 1M-row bench (bench/export.mts). Peak
 * RSS is about the same either way; it is set by V8's old-generation growth, not by these rows.
 */
export function createPostgresPageReader(client: pg.Client): PageReader {
  return async (studyId, after, limit) => {
    // The cursor goes back as UTC text: the ::timestamp(3) cast ignores the trailing Z, matching how the column is stored.
    const result =
      after === null
        ? await client.query<RawResponseRow>(FIRST_PAGE_SQL, [studyId, limit])
        : await client.query<RawResponseRow>(NEXT_PAGE_SQL, [studyId, after.at.toISOString(), after.id, limit]);
    return result.rows;
  };
}

/** One page row as the export's row; `polarity` caches each T4 item's classification. */
function toExportRow(
  { t4Gold, ...stored }: RawResponseRow,
  polarity: Map<string, "pos" | "neg" | null>,
  runs: IdenticalRunTracker,
): ResponseExportRow {
  const run = stored.phase === "main" ? runs.next(stored.participantId, stored.canonicalAnswer) : null;
  if (stored.taskId !== "residue_ligand")
    return toResponseExportRow(stored, toResultColumnKey(stored.taskId as ResultTaskId) ?? null, run);
  if (!polarity.has(stored.itemId)) {
    const gold = residueLigandTask.goldSchema.safeParse(t4Gold);
    polarity.set(stored.itemId, gold.success ? classifyResidueLigandItem(gold.data) : null);
  }
  const p = polarity.get(stored.itemId);
  return toResponseExportRow(stored, p ? toResultColumnKey("residue_ligand", p) : null, run);
}

/**
 * Every response of the given studies over one node-postgres connection, in keyset pages of
 * `pageRows`, yielding whole pages (the worker turns each into one CSV chunk).
 */
export async function* iterateResponsePages(
  client: pg.Client,
  studyIds: readonly string[],
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<ResponseExportRow[]> {
  const readPage = createPostgresPageReader(client);
  // T4 polarity per item, computed once from its gold (items are far fewer than responses).
  const polarity = new Map<string, "pos" | "neg" | null>();
  // Identical-answer runs follow each participant through the pages (rows come in submission order).
  const runs = new IdenticalRunTracker();
  for (const studyId of studyIds) {
    let after: PageCursor | null = null;
    for (;;) {
      const page = await readPage(studyId, after, pageRows);
      if (page.length > 0) yield page.map((r) => toExportRow(r, polarity, runs));
      const last = page[page.length - 1];
      if (!last || page.length < pageRows) break;
      after = { at: last.submittedAt, id: last.responseId };
    }
  }
}
