import "server-only";
import { UNSPECIFIED_COHORT } from "@/lib/export/response-table";
import type { ParticipantExportRow } from "@/lib/export/summary-tables";
import { db } from "@/lib/server/db";
import {
  exclusionReasons,
  SignalDeviceSchema,
  summarizeParticipantSignals,
  type ExclusionPolicy,
  type ParticipantSignalSummary,
  type SignalDevice,
} from "@/lib/participant/integrity";
import { listSignalledAnswers, readExclusionPolicy } from "@/lib/server/dal/results/get-integrity";

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

function readFlags(flags: unknown): {
  attentionFailures: number | null;
  flagged: boolean | null;
  hbondPrimer: boolean | null;
} {
  const f = flags && typeof flags === "object" ? (flags as Record<string, unknown>) : {};
  return {
    attentionFailures: typeof f.attentionFailures === "number" ? f.attentionFailures : null,
    flagged: typeof f.flagged === "boolean" ? f.flagged : null,
    hbondPrimer: typeof f.hbondPrimer === "boolean" ? f.hbondPrimer : null,
  };
}

/** The page's participants' integrity signals: device and automation flag, main-answer totals, the policy's verdict. */
async function readSignals(participantIds: string[]): Promise<{
  device: Map<string, { device: SignalDevice | null; webdriver: boolean }>;
  totals: Map<string, ParticipantSignalSummary>;
}> {
  if (participantIds.length === 0) return { device: new Map(), totals: new Map() };
  const rows = await db.participantSignals.findMany({
    where: { participantId: { in: participantIds } },
    select: { participantId: true, device: true, webdriver: true },
  });
  const device = new Map(
    rows.map((r) => {
      const d = SignalDeviceSchema.safeParse(r.device);
      return [r.participantId, { device: d.success ? d.data : null, webdriver: r.webdriver }];
    }),
  );
  const totals = new Map(
    summarizeParticipantSignals(await listSignalledAnswers({ participantIds })).map((s) => [s.participantId, s]),
  );
  return { device, totals };
}

/**
 * Participants of the given studies with their response counts and main-phase scores, in keyset pages. excluded_by
 * applies each participant's own study's exclusion policy, or `policy` when given (the analysis package passes the
 * viewed study's, the one its results page applies to every study of a pool).
 */
export async function* iterateParticipantRows(
  studyIds: readonly string[],
  options: { policy?: ExclusionPolicy } = {},
): AsyncGenerator<ParticipantExportRow> {
  for (const studyId of studyIds) {
    const policy = options.policy ?? (await readExclusionPolicy(studyId));
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page = await readPage(studyId, after);
      const signals = await readSignals(page.map((p) => p.participantId));
      for (const p of page) {
        const device = signals.device.get(p.participantId);
        const totals = signals.totals.get(p.participantId) ?? null;
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
          signalDevice: device?.device ?? null,
          signalWebdriver: device ? device.webdriver : null,
          signalTotals: totals,
          excludedBy: totals ? exclusionReasons(policy, totals) : null,
        };
      }
      const last = page[page.length - 1];
      if (!last || page.length < PARTICIPANT_PAGE_ROWS) break;
      after = { at: last.startedAt, id: last.participantId };
    }
  }
}
