import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import { StudyConfigSchema, type Condition } from "@/lib/study-config";

export type EnterStudyResult =
  | { kind: "ok"; participantId: string; studyId: string; resumed: boolean }
  | { kind: "not_found" }
  | { kind: "closed"; studyName: string }
  | { kind: "full"; studyName: string }
  | { kind: "busy"; studyName: string; retryAfterSec: number }
  | { kind: "invalid"; message: string };

/** External ids from recruitment platforms: printable, no separators we use elsewhere. */
const ExternalIdSchema = z.string().trim().min(1).max(128).regex(/^[A-Za-z0-9_\-:@]+$/, "letters, digits, _ - : @ only");

export async function loadStudyBySlug(slug: string) {
  const study = await db.study.findUnique({ where: { slug }, select: { id: true, name: true, status: true, config: true } });
  if (!study) return null;
  // A stored configuration that no longer validates (e.g. a javascript: completion URL saved before URLs were
  // checked) keeps the study closed to participants instead of serving it.
  const parsed = StudyConfigSchema.safeParse(study.config);
  return { ...study, config: parsed.success ? parsed.data : null };
}

/**
 * Finds or creates the participant for a study link. The same external id always resumes its own session
 * (unique on study × external id, so two simultaneous first visits still make one participant). Without an
 * external id (lab use), `existingParticipantId` from the cookie resumes; otherwise an anonymous id is made.
 */
export async function enterStudy(options: EnterStudyOptions): Promise<EnterStudyResult> {
  return withDbRetry(() => enterStudyOnce(options));
}

interface EnterStudyOptions {
  slug: string;
  query: Record<string, string | undefined>;
  existingParticipantId?: string;
  /** Asked before a NEW participant is created (resumes are not counted): the join rate limits (issue 11). */
  admit?: (studyId: string) => Promise<{ ok: true } | { ok: false; retryAfterSec: number }>;
}

async function enterStudyOnce(options: EnterStudyOptions): Promise<EnterStudyResult> {
  const study = await loadStudyBySlug(options.slug);
  if (!study) return { kind: "not_found" };
  const { config } = study;
  if (!config) return { kind: "closed", studyName: study.name };
  const rawExternal = options.query[config.prolific.participantParam];
  let externalId: string | undefined;
  if (rawExternal !== undefined) {
    const parsed = ExternalIdSchema.safeParse(rawExternal);
    if (!parsed.success) return { kind: "invalid", message: `The link's ${config.prolific.participantParam} is not valid (${parsed.error.issues[0]?.message}).` };
    externalId = parsed.data;
  }

  const existing = externalId
    ? await db.participant.findUnique({ where: { studyId_externalId: { studyId: study.id, externalId } }, select: { id: true } })
    : options.existingParticipantId
      ? await db.participant.findFirst({ where: { id: options.existingParticipantId, studyId: study.id }, select: { id: true } })
      : null;
  if (existing) return { kind: "ok", participantId: existing.id, studyId: study.id, resumed: true };

  if (study.status !== "open") return { kind: "closed", studyName: study.name };
  if (options.admit) {
    const admitted = await options.admit(study.id);
    if (!admitted.ok) return { kind: "busy", studyName: study.name, retryAfterSec: admitted.retryAfterSec };
  }

  const optional = (name: string) => {
    const v = options.query[name];
    return v && v.length <= 128 ? v : null;
  };
  try {
    // No lock. With several conditions one upsert counts the join (its number picks the condition in turn, which
    // counterbalances simultaneous joiners exactly); with one condition the counter row is only read, so joins never
    // queue on it. Either way it says how many have started (maxParticipants counts only those).
    const [counter] =
      config.conditions.length > 1
        ? await db.$queryRaw<Array<{ joined: number; started: number }>>`
            INSERT INTO "StudyParticipantCounter" ("studyId", joined, started) VALUES (${study.id}, 1, 0)
            ON CONFLICT ("studyId") DO UPDATE SET joined = "StudyParticipantCounter".joined + 1
            RETURNING joined, started`
        : await db.$queryRaw<Array<{ joined: number; started: number }>>`
            SELECT 1 AS joined, COALESCE((SELECT started FROM "StudyParticipantCounter" WHERE "studyId" = ${study.id}), 0)::int AS started`;
    if (config.maxParticipants !== null && counter!.started >= config.maxParticipants) return { kind: "full", studyName: study.name };
    const condition: Condition = config.conditions[(counter!.joined - 1) % config.conditions.length]!;
    const participant = await db.participant.create({
      data: {
        studyId: study.id,
        externalId: externalId ?? `anon-${randomBytes(8).toString("hex")}`,
        anonymous: !externalId,
        externalStudyId: optional(config.prolific.studyParam),
        externalSessionId: optional(config.prolific.sessionParam),
        condition,
        cohort: config.cohortTag,
        orderSeed: randomBytes(8).toString("hex"),
      },
      select: { id: true },
    });
    return { kind: "ok", participantId: participant.id, studyId: study.id, resumed: false };
  } catch (err) {
    // A simultaneous first visit with the same external id won the race: resume that participant.
    if (externalId && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const winner = await db.participant.findUniqueOrThrow({ where: { studyId_externalId: { studyId: study.id, externalId } }, select: { id: true } });
      return { kind: "ok", participantId: winner.id, studyId: study.id, resumed: true };
    }
    throw err;
  }
}
