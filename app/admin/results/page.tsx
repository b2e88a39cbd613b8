import type { Metadata } from "next";
import Link from "next/link";
import { listResultStudies } from "@/lib/server/dal/results/list-result-studies";
import { requirePageRole } from "@/lib/server/guards";
import { UtcTime } from "@/components/utc-time";
import { DataTable, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Results" };
export const dynamic = "force-dynamic";

export default async function ResultsIndexPage() {
  const user = await requirePageRole("researcher", "/admin/results");
  const studies = await listResultStudies(user);
  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <h1 className="text-2xl font-semibold">Results</h1>
      <p className="mt-1 text-sm text-slate-700">
        Human results, item analysis, model comparison and exports per study.{" "}
        <Link href="/admin/models" className="underline">
          Model runs
        </Link>{" "}
        · {/* A file download from a route handler: a plain link, not client-side navigation. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/api/export/codebook?format=md" className="underline">
          Codebook
        </a>
      </p>
      {studies.length === 0 ? (
        <p className="mt-6 text-sm">No studies yet.</p>
      ) : (
        <DataTable variant="ruled" className="mt-4">
          <TableHead variant="ruled">
            {["Study", "Status", "Pool", "Participants", "Main answers", "Last answer"].map((h) => (
              <Th key={h} variant="ruled">
                {h}
              </Th>
            ))}
          </TableHead>
          <tbody>
            {studies.map((s) => (
              <tr key={s.id} className="border-b border-slate-200">
                <Th variant="ruled" scope="row" className="font-normal">
                  <Link href={`/admin/results/${s.id}`} className="text-blue-700 underline">
                    {s.name}
                  </Link>{" "}
                  <span className="font-mono text-xs text-slate-600">{s.slug}</span>
                </Th>
                <Td variant="ruled">{s.status}</Td>
                <Td variant="ruled">
                  {s.poolName} v{s.poolVersion}
                </Td>
                <Td variant="ruled" className="tabular-nums">
                  {s.participants}
                </Td>
                <Td variant="ruled" className="tabular-nums">
                  {s.mainResponses}
                </Td>
                <Td variant="ruled">{s.lastResponseAt ? <UtcTime value={s.lastResponseAt} /> : "–"}</Td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </main>
  );
}
