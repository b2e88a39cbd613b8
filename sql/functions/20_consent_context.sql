-- The consent request's reads in one call: the participant's state and the study's config, and, for a participant
-- still deciding, the consent rate limit counted in the same call (misi_rate_limit_count: nothing is counted when a
-- rule is full). p_keys empty: no limit is counted. No row: no such participant. limit_counts[i] / limit_first_ms[i]
-- are rule i's count before this event and its oldest event in the window as epoch milliseconds (the columns hold
-- UTC wall time), both NULL when nothing was counted.
CREATE OR REPLACE FUNCTION misi_consent_context(p_participant_id text, p_keys text[], p_limits int[], p_since timestamp(3)[], p_now timestamp(3))
RETURNS TABLE (status text, study_id text, order_seed text, pool_version_id text, config jsonb, limit_counts int[], limit_first_ms float8[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_status text;
  v_study_id text;
  v_order_seed text;
  v_pool_version_id text;
  v_config jsonb;
  v_counts int[];
  v_firsts float8[];
BEGIN
  SELECT p.status::text, p."studyId", p."orderSeed", s."poolVersionId", s.config
    INTO v_status, v_study_id, v_order_seed, v_pool_version_id, v_config
  FROM "Participant" p JOIN "Study" s ON s.id = p."studyId"
  WHERE p.id = p_participant_id;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF v_status = 'consenting' AND cardinality(p_keys) > 0 THEN
    SELECT array_agg(r.event_count ORDER BY r.rule_index), array_agg(extract(epoch FROM r.first_at)::float8 * 1000 ORDER BY r.rule_index)
      INTO v_counts, v_firsts
    FROM misi_rate_limit_count(p_keys, p_limits, p_since, p_now, misi_rate_limit_lock(p_keys)) AS r;
  END IF;
  RETURN QUERY SELECT v_status, v_study_id, v_order_seed, v_pool_version_id, v_config, v_counts, v_firsts;
END
$fn$;
