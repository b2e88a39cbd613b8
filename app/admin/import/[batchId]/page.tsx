import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/admin/auto-refresh";
import { StatusBadge } from "@/components/admin/status-badge";
import { countListed, formatReportEntry, type ReportEntry } from "@/lib/import/report";
import { requirePageRole } from "@/lib/server/guards";
import { findImportBatch } from "@/lib/server/dal/imports/get-import-batch";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";

export const metadata: Metadata = { title: "Import batch" };
export const dynamic = "force-dynamic";

/** Refresh interval while the batch is still running. */
const REFRESH_MS = 2000;

function EntryList({ title, entries, total }: { title: string; entries: ReportEntry[]; total: number }) {
  if (total === 0) return null;
  const id = `section-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="text-lg font-semibold">
        {title} ({total})
      </h2>
      <ul className="mt-2 max-h-[32rem] overflow-auto rounded border border-slate-300 bg-white p-3 font-mono text-xs">
        {entries.map((e, i) => (
          <li key={i} className="break-all">
            {formatReportEntry(e)}
          </li>
        ))}
      </ul>
      {total > countListed(entries) ? (
        <p className="mt-1 text-sm text-slate-600">
          {total - countListed(entries)} more not stored (the counts are exact).
        </p>
      ) : null}
    </section>
  );
}

export default async function ImportBatchPage({ params }: { params: Promise<{ batchId: string }> }) {
  const { batchId } = await params;
  await requirePageRole("admin", `/admin/import/${encodeURIComponent(batchId)}`);
  const batch = await findImportBatch(batchId);
  if (!batch) notFound();
  const running = ["uploading", "queued", "running"].includes(batch.status);
  const r = batch.report;
  return (
    <AdminPage>
      <BackLink href="/admin/import">Import</BackLink>
      <h1 className="mt-2 text-2xl font-semibold break-all">{batch.sourceName}</h1>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <dt className="text-slate-600">Status</dt>
        <dd>
          <StatusBadge status={batch.status} />
        </dd>
        <dt className="text-slate-600">Kind</dt>
        <dd>{batch.kind}</dd>
        <dt className="text-slate-600">Started</dt>
        <dd>
          <UtcTime value={batch.startedAt} precision="second" />
        </dd>
        <dt className="text-slate-600">Finished</dt>
        <dd>{batch.finishedAt ? <UtcTime value={batch.finishedAt} precision="second" /> : "–"}</dd>
        <dt className="text-slate-600">By</dt>
        <dd>{batch.importedBy ?? "command line"}</dd>
        <dt className="text-slate-600">Items in this batch</dt>
        <dd>{batch.itemCount}</dd>
        <dt className="text-slate-600">Input sha256</dt>
        <dd className="col-span-1 font-mono text-xs break-all sm:col-span-3">{batch.contentHash ?? "–"}</dd>
      </dl>

      {batch.stale ? (
        <p role="alert" className="mt-6 text-sm text-amber-800">
          No sign of life for a long time: the server probably stopped during this import. Its transaction was rolled
          back, so nothing of it was stored; start it again.
        </p>
      ) : null}
      {running && !batch.stale ? (
        <div className="mt-6" aria-live="polite">
          <p className="text-sm">
            {batch.progress
              ? `${batch.progress.phase}${batch.progress.currentFile ? `: ${batch.progress.currentFile}` : ""} · read ${batch.progress.recordsRead} · imported ${batch.progress.imported} · duplicates ${batch.progress.duplicates} · skipped ${batch.progress.skipped}`
              : `${batch.status}…`}
          </p>
          <AutoRefresh intervalMs={REFRESH_MS} renderedAt={new Date().toISOString()} />
        </div>
      ) : null}

      {r ? (
        <>
          <p className="mt-6 text-base" role="status">
            {r.counts.errors > 0
              ? `Failed with ${r.counts.errors} error(s); nothing was imported.`
              : `${r.dryRun ? "Would import" : "Imported"} ${r.imported} · duplicates ${r.duplicates} · skipped ${r.counts.skipped} · warnings ${r.counts.warnings} · records read ${r.recordsRead}`}
          </p>
          {Object.keys(r.byTask).length > 0 ? (
            <p className="mt-1 text-sm text-slate-700">
              By {r.kind === "structures" ? "format" : "task"}:{" "}
              {Object.entries(r.byTask)
                .map(([k, n]) => `${k} ${n}`)
                .join(", ")}
            </p>
          ) : null}
          <EntryList title="Errors" entries={r.errors} total={r.counts.errors} />
          <EntryList title="Skipped" entries={r.skipped} total={r.counts.skipped} />
          <EntryList title="Duplicates" entries={r.duplicateEntries} total={r.counts.duplicates} />
          <EntryList title="Warnings" entries={r.warnings} total={r.counts.warnings} />
          <EntryList title="Notes" entries={r.notes} total={r.counts.notes} />
        </>
      ) : null}
    </AdminPage>
  );
}
