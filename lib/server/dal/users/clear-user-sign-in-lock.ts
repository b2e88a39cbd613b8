import "server-only";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { clearSignInLock } from "@/lib/server/sign-in";

/** Clears a staff account's sign-in throttle (lib/server/sign-in.ts), audited as user.signin.unlock. `user`: id or email. */
export async function clearUserSignInLock(options: {
  user: string;
  actorId: string | null;
}): Promise<{ id: string; email: string; cleared: number }> {
  const target = await db.user.findFirst({
    where: { OR: [{ id: options.user }, { email: options.user.trim().toLowerCase() }] },
    select: { id: true, email: true },
  });
  if (!target) throw new AppError("NOT_FOUND", `No staff account ${options.user}.`);
  const cleared = await clearSignInLock(target.email);
  await writeAudit({
    actorId: options.actorId,
    action: "user.signin.unlock",
    entityType: "user",
    entityId: target.id,
    details: { cleared },
  });
  return { id: target.id, email: target.email, cleared };
}
