import type { Role } from "@/prisma/generated/enums";

/** A staff account's role: the database enum `Role` (prisma/schema.prisma), so a new role reaches every use. */
export type StaffRole = Role;
