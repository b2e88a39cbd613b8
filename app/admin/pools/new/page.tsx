import type { Metadata } from "next";
import { requirePageRole } from "@/lib/server/guards";
import { listItemFacets } from "@/lib/server/dal/items/list-item-facets";
import { listTasks } from "@/lib/tasks/registry";
import { ITEM_SOURCES } from "@/lib/pools/item-filter";
import { PoolCreateForm } from "@/components/admin/pool-create-form";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";

export const metadata: Metadata = { title: "New pool" };
export const dynamic = "force-dynamic";

export default async function NewPoolPage() {
  await requirePageRole("admin", "/admin/pools/new");
  const facets = await listItemFacets();
  const tasks = listTasks().map((t) => ({
    id: t.id,
    label: `${t.code} ${t.label}`,
    active: facets.activeByTask[t.id] ?? 0,
  }));
  return (
    <AdminPage width="narrow">
      <BackLink href="/admin/pools">Pools</BackLink>
      <h1 className="mt-2 text-2xl font-semibold">New pool</h1>
      <p className="mt-1 text-sm text-slate-700">
        The pool starts as draft version 1. Check it, then freeze it so a study can use it.
      </p>
      <div className="mt-6 rounded border border-slate-300 bg-white p-5">
        <PoolCreateForm tasks={tasks} splits={facets.splits} tags={facets.tags} sources={ITEM_SOURCES} />
      </div>
    </AdminPage>
  );
}
