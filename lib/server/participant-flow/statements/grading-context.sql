-- What grading the participant's answer to this assignment needs, read once per process (record-response.ts,
-- submitDirect keeps it): the item's task, answer key, public fields and grading hash (misi_grading_hash), and the
-- study's config as text.
-- Only the participant's own assignment's item: an item id a browser names is never read from here.
-- @param $1 assignmentId text
-- @param $2 participantId text
SELECT i.id AS "itemId", i."taskId", i.payload, k.gold, k.canonical,
       misi_grading_hash(i."contentHash", i."taskId", i."taskVersion", k.gold, k.canonical) AS "gradingHash",
       p."studyId", s.config::text AS config
FROM "Assignment" a
JOIN "Participant" p ON p.id = a."participantId"
JOIN "Study" s ON s.id = p."studyId"
JOIN "Item" i ON i.id = a."itemId"
JOIN "AnswerKey" k ON k."itemId" = i.id
WHERE a.id = $1 AND a."participantId" = $2
