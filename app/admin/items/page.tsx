import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/server/guards";
import { listItems } from "@/lib/server/dal/items/list-items";
import { listItemFacets } from "@/lib/server/dal/items/list-item-facets";
import { getOptionTextValidity } from "@/lib/server/dal/items/get-option-text-validity";
import { getShortcutAudit } from "@/lib/server/dal/items/get-shortcut-audit";
import { ShortcutAuditTable } from "@/components/shortcuts/shortcut-audit-table";
import {
  ITEM_SOURCES,
  ITEM_STATUSES,
  ItemListQuerySchema,
  toFilterQueryString,
  toQueryRecord,
  type ItemListQuery,
} from "@/lib/pools/item-filter";
import { listTasks } from "@/lib/tasks/registry";
import { StatusBadge } from "@/components/admin/status-badge";
import { AdminPage } from "@/components/admin/page-shell";
import { DataTable, EmptyRow, TableBody, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Items" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ItemsPage({ searchParams }: { searchParams: SearchParams }) {
  await requirePageRole("researcher", "/admin/items");
  const raw = toQueryRecord(await searchParams);
  const parsed = ItemListQuerySchema.safeParse(raw);
  const query: ItemListQuery = parsed.success ? parsed.data : ItemListQuerySchema.parse({});
  const [page, facets, validity, shortcuts] = await Promise.all([
    listItems(query),
    listItemFacets(),
    getOptionTextValidity(),
    getShortcutAudit(),
  ]);
  const tasks = listTasks();
  const taskLabel = new Map(tasks.map((t) => [t.id as string, `${t.code} ${t.label}`]));
  const link = (p: number) => `/admin/items${toFilterQueryString({ ...query, page: p })}`;

  return (
    <AdminPage>
      <h1 className="text-2xl font-semibold">Items</h1>
      {!parsed.success ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Some filters were invalid and were ignored:{" "}
          {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
        </p>
      ) : null}

      <form
        method="get"
        action="/admin/items"
        className="mt-4 grid gap-3 rounded border border-slate-300 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
        aria-label="Filter items"
      >
        <Select
          name="task"
          label="Task"
          value={query.task}
          options={tasks.map((t) => [t.id, `${t.code} ${t.label}`])}
        />
        <Select name="split" label="Split" value={query.split} options={facets.splits.map((s) => [s, s])} />
        <Select name="source" label="Source" value={query.source} options={ITEM_SOURCES.map((s) => [s, s])} />
        <Select name="status" label="Status" value={query.status} options={ITEM_STATUSES.map((s) => [s, s])} />
        <Select name="tag" label="Tag" value={query.tag} options={facets.tags.map((t) => [t, t])} />
        <div>
          <label htmlFor="q" className="block text-sm font-medium">
            Search
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={query.q ?? ""}
            placeholder="question text, id, PDB id"
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
          />
        </div>
        <div className="flex items-end gap-3 sm:col-span-3 lg:col-span-6">
          <button type="submit" className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800">
            Apply filters
          </button>
          <Link href="/admin/items" className="text-sm underline">
            Clear
          </Link>
        </div>
      </form>

      <p className="mt-4 text-sm text-slate-700" aria-live="polite">
        {page.total} item(s) match · page {page.page} of {page.pageCount}
      </p>
      <DataTable caption="Items matching the filters" className="mt-2">
        <TableHead>
          <Th>Task</Th>
          <Th>Question</Th>
          <Th>PDB</Th>
          <Th>Split / source</Th>
          <Th>Tags</Th>
          <Th>Status</Th>
        </TableHead>
        <TableBody>
          {page.rows.map((r) => (
            <tr key={r.id}>
              <Td className="whitespace-nowrap">{taskLabel.get(r.taskId) ?? r.taskId}</Td>
              <Td>
                <Link href={`/admin/items/${r.id}`} className="text-blue-700 underline">
                  {r.questionExcerpt}
                </Link>
                <div className="font-mono text-xs text-slate-500">
                  {r.externalId ?? r.id} · {r.imageCount} image(s)
                </div>
              </Td>
              <Td className="font-mono">{r.pdbId ?? "–"}</Td>
              <Td>
                {r.split} / {r.source}
              </Td>
              <Td>{r.tags.join(", ")}</Td>
              <Td>
                <StatusBadge status={r.status} />
                {r.statusReason ? <div className="text-xs text-slate-600">{r.statusReason}</div> : null}
              </Td>
            </tr>
          ))}
          {page.rows.length === 0 ? (
            <EmptyRow colSpan={6}>
              No item matches. {facets.total === 0 ? "Import a bundle first." : "Loosen the filters."}
            </EmptyRow>
          ) : null}
        </TableBody>
      </DataTable>
      <nav aria-label="Pages" className="mt-3 flex items-center gap-4 text-sm">
        {page.page > 1 ? (
          <Link href={link(page.page - 1)} className="underline">
            ← Previous
          </Link>
        ) : (
          <span className="text-slate-400">← Previous</span>
        )}
        {page.page < page.pageCount ? (
          <Link href={link(page.page + 1)} className="underline">
            Next →
          </Link>
        ) : (
          <span className="text-slate-400">Next →</span>
        )}
      </nav>
      <section aria-labelledby="mc-validity-h" className="mt-8">
        <h2 id="mc-validity-h" className="text-lg font-semibold">
          MC validity: option-text-only accuracy
        </h2>
        <p className="text-sm text-slate-700">
          Expected accuracy of guessing the key from the four option texts alone (no images), over the active items of
          each multiple-choice task: sign-mirror (an option whose sign mirror is also offered), median-of-options
          (closest to the per-command median), odd-one-out (farthest from the others). Chance is 25%; more than 5 points
          above it means the options leak the answer. T5/T6 participants see the options as images, not texts. T5 leaks
          by the paper&apos;s design (kept on purpose): all three distractors change the rotation angle, so the key is
          the option whose angle differs from the others and odd-one-out finds it in about two thirds of items.
        </p>
        {validity.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No active multiple-choice items.</p>
        ) : (
          <DataTable variant="plain" className="mt-2" data-testid="mc-validity">
            <TableHead>
              <Th size="sm">Task</Th>
              <Th size="sm">Items</Th>
              <Th size="sm">Sign-mirror</Th>
              <Th size="sm">Median-of-options</Th>
              <Th size="sm">Odd-one-out</Th>
              <Th size="sm">Worst excess over chance</Th>
            </TableHead>
            <TableBody>
              {validity.map((v) => (
                <tr key={v.taskId}>
                  <Th size="sm" scope="row" align="left" className="font-normal">
                    {taskLabel.get(v.taskId) ?? v.taskId}
                  </Th>
                  <Td size="sm" className="tabular-nums">
                    {v.report.items}
                  </Td>
                  <Td size="sm" className="tabular-nums">
                    {(100 * v.report.accuracy["sign-mirror"]).toFixed(1)}%
                  </Td>
                  <Td size="sm" className="tabular-nums">
                    {(100 * v.report.accuracy["median-of-options"]).toFixed(1)}%
                  </Td>
                  <Td size="sm" className="tabular-nums">
                    {(100 * v.report.accuracy["odd-one-out"]).toFixed(1)}%
                  </Td>
                  <Td
                    size="sm"
                    className={`tabular-nums ${v.report.worstExcessPoints > 5 ? "font-semibold text-red-700" : ""}`}
                  >
                    {v.report.worstExcessPoints.toFixed(1)} points
                  </Td>
                </tr>
              ))}
            </TableBody>
          </DataTable>
        )}
      </section>
      <section aria-labelledby="shortcuts-h" className="mt-8">
        <h2 id="shortcuts-h" className="text-lg font-semibold">
          Shortcut audit
        </h2>
        <p className="text-sm text-slate-700">
          The best knowledge-free strategy per task over the active items: option-text rules for multiple choice
          (sign-mirror, one-command mirror, unique angle, median, odd-one-out and their combinations) and the most
          common answer of the other items for cloze tasks, with a 95% Wilson interval. Option-pose (3D) and
          polar-distance rules need coordinates, which are not stored with items: they are in the generated
          bundle&apos;s manifest and in <span className="font-mono">npm run bench:shortcuts</span>. Red: more than 5
          points above chance.
        </p>
        <ShortcutAuditTable audits={shortcuts} />
      </section>
    </AdminPage>
  );
}

function Select({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: Array<[string, string]>;
}) {
  return (
    <div>
      <label htmlFor={`f-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={`f-${name}`}
        name={name}
        defaultValue={value ?? ""}
        className="mt-1 w-full rounded border border-slate-400 bg-white px-2 py-1"
      >
        <option value="">any</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
}
