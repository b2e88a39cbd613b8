import "server-only";
import { db } from "@/lib/server/db";
import { findTask } from "@/lib/tasks/registry";
import type { AnswerWidget } from "@/lib/tasks/types";
import { consentTextFor, interactiveFor, StudyConfigSchema, type StudyConfig } from "@/lib/study-config";
import type { PublicItemDto } from "@/lib/server/dal/participant/get-public-item";
import { withoutScene } from "@/lib/scene3d";
import { hasCapacity } from "@/lib/server/dal/participant/assign-items";
import { withDbRetry } from "@/lib/server/db-retry";
import { DEVICE_SCREEN_OUT_MESSAGE, effectiveDeviceRule, type EffectiveDeviceRule } from "@/lib/participant/device-rule";
import { SCREEN_OUT_REASON_DEVICE } from "@/lib/server/dal/participant/device-and-primer";

export interface CurrentQuestionDto {
  assignmentId: string;
  position: number;
  phase: "practice" | "main" | "attention";
  item: PublicItemDto;
  task: { id: string; label: string; instructions: string; widget: AnswerWidget; format: string };
  /** Set when the participant is in the interactive condition and the item has a 3D scene. */
  interactive: { allowRotate: boolean; allowZoom: boolean } | null;
  /**
   * The question was already reported shown (its clock runs from that stamp): after a reload the browser goes straight
   * back to it instead of showing the task's instructions (or the H-bond primer) again while the clock runs.
   */
  alreadyShown: boolean;
}

/** Everything the participant's browser needs for its current screen. Public data only. */
export interface ParticipantSessionDto {
  participant: { id: string; status: string; condition: string; consented: boolean };
  study: {
    name: string;
    slug: string;
    consentText: string;
    declineMessage: string;
    timeLimitSec: number | null;
    /** The H-bond primer is shown before the first H-bond task. */
    hbondPrimer: boolean;
    /** Devices the study takes; "desktop": the browser reports its device before consent (lib/participant/device-rule.ts). */
    deviceRule: EffectiveDeviceRule;
    tasks: Array<{ id: string; label: string; instructions: string }>;
  };
  progress: { answered: number; total: number; practiceTotal: number };
  /** The participant has read the H-bond primer (recorded on the server, so it is not shown again in a new browser). */
  hbondPrimerSeen: boolean;
  current: CurrentQuestionDto | null;
  /**
   * Image ids of the question after the current one, for the browser to fetch while the current one is answered. Always
   * empty in a timed study (lib/server/dal/participant/question-content-gate.ts).
   */
  upcomingImageIds: string[];
  /** Signed addresses of the upcoming images, added by the participant routes (lib/server/image-url.ts). */
  upcomingImageUrls?: string[];
  completion: { code: string | null; url: string | null } | null;
  screenedOut: { message: string; returnUrl: string | null } | null;
  /**
   * Not started yet and the study cannot take this participant (every item has its k answers reserved, or
   * maxParticipants have started): told before consenting, and not counted.
   */
  noWork: boolean;
}

/** What changes after an answer: everything but the study's texts, which the browser already has. */
export type SessionUpdateDto = Pick<ParticipantSessionDto, "participant" | "progress" | "current" | "upcomingImageIds" | "upcomingImageUrls" | "completion" | "screenedOut" | "noWork">;

/** The next question as the browser gets it, from the item's public columns (never the answer key). */
export function toCurrentQuestion(
  next: { id: string; position: number; phase: CurrentQuestionDto["phase"]; questionShownAt?: Date | null },
  item: PublicItemDto,
  condition: string,
  config: StudyConfig,
): CurrentQuestionDto | null {
  const task = findTask(item.taskId);
  if (!task) return null;
  return {
    assignmentId: next.id,
    position: next.position,
    phase: next.phase,
    item: { ...item, payload: withoutScene(item.payload) },
    task: { id: task.id, label: task.label, instructions: task.instructions, widget: task.answerWidget, format: task.format },
    interactive: condition === "interactive" && hasScene(item.payload) ? interactiveFor(config, task.id) : null,
    alreadyShown: (next.questionShownAt ?? null) !== null,
  };
}

/** The end-of-session screens for a participant status. */
export function endScreens(status: string, config: StudyConfig, screenOutReason: string | null = null): Pick<ParticipantSessionDto, "completion" | "screenedOut"> {
  return {
    completion: status === "completed" ? { code: config.prolific.completionCode ?? null, url: config.prolific.completionUrl ?? null } : null,
    screenedOut:
      status === "screened_out"
        ? {
            message:
              screenOutReason === SCREEN_OUT_REASON_DEVICE
                ? DEVICE_SCREEN_OUT_MESSAGE
                : "Thank you for your time. Unfortunately you did not pass the attention checks, so the study ends here.",
            returnUrl: config.prolific.returnUrl ?? null,
          }
        : null,
  };
}

function hasScene(payload: unknown): boolean {
  return !!payload && typeof payload === "object" && "scene3d" in payload;
}

/** Fewer finished participants than this: the consent text estimates the duration from the study's length. */
const MIN_COMPLETIONS_FOR_MEDIAN = 5;

/**
 * The participant's current state; marks the current question as first shown (server-side response time). Never
 * assigns or renews reservations. Retried on a dropped connection (its writes are idempotent).
 */
export async function getParticipantSession(participantId: string): Promise<ParticipantSessionDto | null> {
  return withDbRetry(() => readSession(participantId));
}

/**
 * The columns a participant's next (current) question arrives in, from the session read and from the answer submit's
 * statements (record-response.ts): the assignment and its item's public fields.
 */
export interface NextQuestionColumns {
  nextId: string | null;
  nextPosition: number | null;
  nextPhase: CurrentQuestionDto["phase"] | null;
  itemId: string | null;
  taskId: string | null;
  taskVersion: number | null;
  question: string | null;
  payload: unknown;
  images: unknown;
  upcomingImageIds: unknown;
  answered: number;
  total: number;
  practice: number;
}

interface SessionRow extends NextQuestionColumns {
  id: string;
  studyId: string;
  status: string;
  condition: string;
  consentAt: Date | null;
  studyName: string;
  studySlug: string;
  poolVersionId: string;
  config: unknown;
  /** Median consent-to-completion seconds of the study's finished participants; only read before consent. */
  medianSec: number | null;
  nextQuestionShownAt: Date | null;
  screenOutReason: string | null;
  primerSeen: boolean;
}

const fromJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

/**
 * One statement (a started participant's page load, reload or consent reply is one round trip): participant, study,
 * progress, the current question with the public columns of its item (as findPublicItem: never the answer key) and the
 * next one's image ids. Its two writes are idempotent: a started participant with nothing left open is completed (items
 * excluded after assignment are skipped), and the current question's firstShownAt is stamped only where it is missing.
 * Before consent, the capacity check (hasCapacity) adds its own calls.
 */
async function readSession(participantId: string): Promise<ParticipantSessionDto | null> {
  const now = new Date().toISOString();
  const [row] = await db.$queryRaw<SessionRow[]>`
    WITH p AS (
      SELECT p.id, p."studyId", p.status::text AS status, p.condition, p."consentAt", p.flags,
             s.name AS "studyName", s.slug AS "studySlug", s."poolVersionId", s.config
      FROM "Participant" p JOIN "Study" s ON s.id = p."studyId"
      WHERE p.id = ${participantId}
    ), a AS (
      SELECT x.id, x.position, x.phase::text AS phase, x.status::text AS status, x."itemId", x."questionShownAt",
             (x.status = 'assigned' AND xi.status = 'active') AS open
      FROM "Assignment" x JOIN "Item" xi ON xi.id = x."itemId"
      WHERE x."participantId" = ${participantId} AND x.status <> 'abandoned'
    ), open AS (
      SELECT a.*, row_number() OVER (ORDER BY a.position) AS rn FROM a WHERE a.open
    ), finished AS (
      -- Nothing left to answer (the rest was excluded, or released and taken by others): the session is complete.
      SELECT EXISTS (SELECT 1 FROM p WHERE p.status = 'active') AND EXISTS (SELECT 1 FROM a) AND NOT EXISTS (SELECT 1 FROM open) AS yes
    ), done AS (
      UPDATE "Participant" SET status = 'completed', "completedAt" = ${now}::timestamp(3)
      WHERE id = ${participantId} AND status = 'active' AND (SELECT yes FROM finished)
      RETURNING 1
    ), nxt AS (
      SELECT open.* FROM open WHERE open.rn = 1 AND EXISTS (SELECT 1 FROM p WHERE p.status = 'active')
    ), stamp AS (
      UPDATE "Assignment" SET "firstShownAt" = COALESCE("firstShownAt", ${now}::timestamp(3))
      WHERE id = (SELECT id FROM nxt) AND "firstShownAt" IS NULL
      RETURNING 1
    )
    SELECT p.id, p."studyId", CASE WHEN (SELECT yes FROM finished) THEN 'completed' ELSE p.status END AS status,
           p.condition, p."consentAt", p."studyName", p."studySlug", p."poolVersionId", p.config,
           p.flags ->> 'screenOutReason' AS "screenOutReason", (p.flags ? 'hbondPrimerSeenAt') IS TRUE AS "primerSeen",
           CASE WHEN p."consentAt" IS NULL THEN (
             SELECT CASE WHEN count(*) >= ${MIN_COMPLETIONS_FOR_MEDIAN}::int
                         THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM (c."completedAt" - c."consentAt"))) END
             FROM "Participant" c
             WHERE c."studyId" = p."studyId" AND c.status = 'completed' AND c."consentAt" IS NOT NULL AND c."completedAt" IS NOT NULL
           ) END AS "medianSec",
           (SELECT count(*) FROM a WHERE a.status = 'answered')::int AS answered, (SELECT count(*) FROM a)::int AS total,
           (SELECT count(*) FROM a WHERE a.phase = 'practice')::int AS practice,
           n.id AS "nextId", n.position AS "nextPosition", n.phase AS "nextPhase", n."questionShownAt" AS "nextQuestionShownAt",
           ni.id AS "itemId", ni."taskId", ni."taskVersion", ni.question, ni.payload,
           (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', im.id, 'position', im.position, 'caption', im.caption) ORDER BY im.position), '[]'::jsonb)
            FROM "ItemImage" im WHERE im."itemId" = ni.id) AS images,
           -- The question after the current one: its image ids let the browser fetch them while this one is answered.
           (SELECT COALESCE(jsonb_agg(ui.id ORDER BY ui.position), '[]'::jsonb)
            FROM "ItemImage" ui WHERE n.id IS NOT NULL AND ui."itemId" = (SELECT o."itemId" FROM open o WHERE o.rn = 2)) AS "upcomingImageIds"
    FROM p LEFT JOIN nxt n ON true LEFT JOIN "Item" ni ON ni.id = n."itemId"`;
  if (!row) return null;
  const config = StudyConfigSchema.parse(fromJson(row.config));
  const status = row.status;
  let current: CurrentQuestionDto | null = null;
  if (row.nextId && row.itemId) {
    const item: PublicItemDto = {
      id: row.itemId,
      taskId: row.taskId!,
      taskVersion: row.taskVersion!,
      question: row.question!,
      payload: fromJson(row.payload),
      images: fromJson(row.images) as PublicItemDto["images"],
    };
    current = toCurrentQuestion({ id: row.nextId, position: row.nextPosition!, phase: row.nextPhase!, questionShownAt: row.nextQuestionShownAt }, item, row.condition, config);
  }
  // Not in a timed study: its images are served only once it is the current question and reported shown.
  const upcoming = current && config.timeLimitSec === null ? fromJson(row.upcomingImageIds) : [];
  const tasks = config.tasks.map((id) => findTask(id)).filter((t) => t !== undefined);
  const medianSec = row.consentAt === null && row.medianSec !== null ? Number(row.medianSec) : null;
  return {
    participant: { id: row.id, status, condition: row.condition, consented: row.consentAt !== null },
    study: {
      name: row.studyName,
      slug: row.studySlug,
      consentText: consentTextFor(config, medianSec),
      declineMessage: config.declineMessage,
      timeLimitSec: config.timeLimitSec,
      hbondPrimer: config.hbondPrimer,
      deviceRule: effectiveDeviceRule(config),
      tasks: tasks.map((t) => ({ id: t.id, label: t.label, instructions: t.instructions })),
    },
    progress: { answered: row.answered, total: row.total, practiceTotal: row.practice },
    hbondPrimerSeen: row.primerSeen === true,
    current,
    upcomingImageIds: Array.isArray(upcoming) ? upcoming.filter((id): id is string => typeof id === "string") : [],
    ...endScreens(status, config, row.screenOutReason),
    noWork: status === "consenting" && !(await hasCapacity(row.studyId, { id: row.studyId, poolVersionId: row.poolVersionId, config })),
  };
}
