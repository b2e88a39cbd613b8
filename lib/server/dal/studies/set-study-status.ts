import "server-only";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { analyzeFlowTables } from "@/lib/server/table-statistics";
import { AppError } from "@/lib/server/errors";
import { StudyConfigSchema } from "@/lib/study-config";
import { checkStudyAgainstPool } from "./study-pool-check";

export interface StudyStatusResult {
  id: string;
  status: "open" | "closed";
  warnings: string[];
}

/**
 * Opens a draft or closed study. Refuses (422, with the reasons) unless the pool version is frozen and every
 * configured task has at least itemsPerTask active main-block items; quota shortfalls come back as warnings.
 * Creates the per-item answer counters (StudyItemCounter) for the main-block items, each with a random pick rank (the
 * column's default: the items' order is shuffled once here); existing counters are kept.
 */
export async function openStudy(options: { studyId: string; actorId: string }): Promise<StudyStatusResult> {
  const result = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      Array<{ id: string; status: string; poolVersionId: string; config: unknown; openedAt: Date | null }>
    >`
      SELECT id, status::text AS status, "poolVersionId", config, "openedAt" FROM "Study" WHERE id = ${options.studyId} FOR UPDATE`;
    const study = rows[0];
    if (!study) throw new AppError("NOT_FOUND", `No study with id ${options.studyId}.`);
    if (study.status === "open") throw new AppError("CONFLICT", "The study is already open.");
    const parsed = StudyConfigSchema.safeParse(study.config);
    if (!parsed.success)
      throw new AppError(
        "UNPROCESSABLE",
        "The stored study configuration is invalid; edit and save it first.",
        parsed.error.issues,
      );
    const config = parsed.data;
    const version = await tx.poolVersion.findUniqueOrThrow({
      where: { id: study.poolVersionId },
      select: { frozenAt: true },
    });
    const reserved = [...config.practiceItemIds, ...config.attentionItemIds];
    const mainItems = await tx.poolItem.findMany({
      where: {
        poolVersionId: study.poolVersionId,
        taskId: { in: config.tasks },
        item: { status: "active" },
        ...(reserved.length ? { itemId: { notIn: reserved } } : {}),
      },
      select: { itemId: true, taskId: true },
    });
    const readiness = await checkStudyAgainstPool(tx, {
      poolVersionId: study.poolVersionId,
      poolFrozen: version.frozenAt !== null,
      config,
      stage: "open",
    });
    if (readiness.errors.length) {
      throw new AppError("UNPROCESSABLE", `The study cannot open: ${readiness.errors.join(" ")}`, readiness.problems);
    }
    await tx.studyItemCounter.createMany({
      data: mainItems.map((m) => ({ studyId: study.id, itemId: m.itemId, taskId: m.taskId })),
      skipDuplicates: true,
    });
    const now = new Date();
    await tx.study.update({
      where: { id: study.id },
      data: { status: "open", openedAt: study.openedAt ?? now, closedAt: null },
    });
    await writeAudit(
      {
        actorId: options.actorId,
        action: "study.open",
        entityType: "study",
        entityId: study.id,
        details: { warnings: readiness.warnings, mainItems: mainItems.length },
      },
      tx,
    );
    return { id: study.id, status: "open" as const, warnings: readiness.warnings };
  });
  // The study's counters are new rows: their statistics are refreshed once committed (lib/server/table-statistics.ts).
  await analyzeFlowTables();
  return result;
}

/** Closes an open study: new participants are turned away (the participant flow checks the status). */
export async function closeStudy(options: { studyId: string; actorId: string }): Promise<StudyStatusResult> {
  return db.$transaction(async (tx) => {
    const study = await tx.study.findUnique({ where: { id: options.studyId }, select: { id: true, status: true } });
    if (!study) throw new AppError("NOT_FOUND", `No study with id ${options.studyId}.`);
    if (study.status !== "open") throw new AppError("CONFLICT", `The study is ${study.status}, not open.`);
    await tx.study.update({ where: { id: study.id }, data: { status: "closed", closedAt: new Date() } });
    await writeAudit({ actorId: options.actorId, action: "study.close", entityType: "study", entityId: study.id }, tx);
    return { id: study.id, status: "closed", warnings: [] };
  });
}
