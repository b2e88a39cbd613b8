import "server-only";
import type { Prisma } from "@/prisma/generated/client";

/**
 * Select fragments shared by the study readers, so a list or a heading reads the same columns wherever it is shown
 * (studies list and results index; study page and results scope). Callers spread a fragment and add their own fields.
 */

/** A study as a row of a staff list: names, status, its pool version and how many joined. */
export const studyListSelect = {
  id: true,
  slug: true,
  name: true,
  status: true,
  poolVersion: { select: { version: true, pool: { select: { name: true } } } },
  _count: { select: { participants: true } },
} satisfies Prisma.StudySelect;

type StudyListRow = Prisma.StudyGetPayload<{ select: typeof studyListSelect }>;

/** The list fields every study list shows, from a row read with `studyListSelect`. */
export function studyListFields(s: StudyListRow) {
  return {
    id: s.id,
    slug: s.slug,
    name: s.name,
    status: s.status,
    poolName: s.poolVersion.pool.name,
    poolVersion: s.poolVersion.version,
    participants: s._count.participants,
  };
}

/** The pool version a study heading names (which pool, which version). */
export const studyPoolVersionSelect = {
  id: true,
  version: true,
  pool: { select: { id: true, name: true } },
} satisfies Prisma.PoolVersionSelect;

/** One study's heading: names, status, cohort and its pool version. */
export const studyHeadSelect = {
  id: true,
  slug: true,
  name: true,
  status: true,
  cohortTag: true,
  poolVersion: { select: studyPoolVersionSelect },
} satisfies Prisma.StudySelect;
