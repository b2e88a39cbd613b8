import "server-only";
import { db } from "@/lib/server/db";
import type { StaffRole } from "@/types/staff-role";

export interface UserRowDto {
  id: string;
  email: string;
  name: string | null;
  role: StaffRole;
  disabled: boolean;
  createdAt: Date;
}

/** Staff accounts, without password hashes. */
export async function listUsers(): Promise<UserRowDto[]> {
  return db.user.findMany({
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, name: true, role: true, disabled: true, createdAt: true },
  });
}
