-- THE rule for which questions a participant still has to answer, and so which one is current: the one definition every
-- participant-flow statement uses (session read, answer submit, content gate, shown stamp, start).
-- An assignment is open while its participant's session is active, it is reserved for them and not answered
-- (status 'assigned'), and its item is still active (an item excluded after assignment is skipped, so it never holds
-- completion back). The current question is the open assignment with the lowest position; when an active participant
-- has assignments but none open, the session is complete.
-- A plain STABLE SQL function with one SELECT: PostgreSQL inlines it into the calling statement (it plans as if the
-- SELECT were written there), so the partial index "Assignment_open_participantId_position_idx" finds the
-- participant's open rows without touching other participants' rows.
-- The item's status is a scalar subquery by primary key, not a join: a join left the planner free to pick, on tables
-- without statistics (autovacuum is off on these machines; rows written since the last ANALYZE), a nested loop that
-- read every active item for each open assignment (2,066 item rows for one answer in a 518-item pool). A subquery in
-- WHERE is never pulled up into a join, so it is always one Item_pkey lookup per open row, whatever the statistics.
CREATE OR REPLACE FUNCTION misi_open_assignments(p_participant_id text)
RETURNS TABLE (id text, "position" int, phase text, "itemId" text, "questionShownAt" timestamp(3), "firstShownAt" timestamp(3), "reservedUntil" timestamp(3))
LANGUAGE sql STABLE AS $fn$
  SELECT a.id, a.position, a.phase::text, a."itemId", a."questionShownAt", a."firstShownAt", p."reservedUntil"
  FROM "Assignment" a
  JOIN "Participant" p ON p.id = a."participantId"
  WHERE a."participantId" = p_participant_id AND a.status = 'assigned' AND p.status = 'active'
    AND (SELECT i.status FROM "Item" i WHERE i.id = a."itemId") = 'active'
$fn$;
