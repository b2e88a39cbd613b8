-- Is this assignment the participant's current question (the first of misi_open_assignments)? The content gate
-- (question-content-gate.ts) asks before serving a timed study's images and 3D scene.
-- @param $1 participantId text
-- @param $2 assignmentId text
SELECT COALESCE((SELECT o.id FROM misi_open_assignments($1) o ORDER BY o.position LIMIT 1) = $2::text, false) AS current
