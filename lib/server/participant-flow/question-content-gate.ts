import "server-only";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";
import { parseStoredStudyConfig } from "@/lib/study-config";

/**
 * In a timed study the clock starts at the question's "shown" stamp (POST /api/participant/shown), so what lets one
 * study a question — its images (MC option images are item images too) and its 3D scene — is served only for the
 * participant's current question, and only once that stamp exists. Otherwise a client could fetch the images, study
 * them untimed and then report the question shown just before answering. Answered
 * questions stay available (practice feedback shows their images again). Untimed studies serve any question assigned
 * to the participant, so the browser may fetch the next one ahead.
 */
export type ContentRefusal = { refused: string };

/** The assignment columns the gate needs; select them with GATE_SELECT. */
export const GATE_SELECT = {
  id: true,
  status: true,
  questionShownAt: true,
  participant: { select: { status: true, study: { select: { config: true } } } },
} as const;

interface GateRow {
  id: string;
  status: string;
  questionShownAt: Date | null;
  participant: { status: string; study: { config: unknown } };
}

export const NOT_CURRENT_MESSAGE = "This question is not your current one; its content is available once it is shown.";
export const NOT_SHOWN_MESSAGE =
  "This question has not been shown yet: its content is available once the question has been reported shown.";

/** True for a timed study (the study config has a per-question time limit). */
export function isTimedConfig(config: unknown): boolean {
  return parseStoredStudyConfig(config).timeLimitSec !== null;
}

/**
 * True when the assignment is the participant's current question: the first of their open assignments
 * (misi_open_assignments, the definition the session read and the answer submit use too).
 */
export async function isCurrentQuestion(participantId: string, a: Pick<GateRow, "id">): Promise<boolean> {
  const [row] = await flowQuery<{ current: boolean }>("current-question", [participantId, a.id]);
  return row?.current === true;
}

/** Null when the participant may have this assignment's content now; otherwise why not (a 409 for the browser). */
export async function checkQuestionContent(participantId: string, a: GateRow): Promise<ContentRefusal | null> {
  if (a.status === "answered" || !isTimedConfig(a.participant.study.config)) return null;
  if (!(await isCurrentQuestion(participantId, a))) return { refused: NOT_CURRENT_MESSAGE };
  if (!a.questionShownAt) return { refused: NOT_SHOWN_MESSAGE };
  return null;
}
