-- The start of a participant who accepted consent (assign-items.ts, startParticipantOnce): one call of
-- misi_start_participant (sql/functions/40_start_participant.sql), which holds its row locks for its own run only.
SELECT outcome, main_assigned, short_tasks FROM misi_start_participant(
  $1::text, $2::text, $3::text[], $4::int, $5::int, $6::int, $7::text[], $8::text,
  $9::int[], $10::int[], $11::text[], $12::text[], $13::timestamp(3), $14::timestamp(3), $15::jsonb, $16::boolean,
  $17::text, $18::float8, $19::text[])
