-- A session ended early (screened out): the participant's unanswered reservations go back to the pool now, not after
-- the timeout. $1 participant id, $2 study id.
WITH rel AS (
  UPDATE "Assignment" SET status = 'abandoned'
  WHERE "participantId" = $1 AND status = 'assigned'
  RETURNING "itemId", phase
)
UPDATE "StudyItemCounter" SET reserved = GREATEST(0, reserved - 1)
WHERE "studyId" = $2 AND "itemId" IN (SELECT "itemId" FROM rel WHERE phase = 'main')
