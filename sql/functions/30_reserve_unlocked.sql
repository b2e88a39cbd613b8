-- Reservation rounds that never wait (used by misi_start_participant): up to 3 rounds take, per task, the
-- least-reserved counter rows with a free slot (misi_slot_free) that no other starter holds (FOR UPDATE SKIP LOCKED:
-- a burst of starters does not queue on the same few least-reserved rows, and a call that never waits cannot
-- deadlock), each reservation `reserved + 1` on a row the pick locked while it had a free slot (a row another
-- transaction changed since this statement's snapshot is re-checked by PostgreSQL when locked, and skipped if no longer
-- free; the lock keeps it so until the commit); later rounds replace items lost to concurrent starters. Each picked
-- row is then updated alone, by the whole primary key: an update joined to the pick (`FROM pick WHERE "studyId" = ...
-- AND "itemId" = pick."itemId"`) is planned, on tables never analysed, as a scan of every counter of the study through
-- the key's first column (770 rows and 1,014 index entries read to reserve three in a pool of 1,006).
-- p_items / p_tidx (1-based task number) / p_seq (pick order) are what the caller already holds, extended and returned.
CREATE OR REPLACE FUNCTION misi_reserve_unlocked(
  p_study_id text, p_tasks text[], p_items_per_task int, p_k int, p_special text[], p_order_seed text, p_round_base int,
  INOUT p_items text[], INOUT p_tidx int[], INOUT p_seq int[])
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_need int[];
  v_wanted int;
  v_items text[];
  v_item text;
BEGIN
  FOR v_round IN 1..3 LOOP
    SELECT array_agg(GREATEST(0, p_items_per_task - coalesce(g.n, 0)) ORDER BY t.ord)
      INTO v_need
    FROM unnest(p_tasks) WITH ORDINALITY AS t(task, ord)
    LEFT JOIN (SELECT x.tidx, count(*)::int AS n FROM unnest(p_tidx) AS x(tidx) GROUP BY x.tidx) g ON g.tidx = t.ord;
    SELECT coalesce(sum(n), 0)::int INTO v_wanted FROM unnest(v_need) AS n;
    EXIT WHEN v_wanted = 0;
    -- Per task, the least-reserved rows with a free slot that no other starter holds (a locked row is skipped, the
    -- next one taken: starters never queue behind each other on the same few least-reserved rows). One range of the
    -- (studyId, taskId, reserved, rank) index read in order and stopped after `need` rows: the cost does not grow
    -- with the pool. Each reservation re-draws the row's rank from this participant's seed, so the next level's
    -- order differs from this one's.
    WITH need AS (
      SELECT t.task, t.need, t.ord::int AS ord FROM unnest(p_tasks, v_need) WITH ORDINALITY AS t(task, need, ord) WHERE t.need > 0
    ), pick AS (
      SELECT l."itemId", need.ord, l.rn FROM need CROSS JOIN LATERAL (
        SELECT c."itemId", (p_round_base + v_round * 1000 + row_number() OVER ())::int AS rn FROM (
          SELECT c."itemId" FROM "StudyItemCounter" c
          WHERE c."studyId" = p_study_id AND c."taskId" = need.task
            AND misi_slot_free(c.reserved, c."itemId", (SELECT i.status::text FROM "Item" i WHERE i.id = c."itemId"), p_k, p_special)
            AND NOT (c."itemId" = ANY(p_items))
          ORDER BY c.reserved, c.rank
          LIMIT need.need
          FOR UPDATE SKIP LOCKED
        ) c
      ) l
    )
    SELECT coalesce(array_agg(pick."itemId" ORDER BY pick.ord, pick.rn), '{}'),
           p_tidx || coalesce(array_agg(pick.ord ORDER BY pick.ord, pick.rn), '{}'),
           p_seq || coalesce(array_agg(pick.rn ORDER BY pick.ord, pick.rn), '{}')
      INTO v_items, p_tidx, p_seq
    FROM pick;
    -- Rows this call holds locked since the pick: each update finds its row as the pick left it.
    FOREACH v_item IN ARRAY v_items LOOP
      UPDATE "StudyItemCounter" SET reserved = reserved + 1, rank = hashtext("itemId" || p_order_seed)
      WHERE "studyId" = p_study_id AND "itemId" = v_item;
    END LOOP;
    p_items := p_items || v_items;
    EXIT WHEN cardinality(v_items) = 0;
  END LOOP;
END
$fn$;
