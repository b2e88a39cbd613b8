import "server-only";
import type { Prisma } from "@/prisma/generated/client";
import { db } from "@/lib/server/db";

/** Appends to the audit log (who did what to which entity). Pass a transaction client to log atomically. */
export async function writeAudit(
  entry: {
    actorId: string | null;
    action: string;
    entityType: string;
    entityId: string;
    details?: Prisma.InputJsonValue;
  },
  client: Pick<typeof db, "auditLog"> = db,
): Promise<void> {
  await client.auditLog.create({ data: entry });
}
