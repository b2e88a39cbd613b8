import "server-only";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { ItemStatusChangeSchema } from "@/lib/pools/item-filter";

export interface SetItemStatusResult {
  id: string;
  from: string;
  status: string;
  statusReason: string;
}

/**
 * Excludes, flags or re-activates an item, with a required reason, and records the change in the audit log in the
 * same transaction. Throws ZodError (422) on a missing reason, NOT_FOUND for an unknown item.
 */
export async function setItemStatus(options: {
  itemId: string;
  change: unknown;
  actorId: string;
}): Promise<SetItemStatusResult> {
  const change = ItemStatusChangeSchema.parse(options.change);
  return db.$transaction(async (tx) => {
    const before = await tx.item.findUnique({
      where: { id: options.itemId },
      select: { status: true, statusReason: true },
    });
    if (!before) throw new AppError("NOT_FOUND", `No item with id ${options.itemId}.`);
    await tx.item.update({
      where: { id: options.itemId },
      // An active item keeps no reason on the row (the audit log has the history); others show it in lists.
      data: { status: change.status, statusReason: change.status === "active" ? null : change.reason },
    });
    await writeAudit(
      {
        actorId: options.actorId,
        action: `item.${change.status === "active" ? "activate" : change.status === "excluded" ? "exclude" : "flag"}`,
        entityType: "item",
        entityId: options.itemId,
        details: { from: before.status, to: change.status, reason: change.reason, previousReason: before.statusReason },
      },
      tx,
    );
    return { id: options.itemId, from: before.status, status: change.status, statusReason: change.reason };
  });
}
