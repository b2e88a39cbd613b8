-- A new participant from a study link, in one statement: the join limit is counted (misi_rate_limit_count), the study
-- must still be open and not full (misi_study_full), the never-consented participants are kept bounded, then the
-- insert, resuming instead when a simultaneous first visit with the same external id won.
-- The study's counter row is only read, so joins never queue on it: how many have started (maxParticipants counts only
-- those; the provisional condition is the next start's turn). `go` is empty when the join limit refused or the study
-- closed meanwhile: then nothing below writes. ON CONFLICT … DO UPDATE (a no-op) returns the id of a participant a
-- simultaneous first visit with the same external id committed after this statement's snapshot. `pruned`: when `prune`, the
-- rate-limit events older than `pruneBefore` are deleted (one call in 100, as consumeRateLimit does).
-- @param $1 limitKeys text[]
-- @param $2 limits int[]
-- @param $3 limitSince timestamp[]
-- @param $4 now timestamp
-- @param $5 studyId text
-- @param $6 maxParticipants int?
-- @param $7 pendingLimit int
-- @param $8 externalId text
-- @param $9 prune boolean
-- @param $10 pruneBefore timestamp
-- @param $11 participantId text
-- @param $12 anonymous boolean
-- @param $13 externalStudyId text?
-- @param $14 externalSessionId text?
-- @param $15 conditions text[]
-- @param $16 cohortTag text?
-- @param $17 orderSeed text
WITH rl AS (
  SELECT rule_index, event_count, first_at FROM misi_rate_limit_count(
    $1::text[], $2::int[], $3::text[]::timestamp(3)[], $4::timestamp(3), misi_rate_limit_lock($1::text[]))
),
refused AS (
  SELECT rl.rule_index, rl.first_at FROM rl WHERE rl.event_count >= ($2::int[])[rl.rule_index] ORDER BY rl.rule_index LIMIT 1
),
go AS (SELECT s.id FROM "Study" s WHERE s.id = $5::text AND s.status = 'open' AND NOT EXISTS (SELECT 1 FROM refused)),
cnt AS (SELECT (SELECT started FROM "StudyParticipantCounter" WHERE "studyId" = $5::text) AS started),
room AS (SELECT go.id, COALESCE(cnt.started, 0) AS started FROM go, cnt WHERE NOT misi_study_full(cnt.started, $6::int)),
pending AS (
  SELECT count(*)::int AS n FROM (SELECT 1 FROM "Participant" WHERE "studyId" = $5::text AND status = 'consenting' LIMIT $7::int) x
),
evicted AS (
  DELETE FROM "Participant" d WHERE d.status = 'consenting' AND d.id IN (
    SELECT p.id FROM "Participant" p
    WHERE EXISTS (SELECT 1 FROM room) AND (SELECT n FROM pending) >= $7::int
      AND p."studyId" = $5::text AND p.status = 'consenting' AND p."externalId" <> $8::text
      AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."participantId" = p.id)
    ORDER BY p."lastSeenAt", p.id LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING d.id
),
pruned AS (
  DELETE FROM "SignInAttempt" WHERE $9::boolean AND "at" < $10::timestamp(3)
),
ins AS (
  INSERT INTO "Participant" (id, "studyId", "externalId", anonymous, "externalStudyId", "externalSessionId", condition, cohort, "orderSeed")
  SELECT $11::text, room.id, $8::text, $12::boolean, $13::text, $14::text,
    ($15::text[])[(room.started % cardinality($15::text[])) + 1], $16::text, $17::text
  FROM room
  ON CONFLICT ("studyId", "externalId") DO UPDATE SET "externalId" = EXCLUDED."externalId"
  RETURNING id
)
SELECT (SELECT ins.id FROM ins) AS participant_id, (SELECT ins.id = $11::text FROM ins) AS created,
  EXISTS (SELECT 1 FROM "Study" s WHERE s.id = $5::text AND s.status = 'open') AS open,
  EXISTS (SELECT 1 FROM go) AND NOT EXISTS (SELECT 1 FROM room) AS full,
  (SELECT rule_index FROM refused) AS refused_rule, (SELECT first_at FROM refused) AS refused_first_at
