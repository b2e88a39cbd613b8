-- Starts one participant who accepted consent, atomically (lib/server/participant-flow/assign-items.ts, startParticipant):
-- 1. Locks the participant's row; anything but `consenting` (already started, declined, a retried call after a dropped
--    connection whose first call committed) → 'not_consenting', nothing done.
-- 2. A study already at maxParticipants → 'full', nothing reserved.
-- 3. Reserves p_items_per_task items per task with a free slot (misi_slot_free), least-reserved first (ties broken by
--    the counter's rank, a shuffle re-drawn at each reservation: one ordered range of an index, whatever the pool's
--    size), never beyond p_k: each reservation is `reserved + 1` on a counter row this call has locked, re-checking
--    the free slot on the locked row. First without waiting
--    (misi_reserve_unlocked: rows other starters hold are skipped). A participant left short while free rows exist
--    (held by others: the last slots of a study) or with nothing rolls those reservations back and waits instead, in
--    one loop that locks in item-id order while the call holds no counter row (so no two starters wait on each
--    other in a cycle), then replaces what it lost without waiting. Never an item twice; practice/attention ids
--    (p_special) never as main items.
-- 4. No item reserved → 'no_items' (nothing changed).
-- 5. Inserts the assignments in slot order: slot i (position i - 1) is either main slot (p_slot_task, p_slot_j) = the
--    j-th item reserved for task number p_slot_task (in pick order; a short task's missing slots are dropped, leaving a
--    gap in the positions), or the fixed practice/attention item p_slot_item (inserted only while active). The slot
--    order is computed by the app from the participant's orderSeed, so the order stays deterministic.
-- 6. Counts the start on StudyParticipantCounter (conditional on maxParticipants): every start updates that one row,
--    so it is held only from here to the commit. A study that became full since step 2 → this call's writes are undone
--    (the rows are still locked by this call, so nobody saw them) and 'full'.
-- 7. Marks the participant active (consentAt, deviceInfo, flags.hbondPrimer) and gives them their condition: the n-th
--    start of the study (n = the counter's `started` after step 6) gets p_conditions[(n - 1) mod #conditions + 1].
--    This is the study's one counterbalancing rule (docs/participants.md): only starts count, never link opens or
--    participants screened out or refused before consent, and starts are numbered under the counter row's lock, so
--    simultaneous consents take consecutive numbers and the conditions among those who started differ by at most one.
--    A retried call finds the participant no longer consenting (step 1) and changes nothing.
--    p_conditions NULL (a caller that predates it: bench/load.mts's raw starts) keeps the join's provisional condition.
-- Returns one row: outcome ('started' | 'not_consenting' | 'full' | 'no_items' | 'address_share'), main items
-- assigned, short tasks. 'address_share': the participant's network address (p_address_key, a keyed hash; NULL: no
-- limit) already holds its share of the study's open slots; nothing reserved, the participant stays consenting.
CREATE OR REPLACE FUNCTION misi_start_participant(
  p_participant_id text, p_study_id text, p_tasks text[], p_items_per_task int, p_k int, p_max_participants int,
  p_special text[], p_order_seed text,
  p_slot_task int[], p_slot_j int[], p_slot_item text[], p_slot_phase text[],
  p_expires_at timestamp(3), p_now timestamp(3), p_device jsonb, p_hbond_primer boolean,
  p_address_key text, p_address_share float8, p_conditions text[] DEFAULT NULL)
RETURNS TABLE (outcome text, main_assigned int, short_tasks text[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_status text;
  v_started int;
  v_nth int;
  v_items text[] := '{}';
  v_tidx int[] := '{}';
  v_seq int[] := '{}';
  v_need int[];
  v_short text[];
  v_wanted int;
  v_open bigint;
  v_held bigint;
  v_pick record;
  v_wait_items text[] := '{}';
  v_wait_tidx int[] := '{}';
  v_wait_seq int[] := '{}';
BEGIN
  SELECT p.status::text INTO v_status
  FROM "Participant" p WHERE p.id = p_participant_id FOR UPDATE;
  IF v_status IS DISTINCT FROM 'consenting' THEN
    RETURN QUERY SELECT 'not_consenting'::text, 0, p_tasks;
    RETURN;
  END IF;
  SELECT c.started INTO v_started FROM "StudyParticipantCounter" c WHERE c."studyId" = p_study_id;
  IF misi_study_full(v_started, p_max_participants) THEN
    RETURN QUERY SELECT 'full'::text, 0, p_tasks;
    RETURN;
  END IF;

  -- One address's share (lib/participant/address-share.ts): the main-block slots its participants hold (their open
  -- assignments, misi_open_assignments, whose reservation has not expired, misi_reservation_expired), plus this
  -- start's, may not exceed p_address_share of the study's open slots (never less than one participant's worth). Starts from one address are serialised on an advisory lock, so parallel consents cannot all pass.
  IF p_address_key IS NOT NULL AND p_address_share IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('misi_start_address:' || p_study_id || '|' || p_address_key));
    v_wanted := p_items_per_task * cardinality(p_tasks);
    SELECT count(*) INTO v_held
    FROM "Participant" p CROSS JOIN LATERAL misi_open_assignments(p.id) AS a
    WHERE p."studyId" = p_study_id AND p."addressKey" = p_address_key AND p.id <> p_participant_id
      AND a.phase = 'main' AND NOT misi_reservation_expired(a."reservedUntil", p_now);
    -- One participant's worth is always allowed, so the open slots are counted only when the address holds some.
    IF v_held > 0 THEN
      SELECT coalesce(sum(GREATEST(p_k - c.answered, 0)), 0) INTO v_open
      FROM "StudyItemCounter" c JOIN "Item" i ON i.id = c."itemId"
      WHERE c."studyId" = p_study_id AND c."taskId" = ANY(p_tasks) AND i.status = 'active' AND NOT (c."itemId" = ANY(p_special));
      IF v_held + v_wanted > GREATEST(v_wanted, floor(p_address_share * v_open)) THEN
        RETURN QUERY SELECT 'address_share'::text, 0, p_tasks;
        RETURN;
      END IF;
    END IF;
  END IF;

  -- Reserve without waiting; a participant left short while free rows exist (held by concurrent starters: the last
  -- slots of a study) rolls those reservations back (this block's subtransaction) and waits instead, below.
  BEGIN
    SELECT r.p_items, r.p_tidx, r.p_seq INTO v_items, v_tidx, v_seq
    FROM misi_reserve_unlocked(p_study_id, p_tasks, p_items_per_task, p_k, p_special, p_order_seed, 0, v_items, v_tidx, v_seq) AS r;
    -- Short tasks first (a few array elements), then per short task one index probe for a free row this call does not
    -- hold: one held by another starter.
    IF EXISTS (
      SELECT 1 FROM unnest(p_tasks) WITH ORDINALITY AS t(task, ord)
      CROSS JOIN LATERAL (
        SELECT 1 FROM "StudyItemCounter" c
        WHERE c."studyId" = p_study_id AND c."taskId" = t.task
          AND misi_slot_free(c.reserved, c."itemId", (SELECT i.status::text FROM "Item" i WHERE i.id = c."itemId"), p_k, p_special)
          AND NOT (c."itemId" = ANY(v_items))
        LIMIT 1
      ) AS f
      WHERE (SELECT count(*) FROM unnest(v_tidx) AS x(tidx) WHERE x.tidx = t.ord) < p_items_per_task
    ) THEN
      RAISE EXCEPTION USING ERRCODE = 'MS001', MESSAGE = 'misi_start_participant: short while rows are held, wait';
    END IF;
  EXCEPTION WHEN SQLSTATE 'MS001' THEN
    v_items := '{}';
    v_tidx := '{}';
    v_seq := '{}';
  END;

  -- Nothing held (rolled back above, or nothing was free without waiting): wait for the rows, once. This is the only
  -- loop that waits for counter rows, and it starts while the call holds none: candidates from one snapshot, updated
  -- one by one in item-id order (two waiting starters never wait on each other in a cycle), each incremented only
  -- while still below k on the locked row (a row updated by a starter that committed meanwhile is re-read: READ
  -- COMMITTED re-check); items lost that way are replaced by rounds that do not wait.
  IF cardinality(v_items) = 0 THEN
    v_need := array_fill(p_items_per_task, ARRAY[cardinality(p_tasks)]);
    FOR v_pick IN
      WITH need AS (
        SELECT t.task, t.need, t.ord::int AS ord FROM unnest(p_tasks, v_need) WITH ORDINALITY AS t(task, need, ord)
      ), pick AS (
        SELECT l."itemId", need.ord, l.rn FROM need CROSS JOIN LATERAL (
          SELECT c."itemId", row_number() OVER (ORDER BY c.reserved, c.rank) AS rn FROM (
            SELECT c."itemId", c.reserved, c.rank FROM "StudyItemCounter" c
            WHERE c."studyId" = p_study_id AND c."taskId" = need.task
              AND misi_slot_free(c.reserved, c."itemId", (SELECT i.status::text FROM "Item" i WHERE i.id = c."itemId"), p_k, p_special)
            ORDER BY c.reserved, c.rank
            LIMIT need.need
          ) c
        ) l
      )
      SELECT pick."itemId", pick.ord, pick.rn::int AS rn FROM pick ORDER BY pick."itemId"
    LOOP
      -- One row by the whole primary key (an equality on the whole unique key wins the plan; the free slot in a CASE,
      -- which no index serves, as the project's other by-key statements do); re-checked on the row it waited for.
      UPDATE "StudyItemCounter" c SET reserved = c.reserved + 1, rank = hashtext(c."itemId" || p_order_seed)
      WHERE c."studyId" = p_study_id AND c."itemId" = v_pick."itemId"
        AND CASE WHEN misi_slot_free(c.reserved, c."itemId", (SELECT i.status::text FROM "Item" i WHERE i.id = c."itemId"), p_k, p_special)
                 THEN true ELSE false END;
      IF FOUND THEN
        v_wait_items := v_wait_items || v_pick."itemId";
        v_wait_tidx := v_wait_tidx || v_pick.ord;
        v_wait_seq := v_wait_seq || v_pick.rn;
      END IF;
    END LOOP;
    SELECT v_items || coalesce(array_agg(x.item ORDER BY x.tidx, x.seq), '{}'),
           v_tidx || coalesce(array_agg(x.tidx ORDER BY x.tidx, x.seq), '{}'),
           v_seq || coalesce(array_agg(x.seq ORDER BY x.tidx, x.seq), '{}')
      INTO v_items, v_tidx, v_seq
    FROM unnest(v_wait_items, v_wait_tidx, v_wait_seq) AS x(item, tidx, seq);
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
  INSERT INTO "Assignment" (id, "participantId", "itemId", position, phase)
  SELECT gen_random_uuid()::text, p_participant_id, coalesce(got.item, slot.item), slot.ord - 1, slot.phase::"AssignmentPhase"
  FROM slot
  LEFT JOIN got ON slot.phase = 'main' AND got.tidx = slot.task AND got.j = slot.j
  -- The fixed item's status by primary key, per slot (a join to "Item" can be planned as a scan of every item).
  WHERE (slot.phase = 'main' AND got.item IS NOT NULL)
     OR (slot.phase <> 'main' AND (SELECT i.status FROM "Item" i WHERE i.id = slot.item) = 'active');

  -- Late, so the study's counter row (every start updates it) is locked only until the commit that follows (one
  -- single-row update below runs while it is held).
  INSERT INTO "StudyParticipantCounter" ("studyId", joined, started) VALUES (p_study_id, 0, 1)
  ON CONFLICT ("studyId") DO UPDATE SET started = "StudyParticipantCounter".started + 1
  WHERE NOT misi_study_full("StudyParticipantCounter".started, p_max_participants)
  RETURNING started INTO v_nth;
  IF v_nth IS NULL THEN
    -- Full since the check above: undo this call's writes (rows it still holds locked, so nobody saw them).
    DELETE FROM "Assignment" a WHERE a."participantId" = p_participant_id;
    PERFORM misi_release_reservations(p_study_id, v_items);
    RETURN QUERY SELECT 'full'::text, 0, p_tasks;
    RETURN;
  END IF;

  -- flags.hbondPrimer: whether this participant's study shows the H-bond primer, recorded with the participant. The
  -- condition: the n-th start's turn (step 7 of the header).
  UPDATE "Participant" SET status = 'active', "consentAt" = p_now, "deviceInfo" = p_device, "addressKey" = p_address_key, "reservedUntil" = p_expires_at,
         flags = coalesce(flags, '{}'::jsonb) || jsonb_build_object('hbondPrimer', p_hbond_primer),
         condition = CASE WHEN cardinality(p_conditions) > 0 THEN p_conditions[((v_nth - 1) % cardinality(p_conditions)) + 1] ELSE condition END
  WHERE id = p_participant_id;

  SELECT array_agg(t.task ORDER BY t.ord) INTO v_short
  FROM unnest(p_tasks) WITH ORDINALITY AS t(task, ord)
  WHERE (SELECT count(*) FROM unnest(v_tidx) AS x(tidx) WHERE x.tidx = t.ord) < p_items_per_task;
  RETURN QUERY SELECT 'started'::text, cardinality(v_items), coalesce(v_short, '{}');
END
$fn$;
