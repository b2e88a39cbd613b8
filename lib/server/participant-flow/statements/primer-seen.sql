-- The H-bond primer was read: stamped once in an active participant's flags (other keys untouched).
-- @param $1 participantId text
-- @param $2 now text
UPDATE "Participant"
SET flags = COALESCE(flags, '{}'::jsonb) || jsonb_build_object('hbondPrimerSeenAt', $2::text)
WHERE id = $1::text AND status = 'active' AND NOT (COALESCE(flags, '{}'::jsonb) ? 'hbondPrimerSeenAt')
