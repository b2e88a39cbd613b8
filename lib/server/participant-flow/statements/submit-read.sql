-- The answer submit's read (lib/server/participant-flow/record-response.ts): the assignment with its participant, study
-- config, item, answer key, any stored response, who used this idempotency key, and whether it is the current
-- question.
-- @param $1 assignmentId text
-- @param $2 participantId text
-- @param $3 idempotencyKey text
SELECT a.id, a."itemId", a.phase::text AS phase, a.status::text AS status, a."firstShownAt", a."questionShownAt",
       p.status::text AS "participantStatus", p.condition, p."studyId", p.flags,
       s.config::text AS config, -- as text: the app keeps a parsed config by it (parseStoredStudyConfigText)
       i."taskId", i."taskVersion", k.gold, k.canonical,
       misi_grading_hash(i."contentHash", i."taskId", i."taskVersion", k.gold, k.canonical) AS "gradingHash",
       r."idempotencyKey" AS "storedKey", r.exact AS "storedExact",
       (SELECT x."assignmentId" FROM "Response" x WHERE x."idempotencyKey" = $3) AS "keyAssignmentId",
       EXISTS (SELECT 1 FROM misi_open_assignments($2) e WHERE e.position < a.position) AS "openBefore"
FROM "Assignment" a
JOIN "Participant" p ON p.id = a."participantId"
JOIN "Study" s ON s.id = p."studyId"
JOIN "Item" i ON i.id = a."itemId"
LEFT JOIN "AnswerKey" k ON k."itemId" = a."itemId"
LEFT JOIN "Response" r ON r."assignmentId" = a.id
WHERE a.id = $1 AND a."participantId" = $2
