import "server-only";
import { flowQuery } from "@/lib/server/participant-flow/flow-sql";
import { rateLimitArgs, rateLimitDecision, type RateLimitDecision, type RateLimitRule } from "@/lib/server/rate-limit";
import { parseStoredStudyConfig, type StudyConfig } from "@/lib/study-config";

/** What starting a participant needs to know, read in the consent request's first query. */
export interface ConsentContext {
  participantId: string;
  status: string;
  orderSeed: string;
  study: { id: string; poolVersionId: string; config: StudyConfig };
}

/**
 * One database call (misi_consent_context, sql/functions/20_consent_context.sql): the participant's status and order seed with
 * the study's config, and, when `rules` are given and the participant is still `consenting`, the consent rate limit
 * counted in the same call (a started participant's retried consent starts nobody, so it is neither counted nor
 * refused). Null for an unknown participant. Not retried here: counting is a write (see the callers).
 */
export async function readConsentContext(
  participantId: string,
  rules: readonly RateLimitRule[] = [],
  now: Date = new Date(),
): Promise<{ context: ConsentContext; decision: RateLimitDecision } | null> {
  const { keys, limits, sinces } = rateLimitArgs(rules, now);
  const [row] = await flowQuery<{
    status: string;
    study_id: string;
    order_seed: string;
    pool_version_id: string;
    config: unknown;
    limit_counts: number[] | null;
    limit_first_ms: Array<number | null> | null;
  }>("consent-context", [participantId, keys, limits, sinces, now.toISOString()]);
  if (!row) return null;
  const decision = row.limit_counts
    ? rateLimitDecision(rules, row.limit_counts, row.limit_first_ms ?? [], now)
    : ({ ok: true } as const);
  return {
    context: {
      participantId,
      status: row.status,
      orderSeed: row.order_seed,
      study: { id: row.study_id, poolVersionId: row.pool_version_id, config: parseStoredStudyConfig(row.config) },
    },
    decision,
  };
}
