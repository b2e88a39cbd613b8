import "server-only";
import { db } from "@/lib/server/db";
import { withDbRetry } from "@/lib/server/db-retry";
import type { AnswerSignals } from "@/lib/participant/integrity";

/**
 * Stores the browser's integrity signals of an answered question, once: the first body that reaches the server after
 * the answer is stored wins, and a retried submit (same idempotency key, same kept signals) writes nothing new. Only an
 * assignment of this participant that has a stored response gets signals. The participant's row keeps the device of
 * their first signalled answer and whether any answer reported navigator.webdriver. One statement, idempotent, so a
 * transient fault simply runs it again.
 *
 * Hidden and unfocused time cannot exceed the time the question was open: both are capped at the answer's longer
 * response time (client or server measured) plus SIGNAL_TIME_SLACK_MS, so a tampered body cannot claim a day of
 * hidden time on a five-second answer and dominate the totals (the cap, not the claim, is stored).
 */
/** Slack on the response time for hidden/unfocused time: page load and the reload of a resumed question. */
export const SIGNAL_TIME_SLACK_MS = 5_000;

export async function recordAnswerSignals(options: { participantId: string; assignmentId: string; signals: AnswerSignals }): Promise<void> {
  const signals = JSON.stringify(options.signals);
  const device = JSON.stringify(options.signals.device);
  await withDbRetry(
    () => db.$executeRaw`
      WITH answered AS (
        SELECT a.id, a."participantId", r."studyId",
               (GREATEST(COALESCE(r."rtClientMs", 0), COALESCE(r."rtServerMs", 0)) + ${SIGNAL_TIME_SLACK_MS})::bigint AS "capMs"
        FROM "Assignment" a JOIN "Response" r ON r."assignmentId" = a.id
        WHERE a.id = ${options.assignmentId} AND a."participantId" = ${options.participantId}
      ), ins AS (
        INSERT INTO "AnswerSignals" ("assignmentId", "participantId", "studyId", signals)
        SELECT id, "participantId", "studyId",
               jsonb_set(jsonb_set(s, '{hiddenMs}', to_jsonb(LEAST((s->>'hiddenMs')::bigint, "capMs"))), '{blurMs}', to_jsonb(LEAST((s->>'blurMs')::bigint, "capMs")))
        FROM answered, (SELECT ${signals}::jsonb AS s) body
        ON CONFLICT ("assignmentId") DO NOTHING
        RETURNING "participantId", "studyId"
      )
      INSERT INTO "ParticipantSignals" ("participantId", "studyId", device, webdriver)
      SELECT "participantId", "studyId", ${device}::jsonb, ${options.signals.webdriver}::boolean FROM ins
      ON CONFLICT ("participantId") DO UPDATE SET webdriver = "ParticipantSignals".webdriver OR EXCLUDED.webdriver, "lastAt" = now()`,
  );
}
