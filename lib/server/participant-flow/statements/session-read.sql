-- The session read (lib/server/participant-flow/get-session.ts): a started participant's page load, reload or consent
-- reply in one statement. `medianMinCompletions`: finished participants needed for a median duration.
-- Participant, study, progress, the current question with its item's public columns and the next one's image ids.
-- Its two writes are idempotent: an active participant with assignments but nothing open is completed, and the
-- current question's firstShownAt is stamped only where it is missing.
-- @param $1 participantId text
-- @param $2 now timestamp
-- @param $3 medianMinCompletions int
WITH p AS (
  SELECT p.id, p."studyId", p.status::text AS status, p.condition, p."consentAt", p.flags,
         s.name AS "studyName", s.slug AS "studySlug", s."poolVersionId", s.config
  FROM "Participant" p JOIN "Study" s ON s.id = p."studyId"
  WHERE p.id = $1
), a AS (
  SELECT x.phase::text AS phase, x.status::text AS status
  FROM "Assignment" x
  WHERE x."participantId" = $1 AND x.status <> 'abandoned'
), open AS (
  SELECT * FROM misi_open_assignments($1)
), finished AS (
  -- Nothing left to answer (the rest was excluded, or released and taken by others): the session is complete.
  SELECT EXISTS (SELECT 1 FROM p WHERE p.status = 'active') AND EXISTS (SELECT 1 FROM a) AND NOT EXISTS (SELECT 1 FROM open) AS yes
), done AS (
  UPDATE "Participant" SET status = 'completed', "completedAt" = $2::timestamp(3)
  WHERE id = $1 AND status = 'active' AND (SELECT yes FROM finished)
  RETURNING 1
), nxt AS (
  SELECT * FROM open ORDER BY position LIMIT 1
), stamp AS (
  UPDATE "Assignment" SET "firstShownAt" = COALESCE("firstShownAt", $2::timestamp(3))
  WHERE id = (SELECT id FROM nxt) AND "firstShownAt" IS NULL
  RETURNING 1
)
SELECT p.id, p."studyId", CASE WHEN (SELECT yes FROM finished) THEN 'completed' ELSE p.status END AS status,
       p.condition, p."consentAt", p."studyName", p."studySlug", p."poolVersionId", p.config,
       p.flags ->> 'screenOutReason' AS "screenOutReason", (p.flags ? 'hbondPrimerSeenAt') IS TRUE AS "primerSeen",
       CASE WHEN p."consentAt" IS NULL THEN (
         SELECT CASE WHEN count(*) >= $3::int
                     THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM (c."completedAt" - c."consentAt"))) END
         FROM "Participant" c
         WHERE c."studyId" = p."studyId" AND c.status = 'completed' AND c."consentAt" IS NOT NULL AND c."completedAt" IS NOT NULL
       ) END AS "medianSec",
       (SELECT count(*) FROM a WHERE a.status = 'answered')::int AS answered, (SELECT count(*) FROM a)::int AS total,
       (SELECT count(*) FROM a WHERE a.phase = 'practice')::int AS practice,
       -- A question of the current question's task is answered: its instructions were read (an untimed study sends
       -- no "shown" stamp that would say so, #31). The item's task is a scalar subquery by primary key, not a join: on
       -- tables never analysed a join was planned from the task's items (Item_taskId_status_idx), every item of the
       -- task in the pool for each session read.
       EXISTS (SELECT 1 FROM "Assignment" y
               WHERE y."participantId" = $1 AND y.status = 'answered'
                 AND (SELECT yi."taskId" FROM "Item" yi WHERE yi.id = y."itemId") = ni."taskId") AS "taskAnswered",
       -- @include next-question
FROM p LEFT JOIN nxt n ON true LEFT JOIN "Item" ni ON ni.id = n."itemId"
