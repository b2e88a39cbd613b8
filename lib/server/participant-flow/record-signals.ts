import "server-only";
import { withDbRetry } from "@/lib/server/db-retry";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";
import type { AnswerSignals } from "@/lib/participant/integrity";

/** Slack on the response time for hidden/unfocused time: page load and the reload of a resumed question. */
export const SIGNAL_TIME_SLACK_MS = 5_000;

/**
 * Stores the integrity signals sent with a replayed submit (same idempotency key) when the first attempt's are missing;
 * a first submit stores them in its own write (submit-write.sql). The rule, once-only and capped, is the database
 * function misi_store_answer_signals (sql/functions/50_answer_signals.sql). Only an assignment of this participant
 * that has a stored response gets signals. One statement, idempotent, so a transient fault simply runs it again.
 */
export async function recordAnswerSignals(options: {
  participantId: string;
  assignmentId: string;
  signals: AnswerSignals;
}): Promise<void> {
  const signals = JSON.stringify(options.signals);
  await withDbRetry(() =>
    flowQuery("store-signals", [options.assignmentId, options.participantId, signals, SIGNAL_TIME_SLACK_MS]),
  );
}
