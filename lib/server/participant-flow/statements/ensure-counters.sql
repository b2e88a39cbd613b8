-- The study's per-item counters for every active pool item of its tasks, practice and attention items left out
-- (idempotent). Each new counter's pick rank is the column's default, a random draw: the items' order is shuffled
-- once, here. `specialItemIds`: the practice and attention items.
-- @param $1 studyId text
-- @param $2 poolVersionId text
-- @param $3 taskIds text[]
-- @param $4 specialItemIds text[]
INSERT INTO "StudyItemCounter" ("studyId", "itemId", "taskId", "reserved", "answered")
SELECT $1::text, pi."itemId", pi."taskId", 0, 0
FROM "PoolItem" pi JOIN "Item" i ON i.id = pi."itemId"
WHERE pi."poolVersionId" = $2::text AND i.status = 'active'
  AND pi."taskId" = ANY($3::text[]) AND NOT (pi."itemId" = ANY($4::text[]))
ON CONFLICT DO NOTHING
