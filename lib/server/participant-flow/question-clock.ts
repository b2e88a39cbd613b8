import "server-only";
import { questionDeadlineMs } from "@/lib/question-clock";
import { parseStoredStudyConfig } from "@/lib/study-config";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";

/** What the browser needs to run the countdown on the server's clock. */
export interface QuestionClockDto {
  assignmentId: string;
  /** When the question was first displayed (ISO, server clock); unchanged by reloads. */
  shownAt: string;
  /** The server's clock when it answered (ISO). */
  serverNow: string;
  timeLimitSec: number | null;
  /** shownAt + limit (ISO), or null without a limit. */
  deadline: string | null;
}

/**
 * Stamps the moment the question itself is displayed (after any instructions screen), once: a
 * reload or a second tab gets the first stamp back, so the countdown continues instead of
 * restarting. Only the participant's current question can be stamped: in a timed study the stamp is what unlocks the
 * question's images and 3D scene (question-content-gate.ts), so stamping the next one early is refused too.
 */
export async function markQuestionShown(participantId: string, assignmentId: string): Promise<QuestionClockDto> {
  const [a] = await flowQuery<{
    status: string;
    questionShownAt: Date | null;
    participantStatus: string;
    config: unknown;
    current: boolean;
    stampedAt: Date | null;
  }>("shown", [participantId, assignmentId, new Date().toISOString()]);
  if (!a) throw new AppError("NOT_FOUND", "This question is not part of your session.");
  if (a.participantStatus !== "active") throw new AppError("GONE", "Your session has ended.");
  if (a.status === "answered") throw new AppError("CONFLICT", "This question was already answered.");
  if (a.status !== "assigned") throw new AppError("GONE", "This question was released after a long inactivity.");
  if (!a.current) throw new AppError("CONFLICT", "This is not your current question.");
  // Two tabs racing: the one that did not stamp reads the stamp that won.
  const shownAt =
    a.questionShownAt ??
    a.stampedAt ??
    (await db.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { questionShownAt: true } }))
      .questionShownAt!;
  const { timeLimitSec } = parseStoredStudyConfig(a.config);
  const deadline = questionDeadlineMs(shownAt.getTime(), timeLimitSec);
  return {
    assignmentId,
    shownAt: shownAt.toISOString(),
    serverNow: new Date().toISOString(),
    timeLimitSec,
    deadline: deadline === null ? null : new Date(deadline).toISOString(),
  };
}
