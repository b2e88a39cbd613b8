import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError, uniqueConflictError } from "@/lib/server/errors";
import { StudyInputSchema, type StudyInput } from "@/lib/pools/study-input";
import { lockPoolVersion } from "@/lib/server/dal/pools/pool-version-lock";
import { checkStudyAgainstPool } from "./study-pool-check";

export interface SavedStudy {
  id: string;
  slug: string;
}

type FieldProblem = { path: string; message: string };

/**
 * Cross-table checks zod cannot do: the slug is free (else a 409), the pool version exists, practice/attention items exist and
 * are active, and the pool version can satisfy the settings (checkStudyAgainstPool, stage "save").
 */
async function checkReferences(
  tx: Prisma.TransactionClient,
  input: StudyInput,
  studyId: string | null,
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  // A taken slug is the same 409 the unique index gives when the insert loses a race.
  const slugOwner = await tx.study.findUnique({ where: { slug: input.slug }, select: { id: true } });
  if (slugOwner && slugOwner.id !== studyId) throw uniqueConflictError(["slug"]);
  const version = await tx.poolVersion.findUnique({
    where: { id: input.poolVersionId },
    select: { id: true, frozenAt: true },
  });
  if (!version) problems.push({ path: "poolVersionId", message: "no such pool version" });
  for (const key of ["practiceItemIds", "attentionItemIds"] as const) {
    const ids = input.config[key];
    if (!ids.length) continue;
    const found = await tx.item.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } });
    const byId = new Map(found.map((f) => [f.id, f.status]));
    const missing = ids.filter((id) => !byId.has(id));
    const inactive = ids.filter((id) => byId.has(id) && byId.get(id) !== "active");
    if (missing.length) problems.push({ path: `config.${key}`, message: `unknown item id(s): ${missing.join(", ")}` });
    if (inactive.length)
      problems.push({ path: `config.${key}`, message: `excluded or flagged item(s): ${inactive.join(", ")}` });
  }
  if (version) {
    const fit = await checkStudyAgainstPool(tx, {
      poolVersionId: version.id,
      poolFrozen: version.frozenAt !== null,
      config: input.config,
      stage: "save",
    });
    problems.push(...fit.problems);
  }
  return problems;
}

function rejectProblems(problems: FieldProblem[]): void {
  if (problems.length)
    throw new AppError(
      "UNPROCESSABLE",
      `Invalid study: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      problems,
    );
}

/** Creates a draft study. Input is validated with StudyInputSchema/StudyConfigSchema (ZodError → 422 with field paths). */
export async function createStudy(options: { input: unknown; actorId: string }): Promise<SavedStudy> {
  const input = StudyInputSchema.parse(options.input);
  return db.$transaction(async (tx) => {
    rejectProblems(await checkReferences(tx, input, null));
    // Taking the version's lock orders this link after any in-place edit of a draft version.
    await lockPoolVersion(tx, input.poolVersionId);
    const study = await tx.study.create({
      data: {
        name: input.name,
        slug: input.slug,
        poolVersionId: input.poolVersionId,
        config: input.config as Prisma.InputJsonValue,
        cohortTag: input.config.cohortTag,
        createdById: options.actorId,
      },
      select: { id: true, slug: true },
    });
    await writeAudit(
      {
        actorId: options.actorId,
        action: "study.create",
        entityType: "study",
        entityId: study.id,
        details: { slug: input.slug, poolVersionId: input.poolVersionId },
      },
      tx,
    );
    return study;
  });
}

/**
 * Replaces a study's name, slug, pool version and config. Allowed only while the study is not open and nobody has
 * joined it, so every participant's data is collected under one configuration.
 */
export async function updateStudy(options: { studyId: string; input: unknown; actorId: string }): Promise<SavedStudy> {
  const input = StudyInputSchema.parse(options.input);
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ id: string; status: string; slug: string; poolVersionId: string }>>`
      SELECT id, status::text AS status, slug, "poolVersionId" FROM "Study" WHERE id = ${options.studyId} FOR UPDATE`;
    const before = rows[0];
    if (!before) throw new AppError("NOT_FOUND", `No study with id ${options.studyId}.`);
    if (before.status === "open") throw new AppError("CONFLICT", "Close the study before editing it.");
    const participants = await tx.participant.count({ where: { studyId: before.id } });
    if (participants > 0)
      throw new AppError(
        "CONFLICT",
        `${participants} participant(s) already joined this study; its configuration can no longer change. Create a new study instead.`,
      );
    rejectProblems(await checkReferences(tx, input, before.id));
    if (input.poolVersionId !== before.poolVersionId) await lockPoolVersion(tx, input.poolVersionId);
    const study = await tx.study.update({
      where: { id: before.id },
      data: {
        name: input.name,
        slug: input.slug,
        poolVersionId: input.poolVersionId,
        config: input.config as Prisma.InputJsonValue,
        cohortTag: input.config.cohortTag,
      },
      select: { id: true, slug: true },
    });
    await writeAudit(
      {
        actorId: options.actorId,
        action: "study.update",
        entityType: "study",
        entityId: study.id,
        details: {
          slug: input.slug,
          poolVersionId: input.poolVersionId,
          previousSlug: before.slug,
          previousPoolVersionId: before.poolVersionId,
        },
      },
      tx,
    );
    return study;
  });
}
