-- The start of a participant who accepted consent (assign-items.ts, startParticipantOnce): one call of
-- misi_start_participant (sql/functions/40_start_participant.sql), which holds its row locks for its own run only.
-- @param $1 participantId text
-- @param $2 studyId text
-- @param $3 tasks text[]
-- @param $4 itemsPerTask int
-- @param $5 k int
-- @param $6 maxParticipants int?
-- @param $7 specialItemIds text[]
-- @param $8 orderSeed text
-- @param $9 slotTask int?[]
-- @param $10 slotJ int?[]
-- @param $11 slotItem text?[]
-- @param $12 slotPhase text[]
-- @param $13 expiresAt timestamp
-- @param $14 now timestamp
-- @param $15 device jsonb?
-- @param $16 hbondPrimer boolean
-- @param $17 addressKey text?
-- @param $18 addressShare float8?
-- @param $19 conditions text[]
SELECT outcome, main_assigned, short_tasks FROM misi_start_participant(
  $1::text, $2::text, $3::text[], $4::int, $5::int, $6::int, $7::text[], $8::text,
  $9::int[], $10::int[], $11::text[], $12::text[], $13::timestamp(3), $14::timestamp(3), $15::jsonb, $16::boolean,
  $17::text, $18::float8, $19::text[])
