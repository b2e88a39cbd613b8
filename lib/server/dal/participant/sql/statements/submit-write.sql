-- The answer submit's write (record-response.ts, writeAnswer): one statement, committed on its own. Marks the
-- assignment answered (only while it is open and the session active), inserts the response, counts a main answer,
-- renews the participant's reservation and stamps the next question shown, completes the session when nothing
-- is left open, and returns progress with the next question. No row from `upd`: nothing written (the caller decides
-- again on what is stored).
-- $1 assignment id, $2 participant id, $3 response id, $4 study id, $5 task id, $6 task version, $7 condition,
-- $8 raw answer, $9 canonical answer, $10 exact, $11 partial, $12 rtClientMs, $13 rtServerMs, $14 shownAt (ISO),
-- $15 now (ISO), $16 interaction log (JSON text), $17 idempotency key, $18 late, $19 item id, $20 counts toward k
-- (a main item), $21 reservations expire at (ISO), $22 the browser's integrity signals (JSON text, or NULL), $23 their
-- time slack (ms, SIGNAL_TIME_SLACK_MS).
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
