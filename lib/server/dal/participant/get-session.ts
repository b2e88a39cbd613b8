import "server-only";
import { db } from "@/lib/server/db";
import { findTask } from "@/lib/tasks/registry";
import type { AnswerWidget } from "@/lib/tasks/types";
import { consentTextFor, interactiveFor, StudyConfigSchema, type StudyConfig } from "@/lib/study-config";
import { findPublicItem, type PublicItemDto } from "@/lib/server/dal/participant/get-public-item";
import { withoutScene } from "@/lib/scene3d";
import { hasCapacity } from "@/lib/server/dal/participant/assign-items";
import { withDbRetry } from "@/lib/server/db-retry";

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
    tasks: Array<{ id: string; label: string; instructions: string }>;
  };
  progress: { answered: number; total: number; practiceTotal: number };
  current: CurrentQuestionDto | null;
  /**
   * Image ids of the question after the current one, for the browser to fetch while the current one is answered. Always
   * empty in a timed study (lib/server/dal/participant/question-content-gate.ts).
   */
  upcomingImageIds: string[];
  completion: { code: string | null; url: string | null } | null;
  screenedOut: { message: string; returnUrl: string | null } | null;
  /**
   * Not started yet and the study cannot take this participant (every item has its k answers reserved, or
   * maxParticipants have started): told before consenting, and not counted.
   */
  noWork: boolean;
}

/** What changes after an answer: everything but the study's texts, which the browser already has. */
export type SessionUpdateDto = Pick<ParticipantSessionDto, "participant" | "progress" | "current" | "upcomingImageIds" | "completion" | "screenedOut" | "noWork">;

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
export function endScreens(status: string, config: StudyConfig): Pick<ParticipantSessionDto, "completion" | "screenedOut"> {
  return {
    completion: status === "completed" ? { code: config.prolific.completionCode ?? null, url: config.prolific.completionUrl ?? null } : null,
    screenedOut:
      status === "screened_out"
        ? { message: "Thank you for your time. Unfortunately you did not pass the attention checks, so the study ends here.", returnUrl: config.prolific.returnUrl ?? null }
        : null,
  };
}

function hasScene(payload: unknown): boolean {
  return !!payload && typeof payload === "object" && "scene3d" in payload;
}

/** Fewer finished participants than this: the consent text estimates the duration from the study's length. */
const MIN_COMPLETIONS_FOR_MEDIAN = 5;

/** Median consent-to-completion time of the study's finished participants, or null with too few of them. */
async function medianDurationSeconds(studyId: string): Promise<number | null> {
  const rows = await db.$queryRaw<Array<{ n: bigint | number; median: number | null }>>`
    SELECT count(*) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ("completedAt" - "consentAt"))) AS median
    FROM "Participant" WHERE "studyId" = ${studyId} AND status = 'completed' AND "consentAt" IS NOT NULL AND "completedAt" IS NOT NULL`;
  const row = rows[0];
  return row && Number(row.n) >= MIN_COMPLETIONS_FOR_MEDIAN && row.median !== null ? Number(row.median) : null;
}

/**
 * The participant's current state; marks the current question as first shown (server-side response time). Never
 * assigns or renews reservations. Retried on a dropped connection (its writes are idempotent).
 */
export async function getParticipantSession(participantId: string): Promise<ParticipantSessionDto | null> {
  return withDbRetry(() => readSession(participantId));
}

async function readSession(participantId: string): Promise<ParticipantSessionDto | null> {
  const participant = await db.participant.findUnique({
    where: { id: participantId },
    select: { id: true, studyId: true, status: true, condition: true, consentAt: true, study: { select: { name: true, slug: true, config: true } } },
  });
  if (!participant) return null;
  const config = StudyConfigSchema.parse(participant.study.config);
  const assignments = await db.assignment.findMany({
    where: { participantId, status: { not: "abandoned" } },
    orderBy: { position: "asc" },
    select: { id: true, position: true, phase: true, status: true, itemId: true, firstShownAt: true, questionShownAt: true, item: { select: { status: true } } },
  });
  // An item excluded or flagged after assignment is skipped, not shown as "no questions" (which stranded the participant).
  const open = assignments.filter((a) => a.status === "assigned" && a.item.status === "active");
  let status = participant.status;
  if (status === "active" && assignments.length > 0 && open.length === 0) {
    // Nothing left to answer (the rest was excluded, or released and taken by others): the session is complete.
    await db.participant.updateMany({ where: { id: participantId, status: "active" }, data: { status: "completed", completedAt: new Date() } });
    status = "completed";
  }
  const next = status === "active" ? open[0] : undefined;
  let current: CurrentQuestionDto | null = null;
  if (next) {
    const item = await findPublicItem(next.itemId);
    if (item) {
      if (!next.firstShownAt) await db.assignment.update({ where: { id: next.id }, data: { firstShownAt: new Date() } });
      current = toCurrentQuestion(next, item, participant.condition, config);
    }
  }
  // Not in a timed study: its images are served only once it is the current question and reported shown.
  const following = current && config.timeLimitSec === null ? open[1] : undefined;
  const upcomingImageIds = following
    ? (await db.itemImage.findMany({ where: { itemId: following.itemId, item: { status: "active" } }, orderBy: { position: "asc" }, select: { id: true } })).map((i) => i.id)
    : [];
  const tasks = config.tasks.map((id) => findTask(id)).filter((t) => t !== undefined);
  return {
    participant: { id: participant.id, status, condition: participant.condition, consented: participant.consentAt !== null },
    study: {
      name: participant.study.name,
      slug: participant.study.slug,
      consentText: consentTextFor(config, participant.consentAt === null ? await medianDurationSeconds(participant.studyId) : null),
      declineMessage: config.declineMessage,
      timeLimitSec: config.timeLimitSec,
      hbondPrimer: config.hbondPrimer,
      tasks: tasks.map((t) => ({ id: t.id, label: t.label, instructions: t.instructions })),
    },
    progress: {
      answered: assignments.filter((a) => a.status === "answered").length,
      total: assignments.length,
      practiceTotal: assignments.filter((a) => a.phase === "practice").length,
    },
    current,
    upcomingImageIds,
    ...endScreens(status, config),
    noWork: status === "consenting" && !(await hasCapacity(participant.studyId)),
  };
}
