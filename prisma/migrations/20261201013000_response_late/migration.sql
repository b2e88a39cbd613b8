-- AlterTable
ALTER TABLE "Response" ADD COLUMN     "late" BOOLEAN NOT NULL DEFAULT false;
