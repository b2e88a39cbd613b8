import "server-only";
import { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { findTask } from "@/lib/tasks/registry";
import { StudyConfigSchema } from "@/lib/study-config";

/** Slack for a timed-out submit arriving a little before the server's own clock says the limit ran out. */
const TIME_LIMIT_TOLERANCE_MS = 1000;

export interface RecordResponseOptions {
  participantId: string;
  assignmentId: string;
  rawAnswer: string;
  idempotencyKey: string;
  rtClientMs?: number | null;
  interactionLog?: unknown;
  /** The per-item time limit ran out: stored as an unanswered (score 0) response without grammar validation. */
  timedOut?: boolean;
}

/** What the participant may learn after submitting: never the score of a main item. */
export interface RecordResponseResult {
  status: "stored" | "duplicate";
  /** Practice items only: feedback with the correct answer. */
  practiceFeedback: { correct: boolean; correctAnswer: string } | null;
  /** Session ended after this answer (all answered, or screened out). */
  ended: "completed" | "screened_out" | null;
}

/**
 * Scores an answer on the server and stores it before the participant may advance. A retried submit with the
 * same idempotency key returns the first result and stores nothing new.
 */
export async function recordResponse(options: RecordResponseOptions): Promise<RecordResponseResult> {
  // PostgreSQL text and jsonb cannot hold U+0000: refuse it here with a located error instead of a failed insert (500).
  if (options.rawAnswer.includes("\u0000")) throw new AppError("UNPROCESSABLE", "The answer contains a NUL character.", { field: "answer" });
  if (containsNul(options.interactionLog)) {
    throw new AppError("UNPROCESSABLE", "The interaction log contains a NUL character.", { field: "interactionLog" });
  }
  const prior = await db.response.findUnique({ where: { idempotencyKey: options.idempotencyKey }, select: { participantId: true, assignmentId: true } });
  if (prior) {
    if (prior.participantId !== options.participantId || prior.assignmentId !== options.assignmentId) {
      throw new AppError("CONFLICT", "This submission key was already used for another question.");
    }
    return replay(options.participantId, options.assignmentId);
  }

  const assignment = await db.assignment.findFirst({
    where: { id: options.assignmentId, participantId: options.participantId },
    select: {
      id: true, itemId: true, phase: true, status: true, firstShownAt: true,
      participant: { select: { status: true, condition: true, studyId: true, flags: true, study: { select: { config: true } } } },
      item: { select: { taskId: true, taskVersion: true, answerKey: { select: { gold: true } } } },
    },
  });
  if (!assignment) throw new AppError("NOT_FOUND", "This question is not part of your session.");
  if (assignment.participant.status !== "active") throw new AppError("GONE", "Your session has ended; answers can no longer be changed.");
  if (assignment.status === "answered") throw new AppError("CONFLICT", "This question was already answered.");
  if (assignment.status !== "assigned") throw new AppError("GONE", "This question was released after a long inactivity.");

  const task = findTask(assignment.item.taskId);
  const gold = assignment.item.answerKey?.gold;
  if (!task || gold === undefined) throw new Error(`item ${assignment.itemId} has no task or answer key`);

  const config = StudyConfigSchema.parse(assignment.participant.study.config);
  if (options.timedOut) {
    // Only a real time limit may end a question unanswered, and only once it has run out on the server's clock
    // (firstShownAt precedes the client's timer start), so "timed out" cannot be used to skip questions.
    if (config.timeLimitSec === null) throw new AppError("UNPROCESSABLE", "This study has no time limit.", { field: "timedOut" });
    const elapsedMs = assignment.firstShownAt ? Date.now() - assignment.firstShownAt.getTime() : 0;
    if (elapsedMs < config.timeLimitSec * 1000 - TIME_LIMIT_TOLERANCE_MS) {
      throw new AppError("UNPROCESSABLE", "The time limit for this question has not run out yet.", { field: "timedOut" });
    }
  }

  let canonical = "";
  let exact = 0;
  let partial = 0;
  if (!options.timedOut) {
    const graded = task.gradeText(options.rawAnswer, gold);
    if (!graded.ok) {
      if (graded.stage === "answer") throw new AppError("UNPROCESSABLE", graded.error, { field: "answer" });
      throw new Error(`item ${assignment.itemId}: stored ${graded.stage} is invalid: ${graded.error}`);
    }
    canonical = graded.canonical;
    exact = graded.score.exact;
    partial = graded.score.partial;
  }

  const now = new Date();
  try {
    await db.$transaction(async (tx) => {
      await tx.response.create({
        data: {
          assignmentId: assignment.id,
          participantId: options.participantId,
          studyId: assignment.participant.studyId,
          itemId: assignment.itemId,
          taskId: task.id,
          taskVersion: assignment.item.taskVersion,
          phase: assignment.phase,
          condition: assignment.participant.condition,
          rawAnswer: options.timedOut ? "" : options.rawAnswer,
          canonicalAnswer: canonical,
          exact,
          partial,
          rtClientMs: options.rtClientMs ?? null,
          rtServerMs: assignment.firstShownAt ? now.getTime() - assignment.firstShownAt.getTime() : null,
          shownAt: assignment.firstShownAt,
          submittedAt: now,
          interactionLog: (options.interactionLog ?? undefined) as Prisma.InputJsonValue | undefined,
          idempotencyKey: options.idempotencyKey,
        },
      });
      // Conditional update: a concurrent submit with another key for the same assignment loses here.
      const updated = await tx.assignment.updateMany({ where: { id: assignment.id, status: "assigned" }, data: { status: "answered" } });
      if (updated.count !== 1) {
        // Or it was reclaimed (timeout) between the read above and this write: say which, the client acts on it.
        const latest = await tx.assignment.findUnique({ where: { id: assignment.id }, select: { status: true } });
        if (latest?.status === "abandoned") throw new AppError("GONE", "This question was released after a long inactivity.");
        throw new AppError("CONFLICT", "This question was already answered.");
      }
      if (assignment.phase === "main") {
        await tx.studyItemCounter.updateMany({ where: { studyId: assignment.participant.studyId, itemId: assignment.itemId }, data: { answered: { increment: 1 } } });
      }
      // Answering is activity: the rest of the participant's work stays reserved (otherwise a participant slower than
      // the timeout since consent loses their remaining questions to the next joiner's reclaim while still answering).
      const expiresAt = new Date(now.getTime() + config.assignmentTimeoutMin * 60_000);
      await tx.assignment.updateMany({ where: { participantId: options.participantId, status: "assigned" }, data: { expiresAt } });
      await tx.participant.update({ where: { id: options.participantId }, data: { lastSeenAt: now } });
      if (assignment.phase === "attention" && exact !== 1) {
        const flags = (assignment.participant.flags ?? {}) as { attentionFailures?: number };
        const failures = (flags.attentionFailures ?? 0) + 1;
        const screenOut = config.attentionPolicy === "screen_out" && failures > config.attentionMaxFailures;
        await tx.participant.update({
          where: { id: options.participantId },
          data: { flags: { ...flags, attentionFailures: failures, flagged: failures > config.attentionMaxFailures }, ...(screenOut ? { status: "screened_out", completedAt: now } : {}) },
        });
        if (screenOut) await releaseUnanswered(tx, options.participantId, assignment.participant.studyId);
      }
      // Items excluded after assignment are skipped by the session, so they do not hold completion back.
      const remaining = await tx.assignment.count({ where: { participantId: options.participantId, status: "assigned", item: { status: "active" } } });
      if (remaining === 0) {
        await tx.participant.updateMany({ where: { id: options.participantId, status: "active" }, data: { status: "completed", completedAt: now } });
      }
    });
  } catch (err) {
    // Same key raced in twice (double click): the first write wins, the second replays it.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const again = await db.response.findUnique({ where: { idempotencyKey: options.idempotencyKey }, select: { assignmentId: true } });
      if (again?.assignmentId === options.assignmentId) return replay(options.participantId, options.assignmentId);
      throw new AppError("CONFLICT", "This question was already answered.");
    }
    throw err;
  }
  return replay(options.participantId, options.assignmentId, "stored");
}

function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => k.includes("\u0000") || containsNul(v));
  return false;
}

/** A participant's session ended early: their unanswered questions go back to the pool now, not after the timeout. */
async function releaseUnanswered(tx: Prisma.TransactionClient, participantId: string, studyId: string): Promise<void> {
  const released = await tx.$queryRaw<Array<{ itemId: string; phase: string }>>`
    UPDATE "Assignment" SET status = 'abandoned'
    WHERE "participantId" = ${participantId} AND status = 'assigned'
    RETURNING "itemId", phase::text AS phase`;
  const mainItems = released.filter((r) => r.phase === "main").map((r) => r.itemId);
  if (mainItems.length) {
    await tx.$executeRaw`
      UPDATE "StudyItemCounter" SET reserved = GREATEST(0, reserved - 1)
      WHERE "studyId" = ${studyId} AND "itemId" = ANY(${mainItems}::text[])`;
  }
}

async function replay(participantId: string, assignmentId: string, status: "stored" | "duplicate" = "duplicate"): Promise<RecordResponseResult> {
  const response = await db.response.findUniqueOrThrow({
    where: { assignmentId },
    select: { phase: true, exact: true, item: { select: { taskId: true, answerKey: { select: { canonical: true } } } } },
  });
  const participant = await db.participant.findUniqueOrThrow({ where: { id: participantId }, select: { status: true } });
  return {
    status,
    practiceFeedback: response.phase === "practice" ? { correct: response.exact === 1, correctAnswer: response.item.answerKey?.canonical ?? "" } : null,
    ended: participant.status === "completed" ? "completed" : participant.status === "screened_out" ? "screened_out" : null,
  };
}
