import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { getAuthSecret } from "@/lib/server/secrets";

/** The participant's session cookie: `<participantId>.<studyId>.<hmac>`; no account, the signed link is the identity. */
export const PARTICIPANT_COOKIE = "misi_participant";
const MAX_AGE_S = 14 * 24 * 3600;

function sign(payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`participant:${payload}`).digest("base64url");
}

export function createParticipantToken(participantId: string, studyId: string): string {
  const payload = `${participantId}.${studyId}`;
  return `${payload}.${sign(payload)}`;
}

/** Verifies a token; returns its ids, or null for a missing, malformed or tampered token. */
export function verifyParticipantToken(token: string | undefined | null): { participantId: string; studyId: string } | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !p || p.length > 100)) return null;
  const [participantId, studyId, mac] = parts as [string, string, string];
  const expected = Buffer.from(sign(`${participantId}.${studyId}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { participantId, studyId };
}

export const PARTICIPANT_COOKIE_OPTIONS = {
  httpOnly: true,
  sameSite: "lax" as const,
  path: "/",
  maxAge: MAX_AGE_S,
  secure: process.env.NODE_ENV === "production" && (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
};

/** The participant session of the current request (cookie), or null. */
export async function readParticipantSession(): Promise<{ participantId: string; studyId: string } | null> {
  const store = await cookies();
  return verifyParticipantToken(store.get(PARTICIPANT_COOKIE)?.value);
}
