import type { Metadata } from "next";
import { requirePageRole } from "@/lib/server/guards";
import { listUsers } from "@/lib/server/dal/users/list-users";
import { UserCreateForm } from "@/components/admin/user-create-form";
import { UserDisableButton } from "@/components/admin/user-disable-button";
import { UserUnlockButton } from "@/components/admin/user-unlock-button";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const me = await requirePageRole("admin", "/admin/users");
  const users = await listUsers();
  return (
    <main className="mx-auto max-w-5xl px-6 py-8">
      <h1 className="text-2xl font-semibold">Staff accounts</h1>
      <p className="mt-1 text-sm text-slate-700">
        Researchers create and run studies and read items and pools; admins also import and curate. On the server, <code>npm run user:create -- --email … --role …</code> does the same (and <code>--update</code> changes an existing account, <code>--disable</code> / <code>--enable</code> switch it off and on, <code>--unlock</code> clears its failed sign-ins). A disabled account cannot sign in and its open sessions stop working on their next request.
      </p>
      <section aria-labelledby="new-h" className="mt-6 rounded border border-slate-300 bg-white p-4">
        <h2 id="new-h" className="mb-2 font-semibold">
          New account
        </h2>
        <UserCreateForm />
      </section>
      <table className="mt-6 w-full rounded border border-slate-300 bg-white text-sm">
        <caption className="sr-only">Staff accounts</caption>
        <thead className="bg-slate-100 text-left">
          <tr>
            <th scope="col" className="px-3 py-2">Email</th>
            <th scope="col" className="px-3 py-2">Role</th>
            <th scope="col" className="px-3 py-2">State</th>
            <th scope="col" className="px-3 py-2">Created (UTC)</th>
            <th scope="col" className="px-3 py-2">Access</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {users.map((u) => (
            <tr key={u.id}>
              <td className="px-3 py-2">{u.email}</td>
              <td className="px-3 py-2">{u.role}</td>
              <td className="px-3 py-2">{u.disabled ? "disabled" : "active"}</td>
              <td className="px-3 py-2"><UtcTime value={u.createdAt} precision="date" /></td>
              <td className="px-3 py-2">{u.id === me.id ? <span className="text-xs text-slate-600">you</span> : <UserDisableButton userId={u.id} email={u.email} disabled={u.disabled} />}
                <UserUnlockButton userId={u.id} email={u.email} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
