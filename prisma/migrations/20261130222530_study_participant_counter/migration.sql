-- CreateTable
CREATE TABLE "StudyParticipantCounter" (
    "studyId" TEXT NOT NULL,
    "joined" INTEGER NOT NULL DEFAULT 0,
    "started" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "StudyParticipantCounter_pkey" PRIMARY KEY ("studyId")
);

-- AddForeignKey
ALTER TABLE "StudyParticipantCounter" ADD CONSTRAINT "StudyParticipantCounter_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing studies: everyone who opened the link joined, those who consented started.
INSERT INTO "StudyParticipantCounter" ("studyId", "joined", "started")
SELECT "studyId", count(*)::int, (count(*) FILTER (WHERE "consentAt" IS NOT NULL))::int FROM "Participant" GROUP BY "studyId";
