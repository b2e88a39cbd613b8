import "server-only";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";

export const SetUserDisabledSchema = z.object({ disabled: z.boolean() }).strict();

export interface SetUserDisabledResult {
  id: string;
  email: string;
  disabled: boolean;
  changed: boolean;
}

/**
 * Disables (or re-enables) a staff account, audited as user.disable / user.enable. A disabled account cannot sign
 * in, and its existing sessions stop working on their next request: getStaffUser (lib/server/auth.ts) re-reads the
 * account on every request. An admin cannot disable himself, and the last enabled admin cannot be disabled.
 * `user` is an account id or an email.
 */
export async function setUserDisabled(options: {
  user: string;
  input: unknown;
  actorId: string | null;
}): Promise<SetUserDisabledResult> {
  const { disabled } = SetUserDisabledSchema.parse(options.input);
  return db.$transaction(async (tx) => {
    // Serialises enable/disable so two admins disabling each other cannot leave no admin.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('user.disabled'))`;
    const target = await tx.user.findFirst({
      where: { OR: [{ id: options.user }, { email: options.user.trim().toLowerCase() }] },
      select: { id: true, email: true, role: true, disabled: true },
    });
    if (!target) throw new AppError("NOT_FOUND", `No staff account ${options.user}.`);
    if (disabled && target.id === options.actorId)
      throw new AppError("CONFLICT", "You cannot disable your own account.");
    if (disabled && target.role === "admin" && !target.disabled) {
      const admins = await tx.user.count({ where: { role: "admin", disabled: false } });
      if (admins <= 1)
        throw new AppError("CONFLICT", "This is the last enabled admin account; create or enable another admin first.");
    }
    const changed = target.disabled !== disabled;
    if (changed) {
      await tx.user.update({ where: { id: target.id }, data: { disabled } });
      await writeAudit(
        {
          actorId: options.actorId,
          action: disabled ? "user.disable" : "user.enable",
          entityType: "user",
          entityId: target.id,
          details: { email: target.email },
        },
        tx,
      );
    }
    return { id: target.id, email: target.email, disabled, changed };
  });
}
