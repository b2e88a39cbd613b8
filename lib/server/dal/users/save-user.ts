import "server-only";
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { db } from "@/lib/server/db";
import { writeAudit } from "@/lib/server/audit";
import { AppError } from "@/lib/server/errors";
import { PASSWORD_HASH_ROUNDS } from "@/lib/server/seed";
import { normaliseStaffEmail, StaffEmailSchema } from "@/lib/staff-email";
import { Role } from "@/prisma/generated/enums";
import type { StaffRole } from "@/types/staff-role";

export const MIN_PASSWORD_CHARS = 10;
// bcrypt only reads the first 72 bytes; a longer password would silently match any string sharing that prefix.
export const MAX_PASSWORD_BYTES = 72;

export const PasswordSchema = z
  .string()
  .min(MIN_PASSWORD_CHARS, `password: at least ${MIN_PASSWORD_CHARS} characters`)
  .refine(
    (p) => Buffer.byteLength(p, "utf8") <= MAX_PASSWORD_BYTES,
    `password: at most ${MAX_PASSWORD_BYTES} bytes (bcrypt's limit)`,
  );

export const SaveUserSchema = z.object({
  email: StaffEmailSchema,
  role: z.enum(Role),
  name: z.string().trim().max(200).optional(),
  /** Absent: a password is generated and returned once. */
  password: PasswordSchema.optional(),
});
export type SaveUserInput = z.input<typeof SaveUserSchema>;

export interface SaveUserResult {
  id: string;
  email: string;
  role: StaffRole;
  created: boolean;
  passwordChanged: boolean;
  /** Set only when this call generated the password; it is never stored in clear. */
  generatedPassword?: string;
}

/** 16 random bytes, URL-safe: about 128 bits. */
export function generatePassword(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * Creates a staff account. With `update`, an existing account's role (and password, when one is given or
 * `resetPassword` asks for a generated one) is changed instead; without it an existing email is a CONFLICT.
 */
export async function saveUser(options: {
  input: unknown;
  update?: boolean;
  resetPassword?: boolean;
  actorId: string | null;
}): Promise<SaveUserResult> {
  // --update repairs any existing account, even one whose stored address an older rule let in: look it up first
  // and apply the address rule only to addresses that would be new.
  const raw = options.input as { email?: unknown } | null;
  const lookup = options.update && typeof raw?.email === "string" ? normaliseStaffEmail(raw.email) : undefined;
  const repairing = lookup ? await db.user.findUnique({ where: { email: lookup }, select: { id: true } }) : null;
  const input = (
    repairing ? SaveUserSchema.extend({ email: z.string().transform(normaliseStaffEmail) }) : SaveUserSchema
  ).parse(options.input);
  const existing = repairing ?? (await db.user.findUnique({ where: { email: input.email }, select: { id: true } }));
  if (existing && !options.update)
    throw new AppError("CONFLICT", `An account for ${input.email} already exists (update it with --update).`);

  const wantsPassword = !existing || input.password !== undefined || options.resetPassword === true;
  const generatedPassword = wantsPassword && input.password === undefined ? generatePassword() : undefined;
  const password = input.password ?? generatedPassword;
  const passwordHash = wantsPassword && password ? await bcrypt.hash(password, PASSWORD_HASH_ROUNDS) : undefined;

  const user = existing
    ? await db.user.update({
        where: { id: existing.id },
        data: {
          role: input.role,
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(passwordHash ? { passwordHash } : {}),
        },
        select: { id: true, email: true, role: true },
      })
    : await db.user.create({
        data: { email: input.email, role: input.role, name: input.name ?? null, passwordHash: passwordHash! },
        select: { id: true, email: true, role: true },
      });
  await writeAudit({
    actorId: options.actorId,
    action: existing ? "user.update" : "user.create",
    entityType: "user",
    entityId: user.id,
    details: { email: user.email, role: user.role, passwordChanged: Boolean(passwordHash) },
  });
  return {
    ...user,
    created: !existing,
    passwordChanged: Boolean(passwordHash),
    ...(generatedPassword ? { generatedPassword } : {}),
  };
}
