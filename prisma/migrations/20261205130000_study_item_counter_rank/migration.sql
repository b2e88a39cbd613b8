-- A start picks a task's items as one range of an index: (studyId, taskId, reserved, rank) read in order, LIMIT n FOR
-- UPDATE SKIP LOCKED, whatever the pool's size or the table's statistics (sorting every counter row of the task by a
-- hash computed per row cost O(pool) per start, and without statistics a nested loop over the whole pool). `rank`
-- shuffles the items once, when their counters are created; each reservation re-draws it from the participant's
-- seed, so at the next reservation level items come in another order (participants do not share whole blocks).
-- AlterTable
ALTER TABLE "StudyItemCounter" ADD COLUMN     "rank" INTEGER NOT NULL DEFAULT (floor(random() * 2147483647))::integer;

UPDATE "StudyItemCounter" SET "rank" = hashtext("itemId" || "studyId");

-- DropIndex
DROP INDEX "StudyItemCounter_studyId_taskId_reserved_idx";

-- CreateIndex
CREATE INDEX "StudyItemCounter_studyId_taskId_reserved_rank_idx" ON "StudyItemCounter"("studyId", "taskId", "reserved", "rank");
