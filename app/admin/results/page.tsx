import type { Metadata } from "next";
import Link from "next/link";
import { listResultStudies } from "@/lib/server/dal/results/list-result-studies";
import { requirePageRole } from "@/lib/server/guards";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Results" };
export const dynamic = "force-dynamic";

const TH = "px-2 py-1 text-left font-medium";

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
        <table className="mt-4 min-w-full border-collapse text-sm">
          <thead>
            <tr className="border-b border-slate-400 bg-slate-100">
              <th scope="col" className={TH}>
                Study
              </th>
              <th scope="col" className={TH}>
                Status
              </th>
              <th scope="col" className={TH}>
                Pool
              </th>
              <th scope="col" className={TH}>
                Participants
              </th>
              <th scope="col" className={TH}>
                Main answers
              </th>
              <th scope="col" className={TH}>
                Last answer
              </th>
            </tr>
          </thead>
          <tbody>
            {studies.map((s) => (
              <tr key={s.id} className="border-b border-slate-200">
                <th scope="row" className={`${TH} font-normal`}>
                  <Link href={`/admin/results/${s.id}`} className="text-blue-700 underline">
                    {s.name}
                  </Link>{" "}
                  <span className="font-mono text-xs text-slate-600">{s.slug}</span>
                </th>
                <td className="px-2 py-1">{s.status}</td>
                <td className="px-2 py-1">
                  {s.poolName} v{s.poolVersion}
                </td>
                <td className="px-2 py-1 tabular-nums">{s.participants}</td>
                <td className="px-2 py-1 tabular-nums">{s.mainResponses}</td>
                <td className="px-2 py-1">{s.lastResponseAt ? <UtcTime value={s.lastResponseAt} /> : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
