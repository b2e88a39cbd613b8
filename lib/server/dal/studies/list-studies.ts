import "server-only";
import { db } from "@/lib/server/db";
import { studyAccessWhere, type StudyViewer } from "@/lib/server/study-access";
import { studyListFields, studyListSelect } from "./study-select";

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
      select: { ...studyListSelect, cohortTag: true, createdAt: true },
    }),
    db.participant.groupBy({ by: ["studyId"], where: { status: "completed" }, _count: { _all: true } }),
  ]);
  const completedBy = new Map(completed.map((c) => [c.studyId, c._count._all]));
  return studies.map((s) => ({
    ...studyListFields(s),
    cohortTag: s.cohortTag,
    createdAt: s.createdAt,
    completed: completedBy.get(s.id) ?? 0,
  }));
}
