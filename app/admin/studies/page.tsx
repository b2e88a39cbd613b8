import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/server/guards";
import { listStudies } from "@/lib/server/dal/studies/list-studies";
import { StatusBadge } from "@/components/admin/status-badge";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { DataTable, EmptyRow, TableBody, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Studies" };
export const dynamic = "force-dynamic";

export default async function StudiesPage() {
  const user = await requirePageRole("researcher", "/admin/studies");
  const studies = await listStudies(user);
  return (
    <AdminPage>
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold">Studies</h1>
        <Link
          href="/admin/studies/new"
          className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800"
        >
          New study
        </Link>
      </div>
      <DataTable caption="Studies" className="mt-4">
        <TableHead>
          <Th>Study</Th>
          <Th>Status</Th>
          <Th>Cohort</Th>
          <Th>Pool</Th>
          <Th>Participants</Th>
          <Th>Created (UTC)</Th>
        </TableHead>
        <TableBody>
          {studies.map((s) => (
            <tr key={s.id}>
              <Td>
                <Link href={`/admin/studies/${s.id}`} className="font-medium text-blue-700 underline">
                  {s.name}
                </Link>
                <div className="font-mono text-xs text-slate-500">/s/{s.slug}</div>
              </Td>
              <Td>
                <StatusBadge status={s.status} />
              </Td>
              <Td>{s.cohortTag ?? "–"}</Td>
              <Td>
                {s.poolName} v{s.poolVersion}
              </Td>
              <Td className="tabular-nums">
                {s.participants} started · {s.completed} completed{" "}
                <Link href={`/admin/studies/${s.id}/monitor`} className="underline">
                  monitor
                </Link>
              </Td>
              <Td>
                <UtcTime value={s.createdAt} precision="date" />
              </Td>
            </tr>
          ))}
          {studies.length === 0 ? <EmptyRow colSpan={6}>No study yet.</EmptyRow> : null}
        </TableBody>
      </DataTable>
    </AdminPage>
  );
}
