-- AlterTable
ALTER TABLE "Assignment" ADD COLUMN     "questionShownAt" TIMESTAMP(3);
