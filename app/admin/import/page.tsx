import type { Metadata } from "next";
import Link from "next/link";
import { StatusBadge } from "@/components/admin/status-badge";
import { requirePageRole } from "@/lib/server/guards";
import { listImportBatches } from "@/lib/server/dal/imports/list-import-batches";
import { ImportUploadForm } from "./upload-form";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { DataTable, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

export default async function ImportPage() {
  await requirePageRole("admin", "/admin/import");
  const batches = await listImportBatches({ limit: 50 });
  return (
    <AdminPage>
      <h1 className="text-2xl font-semibold">Import</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        Imports add items (or structures) and never change stored ones: content already in the database is reported as a
        duplicate. A batch with a fatal error imports nothing. The same works from the command line:{" "}
        <code>npm run import -- PATH [--kind …] [--dry-run]</code>.
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
          <DataTable caption="Recent import batches, newest first" className="mt-2">
            <TableHead>
              <Th>Started</Th>
              <Th>Source</Th>
              <Th>Kind</Th>
              <Th>Status</Th>
              <Th align="right">Imported</Th>
              <Th align="right">Duplicates</Th>
              <Th align="right">Skipped</Th>
              <Th align="right">Errors</Th>
              <Th>By</Th>
            </TableHead>
            <tbody>
              {batches.map((b) => (
                <tr key={b.id} className="border-t border-slate-200">
                  <Td className="whitespace-nowrap">
                    <Link href={`/admin/import/${b.id}`} className="text-blue-700 underline">
                      <UtcTime value={b.startedAt} precision="second" />
                    </Link>
                  </Td>
                  <Td className="break-all">{b.sourceName}</Td>
                  <Td>{b.kind}</Td>
                  <Td>
                    <StatusBadge status={b.stale ? "stalled" : b.status} />
                  </Td>
                  <Td align="right">{b.summary?.imported ?? b.progress?.imported ?? "–"}</Td>
                  <Td align="right">{b.summary?.duplicates ?? b.progress?.duplicates ?? "–"}</Td>
                  <Td align="right">{b.summary?.skipped ?? b.progress?.skipped ?? "–"}</Td>
                  <Td align="right">{b.summary?.errors ?? "–"}</Td>
                  <Td>{b.importedBy ?? "command line"}</Td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </section>
    </AdminPage>
  );
}
