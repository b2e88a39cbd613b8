import { AdminNav } from "@/components/admin/admin-nav";
import { getStaffUser } from "@/lib/server/auth";

export const dynamic = "force-dynamic";

/**
 * Staff chrome (navigation, sign-out). It only decides what to show: layouts do not guard their pages in the app
 * router, so every page below calls requirePageRole itself.
 */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await getStaffUser();
  return (
    <>
      {user ? <AdminNav user={user} /> : null}
      {children}
    </>
  );
}
