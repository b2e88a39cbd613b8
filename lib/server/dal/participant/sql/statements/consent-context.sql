-- The consent request's read (consent-context.ts): misi_consent_context (sql/functions/20_consent_context.sql), with
-- the consent rate limit counted in the same call. $1 participant id, $2 keys, $3 limits, $4 window starts (ISO),
-- $5 now (ISO).
SELECT status, study_id, order_seed, pool_version_id, config, limit_counts, limit_first_ms
FROM misi_consent_context($1::text, $2::text[], $3::int[], $4::text[]::timestamp(3)[], $5::timestamp(3))
