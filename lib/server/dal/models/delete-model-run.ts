import "server-only";
import { writeAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";

/** Deletes an imported run and its predictions (cascade), with an audit entry; the paper's rows cannot be deleted. */
export async function deleteModelRun(options: { runId: string; actorId: string }): Promise<{ id: string }> {
  return db.$transaction(async (tx) => {
    const run = await tx.modelRun.findUnique({
      where: { id: options.runId },
      select: { id: true, name: true, asReported: true, contentHash: true },
    });
    if (!run) throw new AppError("NOT_FOUND", `No model run with id ${options.runId}.`);
    if (run.asReported) throw new AppError("CONFLICT", "The paper's as-reported rows cannot be deleted.");
    await tx.modelRun.delete({ where: { id: run.id } });
    await writeAudit(
      {
        actorId: options.actorId,
        action: "model_run.delete",
        entityType: "model_run",
        entityId: run.id,
        details: { name: run.name, contentHash: run.contentHash },
      },
      tx,
    );
    return { id: run.id };
  });
}
