-- Starting a participant in one database call (issue 12). The start transaction used to run from the app, ~6 round
-- trips, holding row locks on the least-reserved StudyItemCounter rows and on the study's StudyParticipantCounter row
-- while each round trip waited on a CPU-bound Node process: starts capped at ~6/s. These functions hold their locks
-- for their own run time only. (Needs scripts/db.mts's whole-script executeScript: the bodies contain semicolons.)

-- The consent request's reads in one call: the participant's state and the study's config, and, for a participant
-- still deciding, the consent rate limit counted in the same call (misi_rate_limit_count: nothing is counted when a
-- rule is full). p_keys empty: no limit is counted. No row: no such participant. limit_counts[i] / limit_first_ms[i]
-- are rule i's count before this event and its oldest event in the window as epoch milliseconds (the columns hold
-- UTC wall time), both NULL when nothing was counted.
CREATE FUNCTION misi_consent_context(p_participant_id text, p_keys text[], p_limits int[], p_since timestamp(3)[], p_now timestamp(3))
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

-- Reservation rounds that never wait (used by misi_start_participant): up to 3 rounds take, per task, the
-- least-reserved counter rows still below k that no other starter holds (FOR UPDATE SKIP LOCKED: a burst of starters
-- does not queue on the same few least-reserved rows, and a call that never waits cannot deadlock), each reservation
-- `reserved + 1` re-checked `reserved < p_k` on the locked row; later rounds replace items lost to concurrent starters.
-- p_items / p_tidx (1-based task number) / p_seq (pick order) are what the caller already holds, extended and returned.
CREATE FUNCTION misi_reserve_unlocked(
  p_study_id text, p_tasks text[], p_items_per_task int, p_k int, p_special text[], p_order_seed text, p_round_base int,
  INOUT p_items text[], INOUT p_tidx int[], INOUT p_seq int[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_need int[];
  v_wanted int;
  v_got int;
BEGIN
  FOR v_round IN 1..3 LOOP
    SELECT array_agg(GREATEST(0, p_items_per_task - coalesce(g.n, 0)) ORDER BY t.ord)
      INTO v_need
    FROM unnest(p_tasks) WITH ORDINALITY AS t(task, ord)
    LEFT JOIN (SELECT x.tidx, count(*)::int AS n FROM unnest(p_tidx) AS x(tidx) GROUP BY x.tidx) g ON g.tidx = t.ord;
    SELECT coalesce(sum(n), 0)::int INTO v_wanted FROM unnest(v_need) AS n;
    EXIT WHEN v_wanted = 0;
    -- Per task, the least-reserved rows still below k that no other starter holds (a locked row is skipped, the
    -- next one taken: starters never queue behind each other on the same few least-reserved rows).
    WITH need AS (
      SELECT t.task, t.need, t.ord::int AS ord FROM unnest(p_tasks, v_need) WITH ORDINALITY AS t(task, need, ord) WHERE t.need > 0
    ), pick AS (
      SELECT l."itemId", need.ord, l.rn FROM need CROSS JOIN LATERAL (
        SELECT c."itemId", (p_round_base + v_round * 1000 + row_number() OVER ())::int AS rn FROM (
          SELECT c."itemId" FROM "StudyItemCounter" c JOIN "Item" i ON i.id = c."itemId"
          WHERE c."studyId" = p_study_id AND c."taskId" = need.task AND c.reserved < p_k AND i.status = 'active'
            AND NOT (c."itemId" = ANY(p_special)) AND NOT (c."itemId" = ANY(p_items))
          ORDER BY c.reserved, hashtext(c."itemId" || p_order_seed)
          LIMIT need.need
          FOR UPDATE OF c SKIP LOCKED
        ) c
      ) l
    ), upd AS (
      UPDATE "StudyItemCounter" c SET reserved = c.reserved + 1
      FROM pick WHERE c."studyId" = p_study_id AND c."itemId" = pick."itemId" AND c.reserved < p_k
      RETURNING c."itemId"
    )
    SELECT p_items || coalesce(array_agg(pick."itemId" ORDER BY pick.ord, pick.rn), '{}'),
           p_tidx || coalesce(array_agg(pick.ord ORDER BY pick.ord, pick.rn), '{}'),
           p_seq || coalesce(array_agg(pick.rn ORDER BY pick.ord, pick.rn), '{}'),
           count(*)::int
      INTO p_items, p_tidx, p_seq, v_got
    FROM upd JOIN pick ON pick."itemId" = upd."itemId";
    EXIT WHEN v_got = 0;
  END LOOP;
END
$fn$;

-- Starts one participant who accepted consent, atomically (lib/server/participant-flow/assign-items.ts, startParticipant):
-- 1. Locks the participant's row; anything but `consenting` (already started, declined, a retried call after a dropped
--    connection whose first call committed) → 'not_consenting', nothing done.
-- 2. A study already at maxParticipants → 'full', nothing reserved.
-- 3. Reserves p_items_per_task items per task, least-reserved first (ties broken per participant by
--    hashtext(item || seed), an int: cheap to sort), never beyond p_k: each reservation is `reserved + 1` on a counter
--    row this call has locked, re-checking `reserved < p_k` on the locked row. First without waiting
--    (misi_reserve_unlocked: rows other starters hold are skipped). A participant left short while free rows exist
--    (held by others: the last slots of a study) or with nothing rolls those reservations back and waits instead, in
--    one statement that locks in item-id order while the call holds no counter row (so no two starters wait on each
--    other in a cycle), then replaces what it lost without waiting. Never an item twice; practice/attention ids
--    (p_special) never as main items.
-- 4. No item reserved → 'no_items' (nothing changed).
-- 5. Inserts the assignments in slot order: slot i (position i - 1) is either main slot (p_slot_task, p_slot_j) = the
--    j-th item reserved for task number p_slot_task (in pick order; a short task's missing slots are dropped, leaving a
--    gap in the positions), or the fixed practice/attention item p_slot_item (inserted only while active). The slot
--    order is computed by the app from the participant's orderSeed, so the order stays deterministic.
-- 6. Marks the participant active (consentAt, deviceInfo, flags.hbondPrimer).
-- 7. Last, counts the start on StudyParticipantCounter (conditional on maxParticipants): every start updates that one
--    row, so it is held only from here to the commit. A study that became full since step 2 → this call's writes are
--    undone (the rows are still locked by this call, so nobody saw them) and 'full'.
-- Returns one row: outcome ('started' | 'not_consenting' | 'full' | 'no_items'), main items assigned, short tasks.
CREATE FUNCTION misi_start_participant(
  p_participant_id text, p_study_id text, p_tasks text[], p_items_per_task int, p_k int, p_max_participants int,
  p_special text[], p_order_seed text,
  p_slot_task int[], p_slot_j int[], p_slot_item text[], p_slot_phase text[],
  p_expires_at timestamp(3), p_now timestamp(3), p_device jsonb, p_hbond_primer boolean)
RETURNS TABLE (outcome text, main_assigned int, short_tasks text[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_status text;
  v_old_consent_at timestamp(3);
  v_old_device jsonb;
  v_old_flags jsonb;
  v_started int;
  v_items text[] := '{}';
  v_tidx int[] := '{}';
  v_seq int[] := '{}';
  v_need int[];
  v_got int;
  v_short text[];
BEGIN
  SELECT p.status::text, p."consentAt", p."deviceInfo", p.flags INTO v_status, v_old_consent_at, v_old_device, v_old_flags
  FROM "Participant" p WHERE p.id = p_participant_id FOR UPDATE;
  IF v_status IS DISTINCT FROM 'consenting' THEN
    RETURN QUERY SELECT 'not_consenting'::text, 0, p_tasks;
    RETURN;
  END IF;
  IF p_max_participants IS NOT NULL THEN
    SELECT c.started INTO v_started FROM "StudyParticipantCounter" c WHERE c."studyId" = p_study_id;
    IF coalesce(v_started, 0) >= p_max_participants THEN
      RETURN QUERY SELECT 'full'::text, 0, p_tasks;
      RETURN;
    END IF;
  END IF;

  -- Reserve without waiting; a participant left short while free rows exist (held by concurrent starters: the last
  -- slots of a study) rolls those reservations back (this block's subtransaction) and waits instead, below.
  BEGIN
    SELECT r.p_items, r.p_tidx, r.p_seq INTO v_items, v_tidx, v_seq
    FROM misi_reserve_unlocked(p_study_id, p_tasks, p_items_per_task, p_k, p_special, p_order_seed, 0, v_items, v_tidx, v_seq) AS r;
    IF EXISTS (
      SELECT 1 FROM unnest(p_tasks) WITH ORDINALITY AS t(task, ord)
      JOIN "StudyItemCounter" c ON c."studyId" = p_study_id AND c."taskId" = t.task JOIN "Item" i ON i.id = c."itemId"
      WHERE (SELECT count(*) FROM unnest(v_tidx) AS x(tidx) WHERE x.tidx = t.ord) < p_items_per_task
        AND c.reserved < p_k AND i.status = 'active' AND NOT (c."itemId" = ANY(p_special)) AND NOT (c."itemId" = ANY(v_items))
    ) THEN
      RAISE EXCEPTION USING ERRCODE = 'MS001', MESSAGE = 'misi_start_participant: short while rows are held, wait';
    END IF;
  EXCEPTION WHEN SQLSTATE 'MS001' THEN
    v_items := '{}';
    v_tidx := '{}';
    v_seq := '{}';
  END;

  -- Nothing held (rolled back above, or nothing was free without waiting): wait for the rows, once. This is the only
  -- statement that waits for counter rows, and it runs while the call holds none: candidates from this statement's
  -- snapshot, locked in item-id order (two waiting starters never wait on each other in a cycle), incremented only
  -- while still below k on the locked row (a row updated by a starter that committed meanwhile is re-read: READ
  -- COMMITTED re-check); items lost that way are replaced by rounds that do not wait.
  IF cardinality(v_items) = 0 THEN
    v_need := array_fill(p_items_per_task, ARRAY[cardinality(p_tasks)]);
    WITH need AS (
      SELECT t.task, t.need, t.ord::int AS ord FROM unnest(p_tasks, v_need) WITH ORDINALITY AS t(task, need, ord)
    ), cand AS (
      SELECT c."itemId", need.ord,
             row_number() OVER (PARTITION BY c."taskId" ORDER BY c.reserved, hashtext(c."itemId" || p_order_seed)) AS rn
      FROM "StudyItemCounter" c JOIN "Item" i ON i.id = c."itemId" JOIN need ON need.task = c."taskId"
      WHERE c."studyId" = p_study_id AND c.reserved < p_k AND i.status = 'active'
        AND NOT (c."itemId" = ANY(p_special))
    ), pick AS (
      SELECT cand."itemId", cand.ord, cand.rn FROM cand JOIN need ON need.ord = cand.ord WHERE cand.rn <= need.need
    ), locked AS (
      SELECT c."itemId" FROM "StudyItemCounter" c
      WHERE c."studyId" = p_study_id AND c."itemId" IN (SELECT pick."itemId" FROM pick)
      ORDER BY c."itemId" FOR UPDATE
    ), upd AS (
      UPDATE "StudyItemCounter" c SET reserved = c.reserved + 1
      FROM locked WHERE c."studyId" = p_study_id AND c."itemId" = locked."itemId" AND c.reserved < p_k
      RETURNING c."itemId"
    )
    SELECT v_items || coalesce(array_agg(pick."itemId" ORDER BY pick.ord, pick.rn), '{}'),
           v_tidx || coalesce(array_agg(pick.ord ORDER BY pick.ord, pick.rn), '{}'),
           v_seq || coalesce(array_agg((pick.rn)::int ORDER BY pick.ord, pick.rn), '{}'),
           count(*)::int
      INTO v_items, v_tidx, v_seq, v_got
    FROM upd JOIN pick ON pick."itemId" = upd."itemId";
    SELECT r.p_items, r.p_tidx, r.p_seq INTO v_items, v_tidx, v_seq
    FROM misi_reserve_unlocked(p_study_id, p_tasks, p_items_per_task, p_k, p_special, p_order_seed, 10000, v_items, v_tidx, v_seq) AS r;
  END IF;

  IF cardinality(v_items) = 0 THEN
    RETURN QUERY SELECT 'no_items'::text, 0, p_tasks;
    RETURN;
  END IF;

  WITH got AS (
    SELECT x.item, x.tidx, row_number() OVER (PARTITION BY x.tidx ORDER BY x.seq)::int AS j
    FROM unnest(v_items, v_tidx, v_seq) AS x(item, tidx, seq)
  ), slot AS (
    SELECT s.task, s.j, s.item, s.phase, s.ord::int AS ord
    FROM unnest(p_slot_task, p_slot_j, p_slot_item, p_slot_phase) WITH ORDINALITY AS s(task, j, item, phase, ord)
  )
  INSERT INTO "Assignment" (id, "participantId", "itemId", position, phase, "expiresAt")
  SELECT gen_random_uuid()::text, p_participant_id, coalesce(got.item, slot.item), slot.ord - 1, slot.phase::"AssignmentPhase", p_expires_at
  FROM slot
  LEFT JOIN got ON slot.phase = 'main' AND got.tidx = slot.task AND got.j = slot.j
  JOIN "Item" i ON i.id = coalesce(got.item, slot.item)
  WHERE (slot.phase = 'main' AND got.item IS NOT NULL) OR (slot.phase <> 'main' AND i.status = 'active');

  -- flags.hbondPrimer: whether this participant's study shows the H-bond primer, recorded with the participant.
  UPDATE "Participant" SET status = 'active', "consentAt" = p_now, "deviceInfo" = p_device,
         flags = coalesce(flags, '{}'::jsonb) || jsonb_build_object('hbondPrimer', p_hbond_primer)
  WHERE id = p_participant_id;

  -- Last, so the study's counter row (every start updates it) is locked only until the commit that follows.
  INSERT INTO "StudyParticipantCounter" ("studyId", joined, started) VALUES (p_study_id, 0, 1)
  ON CONFLICT ("studyId") DO UPDATE SET started = "StudyParticipantCounter".started + 1
  WHERE p_max_participants IS NULL OR "StudyParticipantCounter".started < p_max_participants;
  IF NOT FOUND THEN
    -- Full since the check above: undo this call's writes (rows it still holds locked, so nobody saw them).
    DELETE FROM "Assignment" a WHERE a."participantId" = p_participant_id;
    UPDATE "Participant" SET status = 'consenting', "consentAt" = v_old_consent_at, "deviceInfo" = v_old_device, flags = v_old_flags
    WHERE id = p_participant_id;
    UPDATE "StudyItemCounter" c SET reserved = c.reserved - 1 WHERE c."studyId" = p_study_id AND c."itemId" = ANY(v_items);
    RETURN QUERY SELECT 'full'::text, 0, p_tasks;
    RETURN;
  END IF;

  SELECT array_agg(t.task ORDER BY t.ord) INTO v_short
  FROM unnest(p_tasks) WITH ORDINALITY AS t(task, ord)
  WHERE (SELECT count(*) FROM unnest(v_tidx) AS x(tidx) WHERE x.tidx = t.ord) < p_items_per_task;
  RETURN QUERY SELECT 'started'::text, cardinality(v_items), coalesce(v_short, '{}');
END
$fn$;
