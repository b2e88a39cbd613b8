import "server-only";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { lockPoolVersion } from "./pool-version-lock";

/** Freezes a pool version: from now on its items never change (edits create a new version). Idempotent. */
export async function freezePoolVersion(options: {
  poolVersionId: string;
  actorId: string;
}): Promise<{ id: string; frozenAt: Date; alreadyFrozen: boolean }> {
  return db.$transaction(async (tx) => {
    const v = await lockPoolVersion(tx, options.poolVersionId);
    if (v.frozen) {
      const row = await tx.poolVersion.findUniqueOrThrow({ where: { id: v.id }, select: { frozenAt: true } });
      return { id: v.id, frozenAt: row.frozenAt!, alreadyFrozen: true };
    }
    const itemCount = await tx.poolItem.count({ where: { poolVersionId: v.id } });
    if (itemCount === 0) throw new AppError("UNPROCESSABLE", "An empty pool version cannot be frozen.");
    const updated = await tx.poolVersion.update({
      where: { id: v.id },
      data: { frozenAt: new Date() },
      select: { frozenAt: true },
    });
    await writeAudit(
      {
        actorId: options.actorId,
        action: "pool.freeze",
        entityType: "pool",
        entityId: v.poolId,
        details: { version: v.version, poolVersionId: v.id, itemCount },
      },
      tx,
    );
    return { id: v.id, frozenAt: updated.frozenAt!, alreadyFrozen: false };
  });
}
