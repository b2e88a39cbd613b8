-- The answer submit's write (record-response.ts, writeAnswer): one statement, committed on its own. Marks the
-- assignment answered (only while it is open and the session active), inserts the response, counts a main answer,
-- renews the participant's reservation and stamps the next question shown, completes the session when nothing
-- is left open, and returns progress with the next question. No row from `upd`: nothing written (the caller decides
-- again on what is stored).
-- `countsTowardK`: a main item; `reservedUntil`: the renewed reservation's end; `signals`: the browser's integrity
-- signals, capped with `signalSlackMs` (SIGNAL_TIME_SLACK_MS).
-- @param $1 assignmentId text
-- @param $2 participantId text
-- @param $3 responseId text
-- @param $4 studyId text
-- @param $5 taskId text
-- @param $6 taskVersion int
-- @param $7 condition text
-- @param $8 rawAnswer text
-- @param $9 canonicalAnswer text?
-- @param $10 exact int?
-- @param $11 partial float8?
-- @param $12 rtClientMs int?
-- @param $13 rtServerMs int?
-- @param $14 shownAt timestamp?
-- @param $15 now timestamp
-- @param $16 interactionLog jsonb?
-- @param $17 idempotencyKey text
-- @param $18 late boolean
-- @param $19 itemId text
-- @param $20 countsTowardK boolean
-- @param $21 reservedUntil timestamp
-- @param $22 signals jsonb?
-- @param $23 signalSlackMs int
WITH upd AS (
  UPDATE "Assignment" a SET status = 'answered'
  WHERE a.id = $1 AND a."participantId" = $2 AND a.status = 'assigned'
    AND EXISTS (SELECT 1 FROM "Participant" p WHERE p.id = $2 AND p.status = 'active')
  RETURNING a.id, a."itemId", a.phase
), ins AS (
  INSERT INTO "Response" (id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition,
                          "rawAnswer", "canonicalAnswer", exact, partial, "rtClientMs", "rtServerMs", "shownAt", "submittedAt",
                          "interactionLog", "idempotencyKey", late)
  SELECT $3::text, upd.id, $2::text, $4::text, upd."itemId", $5::text, $6::int, upd.phase,
         $7::text, $8::text, $9::text, $10::int, $11::float8, $12::int,
         $13::int, $14::timestamp(3), $15::timestamp(3), $16::jsonb, $17::text, $18::boolean
  FROM upd
  RETURNING id
), counted AS (
  UPDATE "StudyItemCounter" SET answered = answered + 1
  WHERE "studyId" = $4 AND "itemId" = $19 AND $20::boolean AND EXISTS (SELECT 1 FROM ins)
  RETURNING 1
), open AS (
  -- This statement's snapshot does not see its own update: the answered assignment is left out by id.
  SELECT * FROM misi_open_assignments($2) o WHERE o.id <> $1
), nxt AS (
  SELECT * FROM open ORDER BY position LIMIT 1
), shown AS (
  -- The next question is marked shown (one row: the answer's response carries it).
  UPDATE "Assignment" x SET "firstShownAt" = $15::timestamp(3)
  WHERE x.id = (SELECT id FROM nxt) AND x."firstShownAt" IS NULL AND EXISTS (SELECT 1 FROM ins)
  RETURNING 1
), part AS (
  -- Answering is activity: the rest of the participant's work stays reserved (one row, however many are left).
  UPDATE "Participant" SET "lastSeenAt" = $15::timestamp(3), "reservedUntil" = $21::timestamp(3),
         status = CASE WHEN EXISTS (SELECT 1 FROM open) THEN status ELSE 'completed'::"ParticipantStatus" END,
         "completedAt" = CASE WHEN EXISTS (SELECT 1 FROM open) THEN "completedAt" ELSE $15::timestamp(3) END
  WHERE id = $2 AND EXISTS (SELECT 1 FROM ins)
  RETURNING status::text AS status
), sig AS (
  -- The browser's integrity signals, stored with the answer they describe (once, capped: misi_store_answer_signals).
  SELECT misi_store_answer_signals($1, $2, $4, $22::jsonb, $12::int, $13::int, $23::int) AS stored
  FROM ins WHERE $22::text IS NOT NULL
), progress AS (
  SELECT (count(*) FILTER (WHERE status = 'answered') + 1)::int AS answered, count(*)::int AS total,
         count(*) FILTER (WHERE phase = 'practice')::int AS practice
  FROM "Assignment" WHERE "participantId" = $2 AND status <> 'abandoned'
)
SELECT (SELECT id FROM ins) AS "responseId", (SELECT status FROM part) AS "participantStatus",
       -- Referenced so that it runs (PostgreSQL skips a CTE nothing reads unless it modifies data itself).
       EXISTS (SELECT 1 FROM sig WHERE stored) AS "signalsStored",
       progress.answered, progress.total, progress.practice,
       -- @include next-question
FROM progress LEFT JOIN nxt n ON true LEFT JOIN "Item" ni ON ni.id = n."itemId"
