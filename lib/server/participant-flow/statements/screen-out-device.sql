-- A participant still deciding whose device the study does not take: screened out with the reason and the device
-- recorded; one already started is left as is.
-- @param $1 participantId text
-- @param $2 now timestamp
-- @param $3 device jsonb?
-- @param $4 reason text
UPDATE "Participant"
SET status = 'screened_out', "completedAt" = $2::timestamp(3), "deviceInfo" = $3::jsonb,
    flags = COALESCE(flags, '{}'::jsonb) || jsonb_build_object('screenOutReason', $4::text)
WHERE id = $1::text AND status = 'consenting'
