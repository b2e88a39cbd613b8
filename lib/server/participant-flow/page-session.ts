import "server-only";
import { cookies } from "next/headers";
import { PARTICIPANT_COOKIE, verifyParticipantToken } from "@/lib/server/participant-flow/token";

/** The participant session of the page being rendered (Next's request cookies), or null. */
export async function readParticipantSession(): Promise<{ participantId: string; studyId: string } | null> {
  const store = await cookies();
  return verifyParticipantToken(store.get(PARTICIPANT_COOKIE)?.value);
}
