import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { STAFF_EMAIL_RULE, StaffEmailSchema } from "@/lib/staff-email";

export const PASSWORD_HASH_ROUNDS = 12;

export interface EnsureAdminResult {
  email: string;
  created: boolean;
  /** Only set when the password was generated here: it is printed once and never stored in clear. */
  generatedPassword?: string;
}

/** Creates the first admin account unless any admin exists. Password from ADMIN_PASSWORD, or generated. */
export async function ensureAdmin(options: { email: string; password?: string }): Promise<EnsureAdminResult> {
  const email = StaffEmailSchema.safeParse(options.email);
  if (!email.success) throw new AppError("BAD_REQUEST", `ADMIN_EMAIL "${options.email}" is not ${STAFF_EMAIL_RULE}.`);
  const existing = await db.user.findFirst({ where: { role: "admin" }, select: { email: true } });
  if (existing) return { email: existing.email, created: false };
  const generatedPassword = options.password ? undefined : randomBytes(12).toString("base64url");
  const password = options.password ?? generatedPassword!;
  await db.user.create({
    data: {
      email: email.data,
      role: "admin",
      name: "Admin",
      passwordHash: await bcrypt.hash(password, PASSWORD_HASH_ROUNDS),
    },
  });
  return { email: email.data, created: true, generatedPassword };
}
