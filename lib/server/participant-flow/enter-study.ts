import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";
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
  const lookup = Object.fromEntries(
    Object.entries(options.query).flatMap(([k, v]) => (v === undefined || /\u0000/.test(k + v) ? [] : [[k, v.trim()]])),
  );
  const [row] = await flowQuery<StudyRow>("enter-read", [
    options.slug,
    JSON.stringify(lookup),
    DEFAULT_PARTICIPANT_PARAM,
    options.existingParticipantId ?? null,
  ]);
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
    if (!id.success)
      return {
        kind: "invalid",
        message: `The link's ${config.prolific.participantParam} is not valid (${id.error.issues[0]?.message}).`,
      };
    externalId = id.data;
  }
  const existing = externalId
    ? row.lookup_param === config.prolific.participantParam
      ? row.by_external
      : await findByExternalId(study.id, externalId)
    : row.by_cookie;
  if (existing) return { kind: "ok", participantId: existing, studyId: study.id, resumed: true };
  if (study.status !== "open") return { kind: "closed", studyName: study.name };
  return createParticipant(study, config, externalId, options);
}

async function findByExternalId(studyId: string, externalId: string): Promise<string | null> {
  const found = await db.participant.findUnique({
    where: { studyId_externalId: { studyId, externalId } },
    select: { id: true },
  });
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

async function createParticipant(
  study: { id: string; name: string },
  config: StudyConfig,
  externalId: string | undefined,
  options: EnterStudyOptions,
): Promise<EnterStudyResult> {
  const now = new Date();
  const rules = options.joinLimits?.(study.id) ?? [];
  // The join limit's count and insert run inside the statement (misi_rate_limit_count, sql/functions/10_rate_limit.sql;
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
  // One statement (sql/statements/enter-create.sql): the join limit, the room left, the bound on never-consented
  // participants and the insert.
  const [out] = await flowQuery<CreatedRow>("enter-create", [
    keys,
    limits,
    sinces,
    now.toISOString(),
    study.id,
    config.maxParticipants,
    pendingLimit,
    external,
    Math.random() < 0.01,
    new Date(now.getTime() - 2 * 24 * 3600_000).toISOString(),
    id,
    !externalId,
    optional(config.prolific.studyParam),
    optional(config.prolific.sessionParam),
    config.conditions,
    config.cohortTag,
    randomBytes(8).toString("hex"),
  ]);
  if (out!.refused_rule !== null) {
    // Retry once the refusing rule's oldest event in the window leaves it.
    const rule = rules[out!.refused_rule - 1]!;
    const retryMs =
      (out!.refused_first_at ? new Date(out!.refused_first_at).getTime() : now.getTime()) +
      rule.windowMs -
      now.getTime();
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
