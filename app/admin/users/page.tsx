import type { Metadata } from "next";
import { requirePageRole } from "@/lib/server/guards";
import { listUsers } from "@/lib/server/dal/users/list-users";
import { UserCreateForm } from "@/components/admin/user-create-form";
import { UserDisableButton } from "@/components/admin/user-disable-button";
import { UserUnlockButton } from "@/components/admin/user-unlock-button";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { DataTable, TableBody, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const me = await requirePageRole("admin", "/admin/users");
  const users = await listUsers();
  return (
    <AdminPage width="medium">
      <h1 className="text-2xl font-semibold">Staff accounts</h1>
      <p className="mt-1 text-sm text-slate-700">
        Researchers create and run studies and read items and pools; admins also import and curate. On the server,{" "}
        <code>npm run user:create -- --email … --role …</code> does the same (and <code>--update</code> changes an
        existing account, <code>--disable</code> / <code>--enable</code> switch it off and on, <code>--unlock</code>{" "}
        clears its failed sign-ins). A disabled account cannot sign in and its open sessions stop working on their next
        request.
      </p>
      <section aria-labelledby="new-h" className="mt-6 rounded border border-slate-300 bg-white p-4">
        <h2 id="new-h" className="mb-2 font-semibold">
          New account
        </h2>
        <UserCreateForm />
      </section>
      <DataTable caption="Staff accounts" className="mt-6">
        <TableHead>
          <Th>Email</Th>
          <Th>Role</Th>
          <Th>State</Th>
          <Th>Created (UTC)</Th>
          <Th>Access</Th>
        </TableHead>
        <TableBody>
          {users.map((u) => (
            <tr key={u.id}>
              <Td>{u.email}</Td>
              <Td>{u.role}</Td>
              <Td>{u.disabled ? "disabled" : "active"}</Td>
              <Td>
                <UtcTime value={u.createdAt} precision="date" />
              </Td>
              <Td>
                {u.id === me.id ? (
                  <span className="text-xs text-slate-600">you</span>
                ) : (
                  <UserDisableButton userId={u.id} email={u.email} disabled={u.disabled} />
                )}
                <UserUnlockButton userId={u.id} email={u.email} />
              </Td>
            </tr>
          ))}
        </TableBody>
      </DataTable>
    </AdminPage>
  );
}
