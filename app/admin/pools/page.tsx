import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/server/guards";
import { listPools } from "@/lib/server/dal/pools/list-pools";
import { describeRecipe } from "@/lib/pools/pool-recipe";
import { StatusBadge } from "@/components/admin/status-badge";
import { AdminPage } from "@/components/admin/page-shell";

export const metadata: Metadata = { title: "Pools" };
export const dynamic = "force-dynamic";

export default async function PoolsPage() {
  const user = await requirePageRole("researcher", "/admin/pools");
  const pools = await listPools();
  return (
    <AdminPage>
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold">Pools</h1>
        {user.role === "admin" ? (
          <Link
            href="/admin/pools/new"
            className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800"
          >
            New pool
          </Link>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-700">
        A study draws its items from one frozen pool version. Versions never change once frozen or used; edits create a
        new version.
      </p>
      <ul className="mt-4 space-y-3">
        {pools.map((p) => (
          <li key={p.id} className="rounded border border-slate-300 bg-white p-4">
            <h2 className="font-semibold">
              <Link href={`/admin/pools/${p.id}`} className="text-blue-700 underline">
                {p.name}
              </Link>
            </h2>
            {p.description ? <p className="text-sm text-slate-700">{p.description}</p> : null}
            <ul className="mt-2 space-y-1 text-sm">
              {p.versions.map((v) => (
                <li key={v.id} className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">v{v.version}</span>
                  {v.frozenAt ? <StatusBadge status="frozen" /> : <StatusBadge status="draft" />}
                  <span>{v.itemCount} items</span>
                  <span className="text-slate-600">· {describeRecipe(v.recipe)}</span>
                  {v.studyCount ? <span className="text-slate-600">· used by {v.studyCount} study(ies)</span> : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
        {pools.length === 0 ? (
          <li className="text-slate-600">
            No pool yet.{user.role === "admin" ? " Build one from imported items." : " An admin builds pools."}
          </li>
        ) : null}
      </ul>
    </AdminPage>
  );
}
