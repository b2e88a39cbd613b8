import "server-only";
import { db } from "@/lib/server/db";
import { studyAccessWhere, type StudyViewer } from "@/lib/server/study-access";
import { studyListFields, studyListSelect } from "@/lib/server/dal/studies/study-select";

export interface ResultStudyDto {
  id: string;
  slug: string;
  name: string;
  status: string;
  poolName: string;
  poolVersion: number;
  poolVersionId: string;
  participants: number;
  mainResponses: number;
  lastResponseAt: Date | null;
}

/** The studies `viewer` may see with their response counts, newest first, for the results index. */
export async function listResultStudies(viewer: StudyViewer): Promise<ResultStudyDto[]> {
  const [studies, responseCounts] = await Promise.all([
    db.study.findMany({
      where: studyAccessWhere(viewer),
      orderBy: { createdAt: "desc" },
      select: { ...studyListSelect, poolVersionId: true },
    }),
    db.response.groupBy({
      by: ["studyId"],
      where: { phase: "main" },
      _count: { _all: true },
      _max: { submittedAt: true },
    }),
  ]);
  const byStudy = new Map(responseCounts.map((r) => [r.studyId, r]));
  return studies.map((s) => ({
    ...studyListFields(s),
    poolVersionId: s.poolVersionId,
    mainResponses: byStudy.get(s.id)?._count._all ?? 0,
    lastResponseAt: byStudy.get(s.id)?._max.submittedAt ?? null,
  }));
}
