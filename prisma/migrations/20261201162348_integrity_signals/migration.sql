-- CreateTable
CREATE TABLE "AnswerSignals" (
    "assignmentId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "signals" JSONB NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnswerSignals_pkey" PRIMARY KEY ("assignmentId")
);

-- CreateTable
CREATE TABLE "ParticipantSignals" (
    "participantId" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "device" JSONB NOT NULL,
    "webdriver" BOOLEAN NOT NULL DEFAULT false,
    "firstAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ParticipantSignals_pkey" PRIMARY KEY ("participantId")
);

-- CreateIndex
CREATE INDEX "AnswerSignals_studyId_idx" ON "AnswerSignals"("studyId");

-- CreateIndex
CREATE INDEX "AnswerSignals_participantId_idx" ON "AnswerSignals"("participantId");

-- CreateIndex
CREATE INDEX "ParticipantSignals_studyId_idx" ON "ParticipantSignals"("studyId");

-- AddForeignKey
ALTER TABLE "AnswerSignals" ADD CONSTRAINT "AnswerSignals_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnswerSignals" ADD CONSTRAINT "AnswerSignals_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ParticipantSignals" ADD CONSTRAINT "ParticipantSignals_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
