-- POST /api/participant/shown (lib/server/participant-flow/question-clock.ts): the assignment's state, whether it is the
-- current question, and the question's display stamped once, only while it is current.
-- "stampedAt" is null when this call did not stamp (already stamped, or refused); a
-- concurrent call that stamped first is seen by a second read.
-- @param $1 participantId text
-- @param $2 assignmentId text
-- @param $3 now timestamp
WITH a AS (
  SELECT x.id, x.status::text AS status, x."questionShownAt", p.status::text AS "participantStatus", s.config,
         COALESCE((SELECT o.id FROM misi_open_assignments($1) o ORDER BY o.position LIMIT 1) = x.id, false) AS current
  FROM "Assignment" x JOIN "Participant" p ON p.id = x."participantId" JOIN "Study" s ON s.id = p."studyId"
  WHERE x.id = $2 AND x."participantId" = $1
), stamp AS (
  UPDATE "Assignment" SET "questionShownAt" = $3::timestamp(3)
  WHERE id = $2 AND "questionShownAt" IS NULL AND (SELECT current FROM a)
  RETURNING "questionShownAt"
)
SELECT a.id, a.status, a."questionShownAt", a."participantStatus", a.config, a.current,
       (SELECT "questionShownAt" FROM stamp) AS "stampedAt"
FROM a
