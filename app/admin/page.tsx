import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/server/guards";
import { listItemFacets } from "@/lib/server/dal/items/list-item-facets";
import { listPools } from "@/lib/server/dal/pools/list-pools";
import { listStudies } from "@/lib/server/dal/studies/list-studies";
import { listTasks } from "@/lib/tasks/registry";
import { StatusBadge } from "@/components/admin/status-badge";
import { AdminPage } from "@/components/admin/page-shell";
import { DataTable } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

export default async function AdminHomePage() {
  const user = await requirePageRole("researcher", "/admin");
  const [facets, pools, studies] = await Promise.all([listItemFacets(), listPools(), listStudies(user)]);
  const open = studies.filter((s) => s.status === "open");
  const activeItems = Object.values(facets.activeByTask).reduce((a, b) => a + b, 0);
  return (
    <AdminPage>
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      <p className="mt-1 text-slate-700">
        Signed in as {user.email} ({user.role}).{" "}
        {user.role === "admin"
          ? "You can import and curate items and pools, and run studies."
          : "You can create and run studies; items and pools are read-only for you."}
      </p>

      <section aria-labelledby="open-studies" className="mt-8">
        <div className="flex items-baseline justify-between">
          <h2 id="open-studies" className="text-lg font-semibold">
            Open studies
          </h2>
          <Link href="/admin/studies/new" className="text-sm font-medium text-blue-700 underline">
            New study
          </Link>
        </div>
        {open.length === 0 ? (
          <p className="mt-2 text-slate-600">No study is open.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-300 bg-white">
            {open.map((s) => (
              <li key={s.id} className="flex items-center justify-between px-4 py-2">
                <Link href={`/admin/studies/${s.id}`} className="font-medium text-blue-700 underline">
                  {s.name}
                </Link>
                <span className="text-sm text-slate-700">
                  {s.participants} started · {s.completed} completed ·{" "}
                  <Link href={`/admin/studies/${s.id}/monitor`} className="underline">
                    monitor
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="mt-8 grid gap-6 md:grid-cols-3">
        <section aria-labelledby="items-h" className="rounded border border-slate-300 bg-white p-4">
          <h2 id="items-h" className="font-semibold">
            <Link href="/admin/items" className="underline">
              Items
            </Link>
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {facets.total} items, {activeItems} active.
          </p>
          <DataTable variant="plain" className="mt-2 w-full">
            <caption className="sr-only">Active items per task</caption>
            <tbody>
              {listTasks().map((t) => (
                <tr key={t.id}>
                  <th scope="row" className="py-0.5 text-left font-normal">
                    {t.code} {t.label}
                  </th>
                  <td className="text-right tabular-nums">{facets.activeByTask[t.id] ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </section>
        <section aria-labelledby="pools-h" className="rounded border border-slate-300 bg-white p-4">
          <h2 id="pools-h" className="font-semibold">
            <Link href="/admin/pools" className="underline">
              Pools
            </Link>
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {pools.slice(0, 8).map((p) => (
              <li key={p.id}>
                <Link href={`/admin/pools/${p.id}`} className="text-blue-700 underline">
                  {p.name}
                </Link>{" "}
                <span className="text-slate-600">
                  v{p.versions[0]?.version ?? "–"} · {p.versions[0]?.itemCount ?? 0} items{" "}
                  {p.versions[0]?.frozenAt ? "· frozen" : ""}
                </span>
              </li>
            ))}
            {pools.length === 0 ? <li className="text-slate-600">No pool yet.</li> : null}
          </ul>
        </section>
        <section aria-labelledby="studies-h" className="rounded border border-slate-300 bg-white p-4">
          <h2 id="studies-h" className="font-semibold">
            <Link href="/admin/studies" className="underline">
              Studies
            </Link>
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {studies.slice(0, 8).map((s) => (
              <li key={s.id} className="flex items-center gap-2">
                <Link href={`/admin/studies/${s.id}`} className="text-blue-700 underline">
                  {s.name}
                </Link>
                <StatusBadge status={s.status} />
              </li>
            ))}
            {studies.length === 0 ? <li className="text-slate-600">No study yet.</li> : null}
          </ul>
        </section>
      </div>
    </AdminPage>
  );
}
