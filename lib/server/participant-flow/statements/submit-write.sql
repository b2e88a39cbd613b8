-- The answer submit's write (record-response.ts, writeAnswer): one statement, committed on its own. Marks the
-- assignment answered, inserts the response, counts a main answer, renews the participant's reservation and stamps the
-- next question shown, completes the session when nothing is left open, and returns progress with the next question.
-- It writes only when the answer may be stored now, checked here so that an answer needs no read before it (#31): the
-- session is active and in this study, the assignment is the participant's, still open, holds this item and is the
-- current question (no open question before it, misi_open_assignments), and, when the caller graded from what it kept
-- in memory, that item and the study's config are the ones it kept. No row from `upd`: nothing written (the caller
-- reads and decides on what is stored).
-- `timed`: the study has a time limit, `timedShownAt` the stamp its clock counted from (the display time rule below);
-- `gradingHash`, `configMd5`: what the caller graded with (misi_grading_hash, md5 of Study.config as text), NULL when
-- it read them in this request; `storeAttention`: an attention check may be stored by this statement alone (passed, or
-- the caller records the failure in the same transaction); `reservedUntil`: the renewed reservation's end;
-- `signals`: the browser's integrity signals, capped with `signalSlackMs` (SIGNAL_TIME_SLACK_MS).
-- @param $1 assignmentId text
-- @param $2 participantId text
-- @param $3 responseId text
-- @param $4 studyId text
-- @param $5 itemId text
-- @param $6 rawAnswer text
-- @param $7 canonicalAnswer text?
-- @param $8 exact int?
-- @param $9 partial float8?
-- @param $10 rtClientMs int?
-- @param $11 timed boolean
-- @param $12 now timestamp
-- @param $13 interactionLog jsonb?
-- @param $14 idempotencyKey text
-- @param $15 late boolean
-- @param $16 reservedUntil timestamp
-- @param $17 signals jsonb?
-- @param $18 signalSlackMs int
-- @param $19 gradingHash text?
-- @param $20 configMd5 text?
-- @param $21 storeAttention boolean
-- @param $22 timedShownAt timestamp?
-- The participant's and the assignment's rows are found by primary key alone, whatever the statistics: their other
-- conditions are one CASE expression, which no index can serve. As separate conditions they matched other indexes
-- just as well for a generic plan on tables never analysed, which then walked every active participant of the study
-- (Participant_studyId_status_idx: 5,006 rows for one answer in a study of 5,000) or every open assignment of the
-- item (Assignment_itemId_status_idx); `npm run bench:plans` shows the rows visited.
WITH p AS (
  SELECT condition FROM "Participant" WHERE id = $2 AND CASE WHEN status = 'active' THEN "studyId" = $4 ELSE false END
), it AS (
  SELECT i."taskId", i."taskVersion" FROM "Item" i JOIN "AnswerKey" k ON k."itemId" = i.id
  WHERE i.id = $5
    AND ($19::text IS NULL OR misi_grading_hash(i."contentHash", i."taskId", i."taskVersion", k.gold, k.canonical) = $19::text)
), open_all AS (
  SELECT * FROM misi_open_assignments($2)
), upd AS (
  UPDATE "Assignment" a SET status = 'answered'
  WHERE a.id = $1 AND CASE WHEN a.status = 'assigned' THEN a."participantId" = $2 AND a."itemId" = $5 ELSE false END
    AND EXISTS (SELECT 1 FROM p) AND EXISTS (SELECT 1 FROM it)
    -- Only the current question: a later one's clock has not started, so an answer to it would be in time however
    -- long it was studied.
    AND NOT EXISTS (SELECT 1 FROM open_all e WHERE e.position < a.position)
    AND (a.phase <> 'attention' OR $21::boolean)
    AND ($20::text IS NULL OR EXISTS (SELECT 1 FROM "Study" s WHERE s.id = $4 AND md5(s.config::text) = $20::text))
  -- When the question itself was on screen (the stored `shownAt`, and `rtServerMs` from it). A timed study's is the
  -- stamp its clock counted from (record-response.ts, shownAtOf: the server's POST /api/participant/shown), which its
  -- clock and content gate need. An untimed study's browser sends no /shown (one round trip per question saved, #31):
  -- the answer's own client time places the display, held between when the question was served ("firstShownAt") and
  -- now. A client can so make its time shorter (then under the task's floor, flagged) but never longer than the server
  -- saw it served. A server stamp, if the question has one, is used as is.
  RETURNING a.id, a.phase,
    CASE WHEN $11::boolean THEN $22::timestamp(3)
         WHEN a."questionShownAt" IS NOT NULL OR a."firstShownAt" IS NULL OR $10::int IS NULL
         THEN COALESCE(a."questionShownAt", a."firstShownAt")
         ELSE GREATEST(a."firstShownAt", $12::timestamp(3) - $10::int * interval '1 millisecond') END AS "shownAt"
), ins AS (
  INSERT INTO "Response" (id, "assignmentId", "participantId", "studyId", "itemId", "taskId", "taskVersion", phase, condition,
                          "rawAnswer", "canonicalAnswer", exact, partial, "rtClientMs", "rtServerMs", "shownAt", "submittedAt",
                          "interactionLog", "idempotencyKey", late)
  SELECT $3::text, upd.id, $2::text, $4::text, $5::text, it."taskId", it."taskVersion", upd.phase, p.condition,
         $6::text, $7::text, $8::int, $9::float8, $10::int,
         -- Held to int's range (a question shown 25 days before its answer): stored, not refused. NULL without a shown
         -- time (LEAST alone would make it the maximum).
         CASE WHEN upd."shownAt" IS NOT NULL
              THEN LEAST(extract(epoch FROM $12::timestamp(3) - upd."shownAt") * 1000, 2147483647)::int END,
         upd."shownAt", $12::timestamp(3),
         $13::jsonb, $14::text, $15::boolean
  FROM upd, it, p
  RETURNING id, "rtServerMs"
), counted AS (
  UPDATE "StudyItemCounter" SET answered = answered + 1
  WHERE "studyId" = $4 AND "itemId" = $5 AND EXISTS (SELECT 1 FROM upd WHERE phase = 'main') AND EXISTS (SELECT 1 FROM ins)
  RETURNING 1
), open AS (
  -- This statement's snapshot does not see its own update: the answered assignment is left out by id.
  SELECT * FROM open_all o WHERE o.id <> $1
), nxt AS (
  SELECT * FROM open ORDER BY position LIMIT 1
), shown AS (
  -- The next question is marked shown (one row: the answer's response carries it).
  UPDATE "Assignment" x SET "firstShownAt" = $12::timestamp(3)
  WHERE x.id = (SELECT id FROM nxt) AND x."firstShownAt" IS NULL AND EXISTS (SELECT 1 FROM ins)
  RETURNING 1
), part AS (
  -- Answering is activity: the rest of the participant's work stays reserved (one row, however many are left).
  UPDATE "Participant" SET "lastSeenAt" = $12::timestamp(3), "reservedUntil" = $16::timestamp(3),
         status = CASE WHEN EXISTS (SELECT 1 FROM open) THEN status ELSE 'completed'::"ParticipantStatus" END,
         "completedAt" = CASE WHEN EXISTS (SELECT 1 FROM open) THEN "completedAt" ELSE $12::timestamp(3) END
  WHERE id = $2 AND EXISTS (SELECT 1 FROM ins)
  RETURNING status::text AS status
), sig AS (
  -- The browser's integrity signals, stored with the answer they describe (once, capped: misi_store_answer_signals).
  SELECT misi_store_answer_signals($1, $2, $4, $17::jsonb, $10::int, ins."rtServerMs", $18::int) AS stored
  FROM ins WHERE $17::text IS NOT NULL
), progress AS (
  SELECT (count(*) FILTER (WHERE status = 'answered') + 1)::int AS answered, count(*)::int AS total,
         count(*) FILTER (WHERE phase = 'practice')::int AS practice
  FROM "Assignment" WHERE "participantId" = $2 AND status <> 'abandoned'
)
SELECT (SELECT id FROM ins) AS "responseId", (SELECT status FROM part) AS "participantStatus",
       (SELECT phase::text FROM upd) AS "answeredPhase", (SELECT condition FROM p) AS condition,
       -- Referenced so that it runs (PostgreSQL skips a CTE nothing reads unless it modifies data itself).
       EXISTS (SELECT 1 FROM sig WHERE stored) AS "signalsStored",
       progress.answered, progress.total, progress.practice,
       -- @include next-question
FROM progress LEFT JOIN nxt n ON true LEFT JOIN "Item" ni ON ni.id = n."itemId"
