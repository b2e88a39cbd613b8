-- THE capacity rules of a study, each defined once; every participant-flow statement and function that needs one calls
-- it (tests/integration/participant-flow/capacity-definition.test.ts replaces each definition and checks every caller).
-- The rules are plain SQL functions of one expression: PostgreSQL inlines them into the calling statement, so a
-- condition on a counter's columns stays an index condition (the start's pick reads one range of
-- "StudyItemCounter_studyId_taskId_reserved_rank_idx"). The release, an action, is a PL/pgSQL loop.

-- An item has a free slot: its counter is below k (reserved counts live reservations and answers), the item is still
-- active, and it is not one of the study's practice or attention items (those are never main items).
-- p_item_status: the item's status ((SELECT i.status FROM "Item" i WHERE i.id = c."itemId") reads it per row, one
-- primary-key probe, whatever the table's statistics).
CREATE OR REPLACE FUNCTION misi_slot_free(p_reserved int, p_item_id text, p_item_status text, p_k int, p_special text[])
RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_reserved < p_k AND p_item_status = 'active' AND NOT (p_item_id = ANY(p_special))
$fn$;

-- The study is full: maxParticipants (NULL: no cap) have started. Only starts count (StudyParticipantCounter.started),
-- never link opens. p_started NULL: nobody has started yet.
CREATE OR REPLACE FUNCTION misi_study_full(p_started int, p_max_participants int)
RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_max_participants IS NOT NULL AND coalesce(p_started, 0) >= p_max_participants
$fn$;

-- A participant's reservation has expired: no answer renewed it before reservedUntil (the start sets it, each answer
-- renews it), or it was never set. Their unanswered assignments are then reclaimed (reclaim.sql) and no longer count
-- towards their address's share.
CREATE OR REPLACE FUNCTION misi_reservation_expired(p_reserved_until timestamp(3), p_now timestamp(3))
RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_reserved_until IS NULL OR p_reserved_until < p_now
$fn$;

-- Gives reservations back to the pool: each element of p_item_ids releases one reservation of that item's counter (an
-- id given twice releases two), never below zero. The counter rows are locked in item-id order, as the start's
-- waiting loop locks them, so two releases (or a release and a start) never wait on each other in a cycle. Returns
-- the number of counter rows changed.
-- One UPDATE per item, by the whole primary key: a set-based form ("itemId" IN (...)) may be planned, on tables never
-- analysed, as a walk of the study's counters through the key's first column (every counter of the pool read to
-- release two). Each UPDATE takes its own snapshot (a VOLATILE function), so it sees the counter as committed when it
-- runs, and a row concurrently changed is re-read before it is written. The order is the column's collation whatever
-- the caller's array carries, as the start's `ORDER BY "itemId"`.
CREATE OR REPLACE FUNCTION misi_release_reservations(p_study_id text, p_item_ids text[])
RETURNS int
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_item record;
  v_changed int := 0;
BEGIN
  FOR v_item IN
    SELECT x.item AS id, count(*)::int AS n FROM unnest(p_item_ids) AS x(item) GROUP BY x.item ORDER BY x.item COLLATE "default"
  LOOP
    UPDATE "StudyItemCounter" SET reserved = GREATEST(0, reserved - v_item.n)
    WHERE "studyId" = p_study_id AND "itemId" = v_item.id;
    IF FOUND THEN
      v_changed := v_changed + 1;
    END IF;
  END LOOP;
  RETURN v_changed;
END
$fn$;
