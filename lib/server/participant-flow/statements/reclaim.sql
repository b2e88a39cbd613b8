-- Returns abandoned work to the pool: the unanswered assignments of the study's participants whose reservation expired
-- (misi_reservation_expired) are marked abandoned and their counter slots released (misi_release_reservations).
-- One row: assignments released, counter rows changed.
-- @param $1 studyId text
-- @param $2 now timestamp
WITH rel AS (
  UPDATE "Assignment" a SET status = 'abandoned'
  FROM "Participant" p
  WHERE a."participantId" = p.id AND p."studyId" = $1 AND a.status = 'assigned' AND misi_reservation_expired(p."reservedUntil", $2::timestamp(3))
  RETURNING a."itemId", a.phase
)
SELECT (SELECT count(*) FROM rel)::int AS released,
       misi_release_reservations($1, coalesce((SELECT array_agg(rel."itemId") FROM rel WHERE rel.phase = 'main'), '{}')) AS counters
