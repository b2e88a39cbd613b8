-- A wrong attention check (record-response.ts): the participant's flags, and past the limit under screen_out the end
-- of the session.
-- @param $1 participantId text
-- @param $2 flags jsonb
-- @param $3 screenedOut boolean
-- @param $4 now timestamp
UPDATE "Participant"
SET flags = $2::jsonb,
    status = CASE WHEN $3::boolean THEN 'screened_out'::"ParticipantStatus" ELSE status END,
    "completedAt" = CASE WHEN $3::boolean THEN $4::timestamp(3) ELSE "completedAt" END
WHERE id = $1
