import "server-only";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { StudyConfigSchema, type StudyConfig } from "@/lib/study-config";
import type { Readiness } from "@/lib/pools/study-readiness";
import { checkStudyAgainstPool, countPoolItems } from "./study-pool-check";
import { studyHeadSelect, studyPoolVersionSelect } from "./study-select";

export interface StudyDetailDto {
  id: string;
  slug: string;
  name: string;
  status: "draft" | "open" | "closed";
  cohortTag: string | null;
  createdAt: Date;
  openedAt: Date | null;
  closedAt: Date | null;
  createdByEmail: string | null;
  /** The stored config, validated; `configError` explains a stored config that no longer validates. */
  config: StudyConfig | null;
  configError: string | null;
  rawConfig: unknown;
  poolVersion: { id: string; version: number; frozen: boolean; poolId: string; poolName: string; itemCount: number };
  participantCount: number;
  /** Name, slug, pool and config may change only while the study is not open and nobody has joined. */
  editable: boolean;
  readiness: Readiness | null;
}

/** One study for the staff pages; throws NOT_FOUND. */
export async function getStudy(studyId: string): Promise<StudyDetailDto> {
  const study = await db.study.findUnique({
    where: { id: studyId },
    select: {
      ...studyHeadSelect,
      createdAt: true,
      openedAt: true,
      closedAt: true,
      config: true,
      createdBy: { select: { email: true } },
      poolVersion: { select: { ...studyPoolVersionSelect, frozenAt: true, _count: { select: { items: true } } } },
      _count: { select: { participants: true } },
    },
  });
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}.`);
  const parsed = StudyConfigSchema.safeParse(study.config);
  const config = parsed.success ? parsed.data : null;
  const readiness = config
    ? await computeReadiness(study.poolVersion.id, study.poolVersion.frozenAt !== null, config)
    : null;
  return {
    id: study.id,
    slug: study.slug,
    name: study.name,
    status: study.status,
    cohortTag: study.cohortTag,
    createdAt: study.createdAt,
    openedAt: study.openedAt,
    closedAt: study.closedAt,
    createdByEmail: study.createdBy?.email ?? null,
    config,
    configError: parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    rawConfig: study.config,
    poolVersion: {
      id: study.poolVersion.id,
      version: study.poolVersion.version,
      frozen: study.poolVersion.frozenAt !== null,
      poolId: study.poolVersion.pool.id,
      poolName: study.poolVersion.pool.name,
      itemCount: study.poolVersion._count.items,
    },
    participantCount: study._count.participants,
    editable: study.status !== "open" && study._count.participants === 0,
    readiness,
  };
}

/** Active pool items that can be served in the main block, per configured task (practice/attention items left out). */
export async function countMainItemsPerTask(
  poolVersionId: string,
  config: StudyConfig,
): Promise<Record<string, number>> {
  return (await countPoolItems(db, poolVersionId, config)).main;
}

async function computeReadiness(poolVersionId: string, poolFrozen: boolean, config: StudyConfig): Promise<Readiness> {
  return checkStudyAgainstPool(db, { poolVersionId, poolFrozen, config, stage: "open" });
}
