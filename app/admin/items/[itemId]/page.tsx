import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/lib/server/guards";
import { AppError } from "@/lib/server/errors";
import { getItemDetail } from "@/lib/server/dal/items/get-item-detail";
import { findTask } from "@/lib/tasks/registry";
import { ItemPreview } from "@/components/admin/item-preview";
import { ItemStatusForm } from "@/components/admin/item-status-form";
import { StatusBadge } from "@/components/admin/status-badge";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";
import { DataTable } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Item" };
export const dynamic = "force-dynamic";

export default async function ItemPage({ params }: { params: Promise<{ itemId: string }> }) {
  const { itemId } = await params;
  const user = await requirePageRole("researcher", `/admin/items/${itemId}`);
  const isAdmin = user.role === "admin";
  const item = await getItemDetail(itemId, { includeGold: isAdmin }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const task = findTask(item.taskId);
  const rendered = task?.renderStoredQuestion(item.payload);
  const templateMismatch = rendered?.ok && rendered.text !== item.question;

  return (
    <AdminPage>
      <BackLink href="/admin/items">Items</BackLink>
      <h1 className="mt-2 flex items-center gap-3 text-2xl font-semibold">
        {task ? `${task.code} ${task.label}` : item.taskId} item <StatusBadge status={item.status} />
      </h1>
      <p className="mt-1 font-mono text-xs text-slate-600">
        id {item.id} · external {item.externalId ?? "–"} · {item.source} · split {item.split} · task v{item.taskVersion}
        {item.pdbId ? ` · PDB ${item.pdbId}` : ""}
      </p>
      {item.statusReason ? <p className="mt-1 text-sm text-amber-900">Reason: {item.statusReason}</p> : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="preview-h" className="rounded border border-slate-300 bg-white p-4 lg:col-span-2">
          <h2 id="preview-h" className="mb-3 font-semibold">
            Participant view (static condition)
          </h2>
          <ItemPreview
            taskId={item.taskId}
            question={item.question}
            images={item.images.map(({ id, position, caption }) => ({ id, position, caption }))}
            payload={item.payload}
          />
          {rendered && !rendered.ok ? (
            <p className="mt-3 text-sm text-red-700">Stored fields do not validate: {rendered.error}</p>
          ) : null}
          {templateMismatch ? (
            <p className="mt-3 text-sm text-amber-800">
              The stored question differs from the task template filled with these fields (imported text is shown).
            </p>
          ) : null}
        </section>

        <div className="space-y-6">
          <section aria-labelledby="gold-h" className="rounded border border-slate-300 bg-white p-4">
            <h2 id="gold-h" className="font-semibold">
              Gold answer
            </h2>
            {!isAdmin ? (
              <p className="mt-1 text-sm text-slate-600">Shown to admins only.</p>
            ) : item.gold ? (
              <>
                <p className="mt-1 font-mono">{item.gold.canonical}</p>
                <details className="mt-2 text-sm">
                  <summary className="cursor-pointer">
                    Gold JSON{item.gold.distractors ? " and distractors" : ""}
                  </summary>
                  <pre className="mt-1 overflow-x-auto rounded bg-slate-100 p-2 text-xs">
                    {JSON.stringify({ gold: item.gold.gold, distractors: item.gold.distractors ?? undefined }, null, 2)}
                  </pre>
                </details>
              </>
            ) : (
              <p className="mt-1 text-sm text-red-700">This item has no answer key; it cannot be scored.</p>
            )}
          </section>

          {isAdmin ? (
            <section aria-labelledby="status-h" className="rounded border border-slate-300 bg-white p-4">
              <h2 id="status-h" className="mb-2 font-semibold">
                Curation
              </h2>
              <ItemStatusForm itemId={item.id} current={item.status} />
            </section>
          ) : null}

          <section aria-labelledby="pools-h" className="rounded border border-slate-300 bg-white p-4 text-sm">
            <h2 id="pools-h" className="font-semibold">
              In pools
            </h2>
            <ul className="mt-1 space-y-0.5">
              {item.pools.map((p) => (
                <li key={`${p.poolId}-${p.version}`}>
                  <Link href={`/admin/pools/${p.poolId}`} className="text-blue-700 underline">
                    {p.poolName}
                  </Link>{" "}
                  v{p.version} {p.frozen ? "(frozen)" : ""}
                </li>
              ))}
              {item.pools.length === 0 ? <li className="text-slate-600">none</li> : null}
            </ul>
          </section>

          <section aria-labelledby="prov-h" className="rounded border border-slate-300 bg-white p-4 text-sm">
            <h2 id="prov-h" className="font-semibold">
              Provenance
            </h2>
            <p className="mt-1">
              Generator {item.generatorVersion ?? "–"} · seed {item.seed ?? "–"} · tags {item.tags.join(", ") || "–"}
            </p>
            {item.provenance ? (
              <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-100 p-2 text-xs">
                {JSON.stringify(item.provenance, null, 2)}
              </pre>
            ) : null}
          </section>
        </div>
      </div>

      <section aria-labelledby="audit-h" className="mt-6 rounded border border-slate-300 bg-white p-4">
        <h2 id="audit-h" className="font-semibold">
          Audit log
        </h2>
        {item.audit.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">No edits yet.</p>
        ) : (
          <DataTable variant="plain" className="mt-2 w-full">
            <thead className="text-left">
              <tr>
                <th scope="col" className="py-1">
                  When
                </th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {item.audit.map((a) => {
                const d = (a.details ?? {}) as { from?: string; to?: string; reason?: string };
                return (
                  <tr key={a.id}>
                    <td className="py-1 pr-3 whitespace-nowrap">
                      <UtcTime value={a.at} precision="second" />
                    </td>
                    <td className="pr-3">{a.actorEmail ?? "system"}</td>
                    <td className="pr-3">
                      {a.action}
                      {d.from && d.to ? ` (${d.from} → ${d.to})` : ""}
                    </td>
                    <td>{d.reason ?? ""}</td>
                  </tr>
                );
              })}
            </tbody>
          </DataTable>
        )}
      </section>
    </AdminPage>
  );
}
