import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { AppError } from "@/lib/server/errors";

export interface LockedPoolVersion {
  id: string;
  poolId: string;
  version: number;
  frozen: boolean;
  studyCount: number;
}

/**
 * Locks a pool version row for the rest of the transaction (SELECT … FOR UPDATE) and reports whether it may still be
 * edited in place. Freezing, editing and linking a study all take this lock, so none of them can interleave.
 */
export async function lockPoolVersion(tx: Prisma.TransactionClient, poolVersionId: string): Promise<LockedPoolVersion> {
  const rows = await tx.$queryRaw<Array<{ id: string; poolId: string; version: number; frozenAt: Date | null }>>`
    SELECT id, "poolId", version, "frozenAt" FROM "PoolVersion" WHERE id = ${poolVersionId} FOR UPDATE`;
  const row = rows[0];
  if (!row) throw new AppError("NOT_FOUND", `No pool version with id ${poolVersionId}.`);
  const studyCount = await tx.study.count({ where: { poolVersionId } });
  return { id: row.id, poolId: row.poolId, version: row.version, frozen: row.frozenAt !== null, studyCount };
}

/** A version is immutable once frozen or once any study uses it. */
export function isPoolVersionLocked(v: { frozen: boolean; studyCount: number }): boolean {
  return v.frozen || v.studyCount > 0;
}
