-- Progress and next question after a replayed submit (record-response.ts, readUpdate): read only.
-- @param $1 participantId text
WITH open AS (
  SELECT * FROM misi_open_assignments($1)
), nxt AS (
  SELECT * FROM open ORDER BY position LIMIT 1
), progress AS (
  SELECT count(*) FILTER (WHERE status = 'answered')::int AS answered, count(*)::int AS total,
         count(*) FILTER (WHERE phase = 'practice')::int AS practice
  FROM "Assignment" WHERE "participantId" = $1 AND status <> 'abandoned'
)
SELECT (SELECT status::text FROM "Participant" WHERE id = $1) AS "participantStatus",
       progress.answered, progress.total, progress.practice,
       -- @include next-question
FROM progress LEFT JOIN nxt n ON true LEFT JOIN "Item" ni ON ni.id = n."itemId"
