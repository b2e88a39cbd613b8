-- The H-bond primer was read: stamped once in an active participant's flags (other keys untouched).
-- $1 participant id, $2 now (ISO).
UPDATE "Participant"
SET flags = COALESCE(flags, '{}'::jsonb) || jsonb_build_object('hbondPrimerSeenAt', $2::text)
WHERE id = $1::text AND status = 'active' AND NOT (COALESCE(flags, '{}'::jsonb) ? 'hbondPrimerSeenAt')
