import "server-only";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";
import { findTask } from "@/lib/tasks/registry";
import type { AnswerWidget } from "@/lib/tasks/types";
import { consentTextFor, interactiveFor, parseStoredStudyConfig, type StudyConfig } from "@/lib/study-config";
import type { PublicItemDto } from "@/lib/server/participant-flow/get-public-item";
import { withoutScene } from "@/lib/scene3d";
import { hasCapacity } from "@/lib/server/participant-flow/assign-items";
import { withDbRetry } from "@/lib/server/db-retry";
import {
  DEVICE_SCREEN_OUT_MESSAGE,
  effectiveDeviceRule,
  type EffectiveDeviceRule,
} from "@/lib/participant/device-rule";
import { SCREEN_OUT_REASON_DEVICE } from "@/lib/server/participant-flow/device-and-primer";

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
  /** A question of this task was answered already (the session read only; see the contract). */
  taskAnswered?: boolean;
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
   * empty in a timed study (lib/server/participant-flow/question-content-gate.ts).
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
export type SessionUpdateDto = Pick<
  ParticipantSessionDto,
  | "participant"
  | "progress"
  | "current"
  | "upcomingImageIds"
  | "upcomingImageUrls"
  | "completion"
  | "screenedOut"
  | "noWork"
>;

/** The next question as the browser gets it, from the item's public columns (never the answer key). */
export function toCurrentQuestion(
  next: {
    id: string;
    position: number;
    phase: CurrentQuestionDto["phase"];
    questionShownAt?: Date | null;
    taskAnswered?: boolean | null;
  },
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
    task: {
      id: task.id,
      label: task.label,
      instructions: task.instructions,
      widget: task.answerWidget,
      format: task.format,
    },
    interactive: condition === "interactive" && hasScene(item.payload) ? interactiveFor(config, task.id) : null,
    alreadyShown: (next.questionShownAt ?? null) !== null,
    ...(next.taskAnswered ? { taskAnswered: true } : {}),
  };
}

/** The end-of-session screens for a participant status. */
export function endScreens(
  status: string,
  config: StudyConfig,
  screenOutReason: string | null = null,
): Pick<ParticipantSessionDto, "completion" | "screenedOut"> {
  return {
    completion:
      status === "completed"
        ? { code: config.prolific.completionCode ?? null, url: config.prolific.completionUrl ?? null }
        : null,
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
 * statements (sql/statements/_next-question.sql): the assignment and its item's public fields.
 */
export interface NextQuestionColumns {
  nextId: string | null;
  nextPosition: number | null;
  nextPhase: CurrentQuestionDto["phase"] | null;
  nextQuestionShownAt: Date | null;
  /** The session read only: a question of the next question's task is answered. */
  taskAnswered?: boolean | null;
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

/**
 * The current question and the image ids of the one after it, from a statement's next-question columns. None ahead in
 * a timed study: there a question's images are served only once it is current and reported shown.
 */
export function nextQuestionOf(
  row: NextQuestionColumns,
  condition: string,
  config: StudyConfig,
): Pick<ParticipantSessionDto, "current" | "upcomingImageIds"> {
  if (!row.nextId || !row.itemId) return { current: null, upcomingImageIds: [] };
  const item: PublicItemDto = {
    id: row.itemId,
    taskId: row.taskId!,
    taskVersion: row.taskVersion!,
    question: row.question!,
    payload: row.payload,
    images: row.images as PublicItemDto["images"],
  };
  const current = toCurrentQuestion(
    {
      id: row.nextId,
      position: row.nextPosition!,
      phase: row.nextPhase!,
      questionShownAt: row.nextQuestionShownAt,
      taskAnswered: row.taskAnswered,
    },
    item,
    condition,
    config,
  );
  const upcoming = current && config.timeLimitSec === null ? row.upcomingImageIds : [];
  return {
    current,
    upcomingImageIds: Array.isArray(upcoming) ? upcoming.filter((id): id is string => typeof id === "string") : [],
  };
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
  screenOutReason: string | null;
  primerSeen: boolean;
}

/**
 * One statement (sql/statements/session-read.sql): a started participant's page load, reload or consent reply is one
 * round trip. Before consent, the capacity check (hasCapacity) adds its own calls.
 */
async function readSession(participantId: string): Promise<ParticipantSessionDto | null> {
  const [row] = await flowQuery<SessionRow>("session-read", [
    participantId,
    new Date().toISOString(),
    MIN_COMPLETIONS_FOR_MEDIAN,
  ]);
  if (!row) return null;
  const config = parseStoredStudyConfig(row.config);
  const status = row.status;
  const { current, upcomingImageIds } = nextQuestionOf(row, row.condition, config);
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
    upcomingImageIds,
    ...endScreens(status, config, row.screenOutReason),
    noWork:
      status === "consenting" &&
      !(await hasCapacity(row.studyId, { id: row.studyId, poolVersionId: row.poolVersionId, config })),
  };
}
