-- consumeRateLimit (lib/server/rate-limit.ts) in one statement: the keys' advisory locks are taken and released inside
-- the database, never held across a client round trip (a launch's joins would otherwise queue on the study-wide
-- join/consent key while its holder waits for a busy app).
-- Call as misi_rate_limit_count(keys, limits, sinces, now, misi_rate_limit_lock(keys)): the argument takes the locks
-- first (sorted, as lockKeys sorts in JavaScript, so callers never wait on each other in opposite orders). The count
-- and insert are the statement of a volatile function, which under READ COMMITTED takes a new snapshot when it runs,
-- after the locks are held, so it sees every earlier holder's committed rows. If every rule has room one event is
-- recorded per rule, else nothing. Returns each rule's count before this event and the time of its oldest event in
-- the window (rules in the order given, 1-based).
CREATE OR REPLACE FUNCTION misi_rate_limit_lock(p_keys text[]) RETURNS int
LANGUAGE sql VOLATILE AS $fn$
  SELECT count(pg_advisory_xact_lock(hashtext('ratelimit:' || k)))::int
  FROM (SELECT DISTINCT u COLLATE "C" AS k FROM unnest(p_keys) AS u ORDER BY 1) AS sorted
$fn$;

CREATE OR REPLACE FUNCTION misi_rate_limit_count(p_keys text[], p_limits int[], p_since timestamp(3)[], p_now timestamp(3), p_locked int)
RETURNS TABLE (rule_index int, event_count int, first_at timestamp(3))
LANGUAGE sql VOLATILE AS $fn$
  WITH r AS (
    SELECT x.k, x.lim, x.since, x.ord::int AS ord FROM unnest(p_keys, p_limits, p_since) WITH ORDINALITY AS x(k, lim, since, ord)
  ), c AS (
    -- Per rule, a range of the ("key", "at") index: the count never reads other keys' events (a join over the
    -- unnested rules can be planned as a hash join over the whole two-day table).
    SELECT r.ord, r.k, r.lim, n.cnt, n.oldest
    FROM r CROSS JOIN LATERAL (
      SELECT count(*)::int AS cnt, min(s."at") AS oldest FROM "SignInAttempt" s WHERE s."key" = r.k AND s."at" > r.since
    ) AS n
  ), ins AS (
    INSERT INTO "SignInAttempt" ("key", "at")
    SELECT c.k, p_now FROM c WHERE NOT EXISTS (SELECT 1 FROM c AS c2 WHERE c2.cnt >= c2.lim)
    RETURNING 1
  )
  SELECT c.ord, c.cnt, c.oldest FROM c ORDER BY c.ord
$fn$;
