-- A participant's reservation expiry moves from every open assignment (all renewed on each answer: one non-HOT row
-- update per open question, O(n) per answer) to the participant's row. Open assignments of one participant always
-- carried the same expiry, so the latest one is it.
-- AlterTable
ALTER TABLE "Participant" ADD COLUMN     "reservedUntil" TIMESTAMP(3);

UPDATE "Participant" p SET "reservedUntil" = o.until
FROM (SELECT "participantId", max("expiresAt") AS until FROM "Assignment" WHERE status = 'assigned' GROUP BY "participantId") o
WHERE o."participantId" = p.id;

-- DropIndex
DROP INDEX "Assignment_status_expiresAt_idx";

-- AlterTable
ALTER TABLE "Assignment" DROP COLUMN "expiresAt";
