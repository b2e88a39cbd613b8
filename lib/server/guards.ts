import "server-only";
import { redirect } from "next/navigation";
import { getStaffUser, type StaffRole, type StaffUser } from "@/lib/server/auth";

/** For pages: the signed-in user with the role, or a redirect to sign-in (anonymous) / a 403 page. */
export async function requirePageRole(role: StaffRole, returnTo: string): Promise<StaffUser> {
  const user = await getStaffUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (role === "admin" && user.role !== "admin") redirect("/forbidden");
  return user;
}
