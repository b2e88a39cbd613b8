import "server-only";
import { notFound } from "next/navigation";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import type { StaffUser } from "@/lib/server/auth";
import { SCOPE_STUDIES_SQL, type ScopeStudyRow } from "@/lib/server/dal/results/scope-studies-sql";

/**
 * Who may see and act on a study: its creator, the researchers it is shared with (StudyShare), and every admin. This
 * is the one place the rule lives; every route and page that takes a study id calls requireStudyAccess (or the page
 * form) before reading or changing anything, and study lists filter with studyAccessWhere. A study someone may not
 * see answers 404 like an unknown id, so ids of other researchers' studies cannot be probed.
 * The CLIs in scripts/ are operator tools with direct database access and do not go through it.
 */
export type StudyViewer = Pick<StaffUser, "id" | "role">;

/** The Prisma filter of the studies `viewer` may see (nothing for an admin). */
export function studyAccessWhere(viewer: StudyViewer): Prisma.StudyWhereInput {
  if (viewer.role === "admin") return {};
  return { OR: [{ createdById: viewer.id }, { shares: { some: { userId: viewer.id } } }] };
}

/** Whether `viewer` may see and act on the study (false for an unknown id). */
export async function canAccessStudy(viewer: StudyViewer, studyId: string): Promise<boolean> {
  const found = await db.study.findFirst({
    where: { AND: [{ id: studyId }, studyAccessWhere(viewer)] },
    select: { id: true },
  });
  return found !== null;
}

/** Throws NOT_FOUND (404) unless `viewer` may see the study. */
export async function requireStudyAccess(viewer: StudyViewer, studyId: string): Promise<void> {
  if (!(await canAccessStudy(viewer, studyId))) throw new AppError("NOT_FOUND", `No study with id ${studyId}.`);
}

/**
 * requireStudyAccess for results and exports: scope "pool" pools every study on the study's pool version, so a
 * researcher needs access to each of them (403 naming how many are not shared, rather than silently pooling fewer).
 */
export async function requireResultsAccess(
  viewer: StudyViewer,
  studyId: string,
  scope: "study" | "pool",
): Promise<void> {
  await requireStudyAccess(viewer, studyId);
  if (scope !== "pool" || viewer.role === "admin") return;
  const pooled = await db.$queryRawUnsafe<ScopeStudyRow[]>(SCOPE_STUDIES_SQL, studyId, scope);
  const visible = await db.study.count({
    where: { AND: [{ id: { in: pooled.map((s) => s.id) } }, studyAccessWhere(viewer)] },
  });
  const hidden = pooled.length - visible;
  if (hidden > 0) {
    throw new AppError(
      "FORBIDDEN",
      `The pool scope includes ${hidden} stud${hidden === 1 ? "y" : "ies"} on this pool version that ${hidden === 1 ? "is" : "are"} not shared with you; ask the owners to share them, or use the study scope.`,
    );
  }
}

/** For pages: a 404 page unless `viewer` may see the study. */
export async function requireStudyPage(viewer: StudyViewer, studyId: string): Promise<void> {
  if (!(await canAccessStudy(viewer, studyId))) notFound();
}

/** Owners and admins manage a study's share list; researchers it is shared with may use the study but not re-share it. */
export async function requireStudyOwner(viewer: StudyViewer, studyId: string): Promise<void> {
  await requireStudyAccess(viewer, studyId);
  if (viewer.role === "admin") return;
  const study = await db.study.findUnique({ where: { id: studyId }, select: { createdById: true } });
  if (study?.createdById !== viewer.id)
    throw new AppError("FORBIDDEN", "Only the study's owner or an admin can change who it is shared with.");
}
