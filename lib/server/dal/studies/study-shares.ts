import "server-only";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { normaliseStaffEmail } from "@/lib/staff-email";

/** No role: the owner sharing a study is often a researcher, and the answer must not list who the admins are. */
export interface StudyShareDto {
  userId: string;
  email: string;
  addedAt: Date;
}

export const StudyShareInputSchema = z.object({ email: z.string().trim().min(3).max(320) }).strict();

/** The researchers a study is shared with (besides its owner), in the order they were added. */
export async function listStudyShares(studyId: string): Promise<StudyShareDto[]> {
  const rows = await db.studyShare.findMany({
    where: { studyId },
    orderBy: { addedAt: "asc" },
    select: { addedAt: true, user: { select: { id: true, email: true } } },
  });
  return rows.map((r) => ({ userId: r.user.id, email: r.user.email, addedAt: r.addedAt }));
}

/** An unknown address and a disabled account get the same answer, so sharing does not tell them apart. */
function noActiveAccount(email: string): AppError {
  return new AppError("UNPROCESSABLE", `No active staff account ${email}.`, [
    { path: "email", message: "no active staff account with this email" },
  ]);
}

async function findAccount(email: string) {
  const user = await db.user.findUnique({
    where: { email: normaliseStaffEmail(email) },
    select: { id: true, email: true, disabled: true },
  });
  if (!user) throw noActiveAccount(email);
  return user;
}

/** Shares the study with a staff account (idempotent), audited as study.share. Callers check the actor may (requireStudyOwner). */
export async function addStudyShare(options: {
  studyId: string;
  input: unknown;
  actorId: string;
}): Promise<StudyShareDto[]> {
  const { email } = StudyShareInputSchema.parse(options.input);
  const user = await findAccount(email);
  if (user.disabled) throw noActiveAccount(email);
  const study = await db.study.findUnique({ where: { id: options.studyId }, select: { createdById: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${options.studyId}.`);
  if (study.createdById === user.id)
    throw new AppError("UNPROCESSABLE", `${user.email} owns this study.`, [
      { path: "email", message: "already the owner" },
    ]);
  await db.studyShare.upsert({
    where: { studyId_userId: { studyId: options.studyId, userId: user.id } },
    create: { studyId: options.studyId, userId: user.id, addedById: options.actorId },
    update: {},
  });
  await writeAudit({
    actorId: options.actorId,
    action: "study.share",
    entityType: "study",
    entityId: options.studyId,
    details: { userId: user.id, email: user.email },
  });
  return listStudyShares(options.studyId);
}

/** Stops sharing the study with a staff account (idempotent), audited as study.unshare. */
export async function removeStudyShare(options: {
  studyId: string;
  input: unknown;
  actorId: string;
}): Promise<StudyShareDto[]> {
  const { email } = StudyShareInputSchema.parse(options.input);
  const user = await findAccount(email);
  const { count } = await db.studyShare.deleteMany({ where: { studyId: options.studyId, userId: user.id } });
  if (count)
    await writeAudit({
      actorId: options.actorId,
      action: "study.unshare",
      entityType: "study",
      entityId: options.studyId,
      details: { userId: user.id, email: user.email },
    });
  return listStudyShares(options.studyId);
}
