"use server";

import { revalidatePath } from "next/cache";
import { z, ZodError } from "zod";
import { requireRole } from "@/lib/server/auth";
import { setItemStatus } from "@/lib/server/dal/items/set-item-status";
import { AppError } from "@/lib/server/errors";
import type { FlagItemState } from "@/components/results/flag-item-form";

const FlagFormSchema = z.object({
  itemId: z.string().min(1).max(64),
  studyId: z.string().min(1).max(64),
  reason: z.string(),
});

/** Flags an item humans mostly miss (possible wrong gold); admin only, reason required, audited by the items DAL. */
export async function flagItemAction(_prev: FlagItemState, form: FormData): Promise<FlagItemState> {
  try {
    const user = await requireRole("admin");
    const input = FlagFormSchema.parse(Object.fromEntries(form));
    await setItemStatus({
      itemId: input.itemId,
      change: { status: "flagged", reason: input.reason },
      actorId: user.id,
    });
    revalidatePath(`/admin/results/${input.studyId}`);
    return { ok: true, message: "Flagged." };
  } catch (err) {
    if (err instanceof ZodError) return { ok: false, message: err.issues[0]?.message ?? "Invalid input." };
    if (err instanceof AppError) return { ok: false, message: err.message };
    throw err;
  }
}
