import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/lib/server/guards";
import { AppError } from "@/lib/server/errors";
import { getPool } from "@/lib/server/dal/pools/get-pool";
import { listPoolVersionItems } from "@/lib/server/dal/pools/list-pool-version-items";
import { describeRecipe } from "@/lib/pools/pool-recipe";
import { TaskIdSchema } from "@/lib/tasks/types";
import { StatusBadge } from "@/components/admin/status-badge";
import { FreezeButton, PoolVersionEditForm } from "@/components/admin/pool-version-actions";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";
import { DataTable, TableBody, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Pool" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function PoolPage({
  params,
  searchParams,
}: {
  params: Promise<{ poolId: string }>;
  searchParams: SearchParams;
}) {
  const { poolId } = await params;
  const user = await requirePageRole("researcher", `/admin/pools/${poolId}`);
  const isAdmin = user.role === "admin";
  const pool = await getPool(poolId, user).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const sp = await searchParams;
  const wanted = Number(Array.isArray(sp.version) ? sp.version[0] : sp.version);
  const selected = pool.versions.find((v) => v.version === wanted) ?? pool.versions[0];
  const taskParam = TaskIdSchema.safeParse(Array.isArray(sp.task) ? sp.task[0] : sp.task);
  const pageParam = Math.max(1, Number(Array.isArray(sp.page) ? sp.page[0] : sp.page) || 1);
  const items = selected
    ? await listPoolVersionItems({
        poolVersionId: selected.id,
        taskId: taskParam.success ? taskParam.data : undefined,
        page: pageParam,
      })
    : null;
  const here = (q: Record<string, string | number | undefined>) => {
    const s = new URLSearchParams(
      Object.entries(q)
        .filter(([, v]) => v !== undefined && v !== "")
        .map(([k, v]) => [k, String(v)]),
    );
    return `/admin/pools/${pool.id}${s.size ? `?${s}` : ""}`;
  };

  return (
    <AdminPage>
      <BackLink href="/admin/pools">Pools</BackLink>
      <h1 className="mt-2 text-2xl font-semibold">{pool.name}</h1>
      {pool.description ? <p className="text-slate-700">{pool.description}</p> : null}
      <p className="text-xs text-slate-600">
        Created <UtcTime value={pool.createdAt} precision="date" /> (UTC) by {pool.createdByEmail ?? "unknown"}
      </p>

      <section aria-labelledby="versions-h" className="mt-6">
        <h2 id="versions-h" className="text-lg font-semibold">
          Versions
        </h2>
        <div className="mt-2 space-y-3">
          {pool.versions.map((v) => (
            <article
              key={v.id}
              aria-label={`Version ${v.version}`}
              className={`rounded border bg-white p-4 ${v.id === selected?.id ? "border-blue-700" : "border-slate-300"}`}
            >
              <div className="flex flex-wrap items-center gap-3">
                <h3 className="font-semibold">
                  <Link href={here({ version: v.version })} className="underline">
                    Version {v.version}
                  </Link>
                </h3>
                {v.frozenAt ? <StatusBadge status="frozen" /> : <StatusBadge status="draft" />}
                <span className="text-sm">{v.itemCount} items</span>
                <span className="text-sm text-slate-600">{describeRecipe(v.recipe)}</span>
                {isAdmin && !v.frozenAt ? <FreezeButton versionId={v.id} version={v.version} /> : null}
              </div>
              <DataTable variant="plain" className="mt-2">
                <caption className="sr-only">Items per task in version {v.version}</caption>
                <thead>
                  <tr className="text-left">
                    <th scope="col" className="pr-4">
                      Task
                    </th>
                    <th scope="col" className="pr-4">
                      Active
                    </th>
                    <th scope="col">Excluded/flagged since</th>
                  </tr>
                </thead>
                <tbody>
                  {v.perTask.map((t) => (
                    <tr key={t.taskId}>
                      <td className="pr-4">{taskDisplayName(t.taskId)}</td>
                      <td className="pr-4 tabular-nums">{t.active}</td>
                      <td className={`tabular-nums ${t.inactive ? "text-amber-800" : ""}`}>{t.inactive}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              {v.studies.length ? (
                <p className="mt-2 text-sm">
                  Used by:{" "}
                  {v.studies.map((s, i) => (
                    <span key={s.id}>
                      {i ? ", " : ""}
                      <Link href={`/admin/studies/${s.id}`} className="text-blue-700 underline">
                        {s.name}
                      </Link>{" "}
                      ({s.status})
                    </span>
                  ))}
                </p>
              ) : null}
            </article>
          ))}
        </div>
      </section>

      {selected && isAdmin ? (
        <section aria-labelledby="edit-h" className="mt-6 rounded border border-slate-300 bg-white p-4">
          <h2 id="edit-h" className="mb-2 text-lg font-semibold">
            Edit version {selected.version}
          </h2>
          <PoolVersionEditForm versionId={selected.id} version={selected.version} locked={selected.locked} />
        </section>
      ) : null}

      {selected && items ? (
        <section aria-labelledby="items-h" className="mt-6">
          <h2 id="items-h" className="text-lg font-semibold">
            Items of version {selected.version} {taskParam.success ? `· ${taskParam.data}` : ""}
          </h2>
          <nav aria-label="Filter by task" className="mt-1 flex flex-wrap gap-2 text-sm">
            <Link href={here({ version: selected.version })} className="underline">
              all
            </Link>
            {selected.perTask.map((t) => (
              <Link key={t.taskId} href={here({ version: selected.version, task: t.taskId })} className="underline">
                {taskDisplayName(t.taskId)}
              </Link>
            ))}
          </nav>
          <DataTable className="mt-2">
            <TableHead>
              <Th size="sm">Task</Th>
              <Th size="sm">Item</Th>
              <Th size="sm">Status</Th>
            </TableHead>
            <TableBody>
              {items.items.map((i) => (
                <tr key={i.id}>
                  <Td size="sm">{taskDisplayName(i.taskId)}</Td>
                  <Td size="sm">
                    <Link href={`/admin/items/${i.id}`} className="text-blue-700 underline">
                      {i.questionExcerpt}
                    </Link>
                    <div className="font-mono text-xs text-slate-500">{i.id}</div>
                  </Td>
                  <Td size="sm">
                    <StatusBadge status={i.status} />
                  </Td>
                </tr>
              ))}
            </TableBody>
          </DataTable>
          <nav aria-label="Pages" className="mt-2 flex gap-4 text-sm">
            <span>
              page {items.page} of {items.pageCount}
            </span>
            {items.page > 1 ? (
              <Link
                href={here({
                  version: selected.version,
                  task: taskParam.success ? taskParam.data : undefined,
                  page: items.page - 1,
                })}
                className="underline"
              >
                ← Previous
              </Link>
            ) : null}
            {items.page < items.pageCount ? (
              <Link
                href={here({
                  version: selected.version,
                  task: taskParam.success ? taskParam.data : undefined,
                  page: items.page + 1,
                })}
                className="underline"
              >
                Next →
              </Link>
            ) : null}
          </nav>
        </section>
      ) : null}

      <section aria-labelledby="audit-h" className="mt-6">
        <h2 id="audit-h" className="text-lg font-semibold">
          History
        </h2>
        <ul className="mt-1 space-y-0.5 text-sm">
          {pool.audit.map((a) => (
            <li key={a.id}>
              <UtcTime value={a.at} precision="second" /> · {a.actorEmail ?? "system"} · {a.action}
            </li>
          ))}
        </ul>
      </section>
    </AdminPage>
  );
}
