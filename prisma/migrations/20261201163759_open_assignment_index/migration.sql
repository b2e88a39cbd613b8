-- CreateIndex
CREATE INDEX "Assignment_open_participantId_position_idx" ON "Assignment"("participantId", "position") WHERE (status = 'assigned');
