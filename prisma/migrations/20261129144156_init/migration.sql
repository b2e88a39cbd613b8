-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'researcher');

-- CreateEnum
CREATE TYPE "ItemStatus" AS ENUM ('active', 'excluded', 'flagged');

-- CreateEnum
CREATE TYPE "ItemSource" AS ENUM ('generated', 'bundle', 'misi_release', 'vlmevalkit');

-- CreateEnum
CREATE TYPE "StudyStatus" AS ENUM ('draft', 'open', 'closed');

-- CreateEnum
CREATE TYPE "ParticipantStatus" AS ENUM ('consenting', 'active', 'completed', 'screened_out', 'declined');

-- CreateEnum
CREATE TYPE "AssignmentPhase" AS ENUM ('practice', 'main', 'attention');

-- CreateEnum
CREATE TYPE "AssignmentStatus" AS ENUM ('assigned', 'answered', 'abandoned');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInAttempt" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SignInAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Structure" (
    "id" TEXT NOT NULL,
    "pdbId" TEXT,
    "sourceFile" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "ligandSpec" TEXT,
    "ligandFile" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Structure_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Item" (
    "id" TEXT NOT NULL,
    "externalId" TEXT,
    "source" "ItemSource" NOT NULL,
    "taskId" TEXT NOT NULL,
    "taskVersion" INTEGER NOT NULL,
    "split" TEXT NOT NULL DEFAULT 'test',
    "question" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "pdbId" TEXT,
    "structureId" TEXT,
    "generatorVersion" TEXT,
    "seed" TEXT,
    "renderSettings" JSONB,
    "provenance" JSONB,
    "contentHash" TEXT NOT NULL,
    "status" "ItemStatus" NOT NULL DEFAULT 'active',
    "statusReason" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "importBatchId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnswerKey" (
    "itemId" TEXT NOT NULL,
    "gold" JSONB NOT NULL,
    "canonical" TEXT NOT NULL,
    "distractors" JSONB,

    CONSTRAINT "AnswerKey_pkey" PRIMARY KEY ("itemId")
);

-- CreateTable
CREATE TABLE "ItemImage" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "caption" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "ItemImage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Pool" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Pool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PoolVersion" (
    "id" TEXT NOT NULL,
    "poolId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "recipe" JSONB NOT NULL,
    "frozenAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PoolVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PoolItem" (
    "poolVersionId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,

    CONSTRAINT "PoolItem_pkey" PRIMARY KEY ("poolVersionId","itemId")
);

-- CreateTable
CREATE TABLE "Study" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "StudyStatus" NOT NULL DEFAULT 'draft',
    "poolVersionId" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "cohortTag" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "openedAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "Study_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Participant" (
    "id" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "externalStudyId" TEXT,
    "externalSessionId" TEXT,
    "anonymous" BOOLEAN NOT NULL DEFAULT false,
    "condition" TEXT NOT NULL,
    "cohort" TEXT,
    "status" "ParticipantStatus" NOT NULL DEFAULT 'consenting',
    "consentAt" TIMESTAMP(3),
    "deviceInfo" JSONB,
    "orderSeed" TEXT NOT NULL,
    "flags" JSONB,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Participant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StudyItemCounter" (
    "studyId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "reserved" INTEGER NOT NULL DEFAULT 0,
    "answered" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "StudyItemCounter_pkey" PRIMARY KEY ("studyId","itemId")
);

-- CreateTable
CREATE TABLE "Assignment" (
    "id" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "phase" "AssignmentPhase" NOT NULL DEFAULT 'main',
    "status" "AssignmentStatus" NOT NULL DEFAULT 'assigned',
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "firstShownAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "Assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Response" (
    "id" TEXT NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "participantId" TEXT NOT NULL,
    "studyId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "taskVersion" INTEGER NOT NULL,
    "phase" "AssignmentPhase" NOT NULL DEFAULT 'main',
    "condition" TEXT NOT NULL,
    "rawAnswer" TEXT NOT NULL,
    "canonicalAnswer" TEXT NOT NULL,
    "exact" INTEGER NOT NULL,
    "partial" DOUBLE PRECISION NOT NULL,
    "rtClientMs" INTEGER,
    "rtServerMs" INTEGER,
    "shownAt" TIMESTAMP(3),
    "submittedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "interactionLog" JSONB,
    "idempotencyKey" TEXT NOT NULL,

    CONSTRAINT "Response_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelRun" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "asReported" BOOLEAN NOT NULL DEFAULT false,
    "contentHash" TEXT,
    "metadata" JSONB,
    "importedById" TEXT,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelPrediction" (
    "id" TEXT NOT NULL,
    "modelRunId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "canonical" TEXT,
    "parseError" TEXT,
    "exact" INTEGER NOT NULL,
    "partial" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "ModelPrediction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportBatch" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "sourceName" TEXT NOT NULL,
    "contentHash" TEXT,
    "status" TEXT NOT NULL,
    "report" JSONB,
    "importedById" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "details" JSONB,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "SignInAttempt_key_at_idx" ON "SignInAttempt"("key", "at");

-- CreateIndex
CREATE UNIQUE INDEX "Structure_contentHash_key" ON "Structure"("contentHash");

-- CreateIndex
CREATE INDEX "Structure_pdbId_idx" ON "Structure"("pdbId");

-- CreateIndex
CREATE UNIQUE INDEX "Item_contentHash_key" ON "Item"("contentHash");

-- CreateIndex
CREATE INDEX "Item_taskId_status_idx" ON "Item"("taskId", "status");

-- CreateIndex
CREATE INDEX "Item_split_taskId_idx" ON "Item"("split", "taskId");

-- CreateIndex
CREATE INDEX "Item_pdbId_idx" ON "Item"("pdbId");

-- CreateIndex
CREATE UNIQUE INDEX "Item_source_externalId_key" ON "Item"("source", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "ItemImage_itemId_position_key" ON "ItemImage"("itemId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "PoolVersion_poolId_version_key" ON "PoolVersion"("poolId", "version");

-- CreateIndex
CREATE INDEX "PoolItem_poolVersionId_taskId_idx" ON "PoolItem"("poolVersionId", "taskId");

-- CreateIndex
CREATE UNIQUE INDEX "Study_slug_key" ON "Study"("slug");

-- CreateIndex
CREATE INDEX "Participant_studyId_status_idx" ON "Participant"("studyId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Participant_studyId_externalId_key" ON "Participant"("studyId", "externalId");

-- CreateIndex
CREATE INDEX "StudyItemCounter_studyId_taskId_reserved_idx" ON "StudyItemCounter"("studyId", "taskId", "reserved");

-- CreateIndex
CREATE INDEX "Assignment_itemId_status_idx" ON "Assignment"("itemId", "status");

-- CreateIndex
CREATE INDEX "Assignment_status_expiresAt_idx" ON "Assignment"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_participantId_position_key" ON "Assignment"("participantId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Assignment_participantId_itemId_key" ON "Assignment"("participantId", "itemId");

-- CreateIndex
CREATE UNIQUE INDEX "Response_assignmentId_key" ON "Response"("assignmentId");

-- CreateIndex
CREATE UNIQUE INDEX "Response_idempotencyKey_key" ON "Response"("idempotencyKey");

-- CreateIndex
CREATE INDEX "Response_studyId_taskId_idx" ON "Response"("studyId", "taskId");

-- CreateIndex
CREATE INDEX "Response_studyId_submittedAt_id_idx" ON "Response"("studyId", "submittedAt", "id");

-- CreateIndex
CREATE INDEX "Response_itemId_idx" ON "Response"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "ModelRun_contentHash_key" ON "ModelRun"("contentHash");

-- CreateIndex
CREATE INDEX "ModelPrediction_itemId_idx" ON "ModelPrediction"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "ModelPrediction_modelRunId_itemId_key" ON "ModelPrediction"("modelRunId", "itemId");

-- CreateIndex
CREATE INDEX "AuditLog_entityType_entityId_idx" ON "AuditLog"("entityType", "entityId");

-- CreateIndex
CREATE INDEX "AuditLog_at_idx" ON "AuditLog"("at");

-- AddForeignKey
ALTER TABLE "Item" ADD CONSTRAINT "Item_structureId_fkey" FOREIGN KEY ("structureId") REFERENCES "Structure"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Item" ADD CONSTRAINT "Item_importBatchId_fkey" FOREIGN KEY ("importBatchId") REFERENCES "ImportBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnswerKey" ADD CONSTRAINT "AnswerKey_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ItemImage" ADD CONSTRAINT "ItemImage_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Pool" ADD CONSTRAINT "Pool_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolVersion" ADD CONSTRAINT "PoolVersion_poolId_fkey" FOREIGN KEY ("poolId") REFERENCES "Pool"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolItem" ADD CONSTRAINT "PoolItem_poolVersionId_fkey" FOREIGN KEY ("poolVersionId") REFERENCES "PoolVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PoolItem" ADD CONSTRAINT "PoolItem_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Study" ADD CONSTRAINT "Study_poolVersionId_fkey" FOREIGN KEY ("poolVersionId") REFERENCES "PoolVersion"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Study" ADD CONSTRAINT "Study_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Participant" ADD CONSTRAINT "Participant_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyItemCounter" ADD CONSTRAINT "StudyItemCounter_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StudyItemCounter" ADD CONSTRAINT "StudyItemCounter_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Assignment" ADD CONSTRAINT "Assignment_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "Assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_participantId_fkey" FOREIGN KEY ("participantId") REFERENCES "Participant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_studyId_fkey" FOREIGN KEY ("studyId") REFERENCES "Study"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelRun" ADD CONSTRAINT "ModelRun_importedById_fkey" FOREIGN KEY ("importedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelPrediction" ADD CONSTRAINT "ModelPrediction_modelRunId_fkey" FOREIGN KEY ("modelRunId") REFERENCES "ModelRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelPrediction" ADD CONSTRAINT "ModelPrediction_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "Item"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportBatch" ADD CONSTRAINT "ImportBatch_importedById_fkey" FOREIGN KEY ("importedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
