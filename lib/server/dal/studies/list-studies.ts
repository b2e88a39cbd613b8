import "server-only";
import { db } from "@/lib/server/db";
import { studyAccessWhere, type StudyViewer } from "@/lib/server/study-access";

export interface StudySummaryDto {
  id: string;
  slug: string;
  name: string;
  status: "draft" | "open" | "closed";
  cohortTag: string | null;
  createdAt: Date;
  poolName: string;
  poolVersion: number;
  participants: number;
  completed: number;
}

/** The studies `viewer` may see (lib/server/study-access.ts), newest first, with participant counts. */
export async function listStudies(viewer: StudyViewer): Promise<StudySummaryDto[]> {
  const [studies, completed] = await Promise.all([
    db.study.findMany({
      where: studyAccessWhere(viewer),
      orderBy: { createdAt: "desc" },
      select: {
        id: true,
        slug: true,
        name: true,
        status: true,
        cohortTag: true,
        createdAt: true,
        poolVersion: { select: { version: true, pool: { select: { name: true } } } },
        _count: { select: { participants: true } },
      },
    }),
    db.participant.groupBy({ by: ["studyId"], where: { status: "completed" }, _count: { _all: true } }),
  ]);
  const completedBy = new Map(completed.map((c) => [c.studyId, c._count._all]));
  return studies.map((s) => ({
    id: s.id,
    slug: s.slug,
    name: s.name,
    status: s.status,
    cohortTag: s.cohortTag,
    createdAt: s.createdAt,
    poolName: s.poolVersion.pool.name,
    poolVersion: s.poolVersion.version,
    participants: s._count.participants,
    completed: completedBy.get(s.id) ?? 0,
  }));
}
