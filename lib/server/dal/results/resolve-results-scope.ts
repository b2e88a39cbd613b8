import "server-only";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { SCOPE_STUDIES_SQL, type ScopeStudyRow } from "./scope-studies-sql";
import { studyHeadSelect } from "@/lib/server/dal/studies/study-select";

/** Results of one study, or of every study that uses the same (frozen, so identical) pool version. */
export type ResultsScope = "study" | "pool";

export interface ResultsScopeDto {
  scope: ResultsScope;
  study: { id: string; slug: string; name: string; status: string; cohortTag: string | null };
  poolVersion: { id: string; poolId: string; poolName: string; version: number };
  /** The studies whose responses are pooled (just the study itself for scope "study"). */
  studies: { id: string; slug: string; name: string }[];
  studyIds: string[];
}

/** The study and the set of studies whose responses a results view pools; NOT_FOUND for an unknown study. */
export async function resolveResultsScope(studyId: string, scope: ResultsScope = "study"): Promise<ResultsScopeDto> {
  const study = await db.study.findUnique({
    where: { id: studyId },
    select: studyHeadSelect,
  });
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}.`);
  const studies = await db.$queryRawUnsafe<ScopeStudyRow[]>(SCOPE_STUDIES_SQL, studyId, scope);
  return {
    scope,
    study: { id: study.id, slug: study.slug, name: study.name, status: study.status, cohortTag: study.cohortTag },
    poolVersion: {
      id: study.poolVersion.id,
      poolId: study.poolVersion.pool.id,
      poolName: study.poolVersion.pool.name,
      version: study.poolVersion.version,
    },
    studies,
    studyIds: studies.map((s) => s.id),
  };
}
