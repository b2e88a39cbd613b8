import "server-only";
import { AppError } from "@/lib/server/errors";
import { readParticipantSession } from "@/lib/server/participant/token";

/** The participant of this request (signed cookie), or a 401. */
export async function requireParticipant(): Promise<{ participantId: string; studyId: string }> {
  const session = await readParticipantSession();
  if (!session) throw new AppError("UNAUTHENTICATED", "No participant session: open the study link again.");
  return session;
}
