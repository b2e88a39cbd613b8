-- The integrity signals of a replayed submit, stored once through misi_store_answer_signals (capped, once-only), for an
-- assignment of this participant that has a stored response.
-- @param $1 assignmentId text
-- @param $2 participantId text
-- @param $3 signals jsonb
-- @param $4 slackMs int
SELECT misi_store_answer_signals(a.id, a."participantId", r."studyId", $3::jsonb, r."rtClientMs", r."rtServerMs", $4::int)
FROM "Assignment" a JOIN "Response" r ON r."assignmentId" = a.id
WHERE a.id = $1::text AND a."participantId" = $2::text
