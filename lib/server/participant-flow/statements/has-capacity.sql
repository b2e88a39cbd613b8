-- Can the study take one more participant? Not full (misi_study_full) and at least one main item of its tasks with a
-- free slot (misi_slot_free): one probe of the (studyId, taskId, reserved, rank) index per task.
-- @param $1 studyId text
-- @param $2 taskIds text[]
-- @param $3 k int
-- @param $4 specialItemIds text[]
-- @param $5 maxParticipants int?
SELECT NOT misi_study_full((SELECT c.started FROM "StudyParticipantCounter" c WHERE c."studyId" = $1), $5::int)
   AND EXISTS (
     SELECT 1 FROM unnest($2::text[]) AS t(task) CROSS JOIN LATERAL (
       SELECT 1 FROM "StudyItemCounter" c
       WHERE c."studyId" = $1 AND c."taskId" = t.task
         AND misi_slot_free(c.reserved, c."itemId", (SELECT i.status::text FROM "Item" i WHERE i.id = c."itemId"), $3::int, $4::text[])
       LIMIT 1
     ) AS f
   ) AS capacity
