import "server-only";
import { UNSPECIFIED_COHORT } from "@/lib/export/response-table";
import type { ParticipantExportRow } from "@/lib/export/summary-tables";
import { db } from "@/lib/server/db";

const PARTICIPANT_PAGE_ROWS = 1_000;

interface RawParticipantRow {
  participantId: string;
  studyId: string;
  studySlug: string;
  externalId: string;
  anonymous: boolean;
  cohort: string | null;
  condition: string;
  status: string;
  consentAt: Date | null;
  startedAt: Date;
  completedAt: Date | null;
  deviceInfo: unknown;
  flags: unknown;
  nMain: number;
  nPractice: number;
  nAttention: number;
  exactMean: number | null;
  partialMean: number | null;
  medianRtMs: number | null;
  medianRtClientMs: number | null;
}

async function readPage(studyId: string, after: { at: Date; id: string } | null): Promise<RawParticipantRow[]> {
  const afterAt = after?.at ?? new Date(0);
  const afterId = after?.id ?? "";
  return db.$queryRaw<RawParticipantRow[]>`
    SELECT p.id AS "participantId", p."studyId", s.slug AS "studySlug", p."externalId", p.anonymous, p.cohort, p.condition,
           p.status::text AS status, p."consentAt", p."startedAt", p."completedAt", p."deviceInfo", p.flags,
           (COUNT(r.id) FILTER (WHERE r.phase = 'main'))::int AS "nMain",
           (COUNT(r.id) FILTER (WHERE r.phase = 'practice'))::int AS "nPractice",
           (COUNT(r.id) FILTER (WHERE r.phase = 'attention'))::int AS "nAttention",
           (AVG(r.exact) FILTER (WHERE r.phase = 'main'))::float8 AS "exactMean",
           (AVG(r.partial) FILTER (WHERE r.phase = 'main'))::float8 AS "partialMean",
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY COALESCE(r."rtServerMs", r."rtClientMs")) FILTER (WHERE r.phase = 'main'))::float8 AS "medianRtMs",
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY r."rtClientMs") FILTER (WHERE r.phase = 'main'))::float8 AS "medianRtClientMs"
    FROM "Participant" p
    JOIN "Study" s ON s.id = p."studyId"
    LEFT JOIN "Response" r ON r."participantId" = p.id
    WHERE p."studyId" = ${studyId} AND (p."startedAt", p.id) > (${afterAt}::timestamp(3), ${afterId}::text)
    GROUP BY p.id, s.slug
    ORDER BY p."startedAt", p.id
    LIMIT ${PARTICIPANT_PAGE_ROWS}`;
}

function readFlags(flags: unknown): { attentionFailures: number | null; flagged: boolean | null; hbondPrimer: boolean | null } {
  const f = flags && typeof flags === "object" ? (flags as Record<string, unknown>) : {};
  return {
    attentionFailures: typeof f.attentionFailures === "number" ? f.attentionFailures : null,
    flagged: typeof f.flagged === "boolean" ? f.flagged : null,
    hbondPrimer: typeof f.hbondPrimer === "boolean" ? f.hbondPrimer : null,
  };
}

/** Participants of the given studies with their response counts and main-phase scores, in keyset pages. */
export async function* iterateParticipantRows(studyIds: readonly string[]): AsyncGenerator<ParticipantExportRow> {
  for (const studyId of studyIds) {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page = await readPage(studyId, after);
      for (const p of page) {
        yield {
          participantId: p.participantId,
          studyId: p.studyId,
          studySlug: p.studySlug,
          externalId: p.externalId,
          anonymous: p.anonymous,
          cohort: p.cohort && p.cohort.trim() !== "" ? p.cohort : UNSPECIFIED_COHORT,
          condition: p.condition,
          status: p.status,
          consentAt: p.consentAt,
          startedAt: p.startedAt,
          completedAt: p.completedAt,
          deviceInfo: p.deviceInfo,
          ...readFlags(p.flags),
          nMainResponses: p.nMain,
          nPracticeResponses: p.nPractice,
          nAttentionResponses: p.nAttention,
          exactMean: p.exactMean,
          partialMean: p.partialMean,
          medianRtMs: p.medianRtMs,
          medianRtClientMs: p.medianRtClientMs,
        };
      }
      const last = page[page.length - 1];
      if (!last || page.length < PARTICIPANT_PAGE_ROWS) break;
      after = { at: last.startedAt, id: last.participantId };
    }
  }
}
