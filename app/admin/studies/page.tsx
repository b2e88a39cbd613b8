import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/server/guards";
import { listStudies } from "@/lib/server/dal/studies/list-studies";
import { StatusBadge } from "@/components/admin/status-badge";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Studies" };
export const dynamic = "force-dynamic";

export default async function StudiesPage() {
  const user = await requirePageRole("researcher", "/admin/studies");
  const studies = await listStudies(user);
  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold">Studies</h1>
        <Link href="/admin/studies/new" className="rounded bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800">
          New study
        </Link>
      </div>
      <div className="mt-4 overflow-x-auto rounded border border-slate-300 bg-white">
        <table className="w-full text-sm">
          <caption className="sr-only">Studies</caption>
          <thead className="bg-slate-100 text-left">
            <tr>
              <th scope="col" className="px-3 py-2">Study</th>
              <th scope="col" className="px-3 py-2">Status</th>
              <th scope="col" className="px-3 py-2">Cohort</th>
              <th scope="col" className="px-3 py-2">Pool</th>
              <th scope="col" className="px-3 py-2">Participants</th>
              <th scope="col" className="px-3 py-2">Created (UTC)</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {studies.map((s) => (
              <tr key={s.id}>
                <td className="px-3 py-2">
                  <Link href={`/admin/studies/${s.id}`} className="font-medium text-blue-700 underline">
                    {s.name}
                  </Link>
                  <div className="font-mono text-xs text-slate-500">/s/{s.slug}</div>
                </td>
                <td className="px-3 py-2">
                  <StatusBadge status={s.status} />
                </td>
                <td className="px-3 py-2">{s.cohortTag ?? "–"}</td>
                <td className="px-3 py-2">
                  {s.poolName} v{s.poolVersion}
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {s.participants} started · {s.completed} completed{" "}
                  <Link href={`/admin/studies/${s.id}/monitor`} className="underline">
                    monitor
                  </Link>
                </td>
                <td className="px-3 py-2"><UtcTime value={s.createdAt} precision="date" /></td>
              </tr>
            ))}
            {studies.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-3 py-6 text-center text-slate-600">
                  No study yet.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </main>
  );
}
