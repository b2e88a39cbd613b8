import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { env } from "@/lib/server/env";
import type { RateLimitRule } from "@/lib/server/rate-limit";
import { StudyConfigSchema, type StudyConfig } from "@/lib/study-config";

export type EnterStudyResult =
  | { kind: "ok"; participantId: string; studyId: string; resumed: boolean }
  | { kind: "not_found" }
  | { kind: "closed"; studyName: string }
  | { kind: "full"; studyName: string }
  | { kind: "busy"; studyName: string; retryAfterSec: number }
  | { kind: "invalid"; message: string };

/** External ids from recruitment platforms: printable, no separators we use elsewhere. */
const ExternalIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_\-:@]+$/, "letters, digits, _ - : @ only");

/** The default name of the external id's query parameter (StudyConfigSchema's prolific.participantParam). */
const DEFAULT_PARTICIPANT_PARAM = StudyConfigSchema.parse({}).prolific.participantParam;

interface EnterStudyOptions {
  slug: string;
  query: Record<string, string | undefined>;
  existingParticipantId?: string;
  /** Rate-limit rules counted when a NEW participant is made (resumes are not counted): the per-address join limit. */
  joinLimits?: (studyId: string) => RateLimitRule[];
  /** Never-consented participants kept per study; beyond it a new join removes the oldest (docs/security.md). */
  pendingLimit?: number;
}

/**
 * Finds or creates the participant for a study link. The same external id always resumes its own session
 * (unique on study × external id, so two simultaneous first visits still make one participant). Without an
 * external id (lab use), `existingParticipantId` from the cookie resumes; otherwise an anonymous id is made.
 *
 * Two statements at most, because the join is the launch's hot path: one reads the study and the participant the link or
 * cookie names (a resume ends here); a new participant is then made by one statement that counts the join limit,
 * checks maxParticipants, keeps the never-consented participants bounded and inserts, resuming instead when a
 * simultaneous first visit with the same external id won.
 *
 * Opening the link does not count for counterbalancing: the condition is given at the start (consent), by the start's
 * number (misi_start_participant, docs/participants.md). Until then the participant carries a provisional condition,
 * the one the next start would get, which nothing shows before consent and the start overwrites.
 */
export async function enterStudy(options: EnterStudyOptions): Promise<EnterStudyResult> {
  return withDbRetry(() => enterStudyOnce(options));
}

interface StudyRow {
  id: string;
  name: string;
  status: string;
  config: unknown;
  lookup_param: string;
  by_external: string | null;
  by_cookie: string | null;
}

async function enterStudyOnce(options: EnterStudyOptions): Promise<EnterStudyResult> {
  // Query values as the id check sees them (trimmed); a value no jsonb can hold (NUL) is left out of the lookup.
  const lookup = Object.fromEntries(Object.entries(options.query).flatMap(([k, v]) => (v === undefined || /\u0000/.test(k + v) ? [] : [[k, v.trim()]])));
  const [row] = await db.$queryRaw<StudyRow[]>`
    SELECT s.id, s.name, s.status::text AS status, s.config, q.param AS lookup_param,
      (SELECT p.id FROM "Participant" p WHERE p."studyId" = s.id AND p."externalId" = (${JSON.stringify(lookup)}::jsonb ->> q.param)) AS by_external,
      (SELECT p.id FROM "Participant" p WHERE p.id = ${options.existingParticipantId ?? null}::text AND p."studyId" = s.id) AS by_cookie
    FROM "Study" s CROSS JOIN LATERAL (SELECT COALESCE(s.config #>> '{prolific,participantParam}', ${DEFAULT_PARTICIPANT_PARAM}) AS param) q
    WHERE s.slug = ${options.slug}`;
  if (!row) return { kind: "not_found" };
  // A stored configuration that no longer validates (e.g. a javascript: completion URL saved before URLs were
  // checked) keeps the study closed to participants instead of serving it.
  const parsed = StudyConfigSchema.safeParse(row.config);
  if (!parsed.success) return { kind: "closed", studyName: row.name };
  const config = parsed.data;
  const study = { id: row.id, name: row.name, status: row.status };

  const rawExternal = options.query[config.prolific.participantParam];
  let externalId: string | undefined;
  if (rawExternal !== undefined) {
    const id = ExternalIdSchema.safeParse(rawExternal);
    if (!id.success) return { kind: "invalid", message: `The link's ${config.prolific.participantParam} is not valid (${id.error.issues[0]?.message}).` };
    externalId = id.data;
  }
  const existing = externalId ? (row.lookup_param === config.prolific.participantParam ? row.by_external : await findByExternalId(study.id, externalId)) : row.by_cookie;
  if (existing) return { kind: "ok", participantId: existing, studyId: study.id, resumed: true };
  if (study.status !== "open") return { kind: "closed", studyName: study.name };
  return createParticipant(study, config, externalId, options);
}

async function findByExternalId(studyId: string, externalId: string): Promise<string | null> {
  const found = await db.participant.findUnique({ where: { studyId_externalId: { studyId, externalId } }, select: { id: true } });
  return found?.id ?? null;
}

interface CreatedRow {
  participant_id: string | null;
  created: boolean | null;
  open: boolean;
  full: boolean;
  refused_rule: number | null;
  refused_first_at: Date | null;
}

async function createParticipant(study: { id: string; name: string }, config: StudyConfig, externalId: string | undefined, options: EnterStudyOptions): Promise<EnterStudyResult> {
  const now = new Date();
  const rules = options.joinLimits?.(study.id) ?? [];
  // The join limit's count and insert run inside this statement (misi_rate_limit_count, sql/functions/10_rate_limit.sql;
  // timestamp(3) columns hold UTC wall time, so ISO strings are cast to timestamp).
  const keys = rules.map((r) => r.key);
  const limits = rules.map((r) => r.limit);
  const sinces = rules.map((r) => new Date(now.getTime() - r.windowMs).toISOString());
  const optional = (name: string) => {
    const v = options.query[name];
    return v && v.length <= 128 ? v : null;
  };
  const id = newParticipantId();
  const external = externalId ?? `anon-${randomBytes(8).toString("hex")}`;
  const pendingLimit = options.pendingLimit ?? env.PARTICIPANT_PENDING_LIMIT_PER_STUDY;
  // The study's counter row is only read, so joins never queue on it: how many have started (maxParticipants counts
  // only those; the provisional condition is the next start's turn). `go` is empty when the join limit refused or the
  // study closed meanwhile: then nothing below writes. ON CONFLICT … DO UPDATE (a no-op) returns the id of a
  // participant a simultaneous first visit with the same external id committed after this statement's snapshot.
  // `pruned`: one call in 100 deletes rate-limit events older than two days, as consumeRateLimit does.
  const [out] = await db.$queryRaw<CreatedRow[]>`
    WITH rl AS (
      SELECT rule_index, event_count, first_at FROM misi_rate_limit_count(
        ${keys}::text[], ${limits}::int[], ${sinces}::text[]::timestamp(3)[], ${now.toISOString()}::timestamp(3), misi_rate_limit_lock(${keys}::text[]))
    ),
    refused AS (
      SELECT rl.rule_index, rl.first_at FROM rl WHERE rl.event_count >= (${limits}::int[])[rl.rule_index] ORDER BY rl.rule_index LIMIT 1
    ),
    go AS (SELECT s.id FROM "Study" s WHERE s.id = ${study.id} AND s.status = 'open' AND NOT EXISTS (SELECT 1 FROM refused)),
    cnt AS (SELECT COALESCE((SELECT started FROM "StudyParticipantCounter" WHERE "studyId" = ${study.id}), 0) AS started),
    room AS (SELECT go.id, cnt.started FROM go, cnt WHERE ${config.maxParticipants}::int IS NULL OR cnt.started < ${config.maxParticipants}::int),
    pending AS (
      SELECT count(*)::int AS n FROM (SELECT 1 FROM "Participant" WHERE "studyId" = ${study.id} AND status = 'consenting' LIMIT ${pendingLimit}::int) x
    ),
    evicted AS (
      DELETE FROM "Participant" d WHERE d.status = 'consenting' AND d.id IN (
        SELECT p.id FROM "Participant" p
        WHERE EXISTS (SELECT 1 FROM room) AND (SELECT n FROM pending) >= ${pendingLimit}::int
          AND p."studyId" = ${study.id} AND p.status = 'consenting' AND p."externalId" <> ${external}
          AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."participantId" = p.id)
        ORDER BY p."lastSeenAt", p.id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id
    ),
    pruned AS (
      DELETE FROM "SignInAttempt" WHERE ${Math.random() < 0.01}::boolean AND "at" < ${new Date(now.getTime() - 2 * 24 * 3600_000).toISOString()}::timestamp(3)
    ),
    ins AS (
      INSERT INTO "Participant" (id, "studyId", "externalId", anonymous, "externalStudyId", "externalSessionId", condition, cohort, "orderSeed")
      SELECT ${id}, room.id, ${external}, ${!externalId}::boolean, ${optional(config.prolific.studyParam)}::text, ${optional(config.prolific.sessionParam)}::text,
        (${config.conditions}::text[])[(room.started % ${config.conditions.length}::int) + 1], ${config.cohortTag}::text, ${randomBytes(8).toString("hex")}
      FROM room
      ON CONFLICT ("studyId", "externalId") DO UPDATE SET "externalId" = EXCLUDED."externalId"
      RETURNING id
    )
    SELECT (SELECT ins.id FROM ins) AS participant_id, (SELECT ins.id = ${id} FROM ins) AS created,
      EXISTS (SELECT 1 FROM "Study" s WHERE s.id = ${study.id} AND s.status = 'open') AS open,
      EXISTS (SELECT 1 FROM go) AND NOT EXISTS (SELECT 1 FROM room) AS full,
      (SELECT rule_index FROM refused) AS refused_rule, (SELECT first_at FROM refused) AS refused_first_at`;
  if (out!.refused_rule !== null) {
    // Retry once the refusing rule's oldest event in the window leaves it.
    const rule = rules[out!.refused_rule - 1]!;
    const retryMs = (out!.refused_first_at ? new Date(out!.refused_first_at).getTime() : now.getTime()) + rule.windowMs - now.getTime();
    return { kind: "busy", studyName: study.name, retryAfterSec: Math.max(1, Math.ceil(retryMs / 1000)) };
  }
  if (!out!.open) return { kind: "closed", studyName: study.name };
  if (out!.full || !out!.participant_id) return { kind: "full", studyName: study.name };
  return { kind: "ok", participantId: out!.participant_id, studyId: study.id, resumed: !out!.created };
}

/** A collision-resistant id like Prisma's cuid() default (which only Prisma's own create applies): c + time + random. */
function newParticipantId(): string {
  return `c${Date.now().toString(36)}${randomBytes(12).toString("hex")}`;
}
