-- The consent request's read (consent-context.ts): misi_consent_context (sql/functions/20_consent_context.sql), with
-- the consent rate limit counted in the same call (`since`: each rule's window start).
-- @param $1 participantId text
-- @param $2 keys text[]
-- @param $3 limits int[]
-- @param $4 since timestamp[]
-- @param $5 now timestamp
SELECT status, study_id, order_seed, pool_version_id, config, limit_counts, limit_first_ms
FROM misi_consent_context($1::text, $2::text[], $3::int[], $4::text[]::timestamp(3)[], $5::timestamp(3))
