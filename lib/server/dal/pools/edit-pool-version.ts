import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { EditPoolVersionSchema, type PoolRecipe } from "@/lib/pools/pool-recipe";
import { isPoolVersionLocked, lockPoolVersion, type LockedPoolVersion } from "./pool-version-lock";

export interface EditPoolVersionResult {
  /** The version that now holds the edit: the same one (draft) or a new one (the edited one was frozen or in use). */
  poolVersionId: string;
  version: number;
  createdNewVersion: boolean;
  added: number;
  removed: number;
  itemCount: number;
}

/**
 * The version an edit of `v` goes to: `v` itself while it is an unused draft; for a frozen or used version, the draft
 * already made from it by an earlier edit (locked), if one is still an unused draft, so edits racing a freeze (or
 * each other) add to one new draft instead of forking sibling drafts of the same version. Takes the pool's row lock
 * first (two edits of different versions of one pool would otherwise both take max + 1 as their new number).
 */
async function draftChildOrSelf(tx: Prisma.TransactionClient, v: LockedPoolVersion): Promise<LockedPoolVersion> {
  if (!isPoolVersionLocked(v)) return v;
  await tx.$queryRaw`SELECT id FROM "Pool" WHERE id = ${v.poolId} FOR UPDATE`;
  const children = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT pv.id FROM "PoolVersion" pv
    WHERE pv."poolId" = ${v.poolId} AND pv."frozenAt" IS NULL AND pv.recipe->>'kind' = 'edit' AND (pv.recipe->>'basedOnVersion')::int = ${v.version}
      AND NOT EXISTS (SELECT 1 FROM "Study" s WHERE s."poolVersionId" = pv.id)
    ORDER BY pv.version DESC LIMIT 1`;
  if (!children[0]) return v;
  const child = await lockPoolVersion(tx, children[0].id);
  return isPoolVersionLocked(child) ? v : child;
}

/**
 * Adds and removes items. A draft version that no study uses is edited in place; a frozen or used version is never
 * touched: its items are copied into the next version number, which receives the edit (and starts as a draft), or
 * the edit goes to the unused draft an earlier edit already made from it (draftChildOrSelf).
 * Added items must exist and be active; removed items must be in the version (422 otherwise, listing the ids).
 */
export async function editPoolVersion(options: {
  poolVersionId: string;
  edit: unknown;
  actorId: string;
}): Promise<EditPoolVersionResult> {
  const edit = EditPoolVersionSchema.parse(options.edit);
  return db.$transaction(async (tx) => {
    const v = await draftChildOrSelf(tx, await lockPoolVersion(tx, options.poolVersionId));
    const current = await tx.poolItem.findMany({
      where: { poolVersionId: v.id },
      select: { itemId: true, taskId: true },
    });
    const currentIds = new Set(current.map((c) => c.itemId));

    const toAdd = [...new Set(edit.addItemIds)].filter((id) => !currentIds.has(id));
    const toRemove = new Set(edit.removeItemIds);
    const notInVersion = [...toRemove].filter((id) => !currentIds.has(id));
    const addable = toAdd.length
      ? await tx.item.findMany({ where: { id: { in: toAdd } }, select: { id: true, taskId: true, status: true } })
      : [];
    const found = new Map(addable.map((i) => [i.id, i]));
    const unknown = toAdd.filter((id) => !found.has(id));
    const inactive = addable.filter((i) => i.status !== "active").map((i) => i.id);
    const problems = [
      ...(unknown.length ? [{ path: "addItemIds", message: `unknown item id(s): ${unknown.join(", ")}` }] : []),
      ...(inactive.length
        ? [{ path: "addItemIds", message: `excluded or flagged item(s) cannot be added: ${inactive.join(", ")}` }]
        : []),
      ...(notInVersion.length
        ? [{ path: "removeItemIds", message: `not in version ${v.version}: ${notInVersion.join(", ")}` }]
        : []),
    ];
    if (problems.length) throw new AppError("UNPROCESSABLE", problems.map((p) => p.message).join("; "), problems);

    const next = [
      ...current.filter((c) => !toRemove.has(c.itemId)),
      ...addable.map((i) => ({ itemId: i.id, taskId: i.taskId })),
    ];
    if (next.length === 0)
      throw new AppError("UNPROCESSABLE", "The edit would leave the pool version empty.", [
        { path: "removeItemIds", message: "would remove every item" },
      ]);

    let targetId = v.id;
    let targetVersion = v.version;
    const createdNewVersion = isPoolVersionLocked(v);
    if (createdNewVersion) {
      const last = await tx.poolVersion.aggregate({ where: { poolId: v.poolId }, _max: { version: true } });
      targetVersion = (last._max.version ?? v.version) + 1;
      const recipe: PoolRecipe = {
        kind: "edit",
        basedOnVersion: v.version,
        added: addable.map((i) => i.id),
        removed: [...toRemove],
      };
      const created = await tx.poolVersion.create({
        data: { poolId: v.poolId, version: targetVersion, recipe: recipe as Prisma.InputJsonValue },
        select: { id: true },
      });
      targetId = created.id;
      await tx.poolItem.createMany({
        data: next.map((n) => ({ poolVersionId: targetId, itemId: n.itemId, taskId: n.taskId })),
      });
    } else {
      if (toRemove.size)
        await tx.poolItem.deleteMany({ where: { poolVersionId: v.id, itemId: { in: [...toRemove] } } });
      if (addable.length)
        await tx.poolItem.createMany({
          data: addable.map((i) => ({ poolVersionId: v.id, itemId: i.id, taskId: i.taskId })),
        });
    }
    await writeAudit(
      {
        actorId: options.actorId,
        action: createdNewVersion ? "pool.version.create" : "pool.version.edit",
        entityType: "pool",
        entityId: v.poolId,
        details: {
          basedOnVersion: v.version,
          version: targetVersion,
          added: addable.map((i) => i.id),
          removed: [...toRemove],
        },
      },
      tx,
    );
    return {
      poolVersionId: targetId,
      version: targetVersion,
      createdNewVersion,
      added: addable.length,
      removed: toRemove.size,
      itemCount: next.length,
    };
  });
}
