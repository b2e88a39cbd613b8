import type { Metadata } from "next";
import Link from "next/link";
import { StatusBadge } from "@/components/admin/status-badge";
import { requirePageRole } from "@/lib/server/guards";
import { listImportBatches } from "@/lib/server/dal/imports/list-import-batches";
import { ImportUploadForm } from "./upload-form";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

export default async function ImportPage() {
  await requirePageRole("admin", "/admin/import");
  const batches = await listImportBatches({ limit: 50 });
  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <h1 className="text-2xl font-semibold">Import</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        Imports add items (or structures) and never change stored ones: content already in the database is reported as a duplicate. A batch with a
        fatal error imports nothing. The same works from the command line: <code>npm run import -- PATH [--kind …] [--dry-run]</code>.
      </p>
      <div className="mt-6">
        <ImportUploadForm />
      </div>

      <section aria-labelledby="recent-imports" className="mt-10">
        <h2 id="recent-imports" className="text-lg font-semibold">
          Recent imports
        </h2>
        {batches.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No imports yet.</p>
        ) : (
          <div className="mt-2 overflow-x-auto rounded border border-slate-300 bg-white">
            <table className="w-full text-sm">
              <caption className="sr-only">Recent import batches, newest first</caption>
              <thead className="bg-slate-100 text-left">
                <tr>
                  <th scope="col" className="px-3 py-2">Started</th>
                  <th scope="col" className="px-3 py-2">Source</th>
                  <th scope="col" className="px-3 py-2">Kind</th>
                  <th scope="col" className="px-3 py-2">Status</th>
                  <th scope="col" className="px-3 py-2 text-right">Imported</th>
                  <th scope="col" className="px-3 py-2 text-right">Duplicates</th>
                  <th scope="col" className="px-3 py-2 text-right">Skipped</th>
                  <th scope="col" className="px-3 py-2 text-right">Errors</th>
                  <th scope="col" className="px-3 py-2">By</th>
                </tr>
              </thead>
              <tbody>
                {batches.map((b) => (
                  <tr key={b.id} className="border-t border-slate-200">
                    <td className="px-3 py-2 whitespace-nowrap">
                      <Link href={`/admin/import/${b.id}`} className="text-blue-700 underline">
                        <UtcTime value={b.startedAt} precision="second" />
                      </Link>
                    </td>
                    <td className="px-3 py-2 break-all">{b.sourceName}</td>
                    <td className="px-3 py-2">{b.kind}</td>
                    <td className="px-3 py-2">
                      <StatusBadge status={b.stale ? "stalled" : b.status} />
                    </td>
                    <td className="px-3 py-2 text-right">{b.summary?.imported ?? b.progress?.imported ?? "–"}</td>
                    <td className="px-3 py-2 text-right">{b.summary?.duplicates ?? b.progress?.duplicates ?? "–"}</td>
                    <td className="px-3 py-2 text-right">{b.summary?.skipped ?? b.progress?.skipped ?? "–"}</td>
                    <td className="px-3 py-2 text-right">{b.summary?.errors ?? "–"}</td>
                    <td className="px-3 py-2">{b.importedBy ?? "command line"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
