-- The join's lookup by external id (lib/server/participant-flow/statements/enter-read.sql) goes through this index
-- alone, the study checked on the row. Through ("studyId", "externalId"), a generic plan made while a study was small
-- (a launch's first minutes; tables never analysed) could take ("studyId", status) or ("studyId", "addressKey")
-- instead, the pooled connection kept it, and every join walked all of the study's participants as it grew.
-- CreateIndex
CREATE INDEX "Participant_externalId_idx" ON "Participant"("externalId");
