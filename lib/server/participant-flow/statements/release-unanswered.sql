-- A session ended early (screened out): the participant's unanswered reservations go back to the pool now, not after
-- the timeout (misi_release_reservations: counter rows locked in item-id order).
-- @param $1 participantId text
-- @param $2 studyId text
WITH rel AS (
  UPDATE "Assignment" SET status = 'abandoned'
  WHERE "participantId" = $1 AND status = 'assigned'
  RETURNING "itemId", phase
)
SELECT misi_release_reservations($2, coalesce((SELECT array_agg(rel."itemId") FROM rel WHERE rel.phase = 'main'), '{}')) AS released
