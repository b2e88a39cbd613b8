import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/lib/server/guards";
import { requireStudyPage } from "@/lib/server/study-access";
import { AppError } from "@/lib/server/errors";
import { getStudyMonitor } from "@/lib/server/dal/studies/get-study-monitor";
import { getStudy } from "@/lib/server/dal/studies/get-study";
import { AutoRefresh } from "@/components/admin/auto-refresh";
import { StatusBadge } from "@/components/admin/status-badge";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Live monitor" };
export const dynamic = "force-dynamic";

const REFRESH_MS = 5_000;

const seconds = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);

export default async function MonitorPage({ params }: { params: Promise<{ studyId: string }> }) {
  const { studyId } = await params;
  const user = await requirePageRole("researcher", `/admin/studies/${studyId}/monitor`);
  await requireStudyPage(user, studyId);
  const [study, m] = await Promise.all([getStudy(studyId), getStudyMonitor(studyId)]).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const p = m.participants;
  const stat = (label: string, value: number) => (
    <div className="rounded border border-slate-300 bg-white px-4 py-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );

  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <p className="text-sm">
        <Link href={`/admin/studies/${study.id}`} className="underline">
          ← {study.name}
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-3 text-2xl font-semibold">
          Live monitor <StatusBadge status={m.status} />
        </h1>
        <AutoRefresh intervalMs={REFRESH_MS} renderedAt={m.generatedAt.toISOString()} />
      </div>

      <section aria-labelledby="people-h" className="mt-6">
        <h2 id="people-h" className="text-lg font-semibold">
          Participants
        </h2>
        <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Participants by status">
          {stat("Started", p.started)}
          {stat("Completed", p.byStatus.completed)}
          {stat("In progress", p.byStatus.active)}
          {stat("Consenting", p.byStatus.consenting)}
          {stat("Screened out", p.byStatus.screened_out)}
          {stat("Declined", p.byStatus.declined)}
        </dl>
        {Object.keys(p.byCondition).length ? (
          <p className="mt-2 text-sm text-slate-700">
            By condition:{" "}
            {Object.entries(p.byCondition)
              .map(([c, n]) => `${c} ${n}`)
              .join(" · ")}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="tasks-h" className="mt-6">
        <h2 id="tasks-h" className="text-lg font-semibold">
          Answers per task (main block, k = {m.answersPerItem})
        </h2>
        <div className="mt-2 overflow-x-auto rounded border border-slate-300 bg-white">
          <table className="w-full text-sm">
            <thead className="bg-slate-100 text-left">
              <tr>
                <th scope="col" className="px-3 py-2">Task</th>
                <th scope="col" className="px-3 py-2 text-right">Answers / quota</th>
                <th scope="col" className="px-3 py-2">Progress</th>
                <th scope="col" className="px-3 py-2 text-right">Reserved now</th>
                <th scope="col" className="px-3 py-2 text-right">Items at k</th>
                <th scope="col" className="px-3 py-2 text-right">Median time</th>
                <th scope="col" className="px-3 py-2 text-right">server / client</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {m.tasks.map((t) => {
                const pct = t.quota ? Math.min(100, Math.round((100 * t.answers) / t.quota)) : 0;
                return (
                  <tr key={t.taskId}>
                    <td className="px-3 py-2">{taskDisplayName(t.taskId)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {t.answers} / {t.quota}
                    </td>
                    <td className="px-3 py-2">
                      <progress value={t.answers} max={Math.max(1, t.quota)} aria-label={`${taskDisplayName(t.taskId)}: ${pct}% of quota`} className="w-32" /> <span className="tabular-nums">{pct}%</span>
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{t.reservedOpen}</td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {t.itemsAtQuota} / {t.items}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{seconds(t.medianRtMs)}</td>
                    <td className="px-3 py-2 text-right tabular-nums text-slate-600">
                      {seconds(t.medianRtServerMs)} / {seconds(t.medianRtClientMs)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot className="border-t border-slate-300 font-medium">
              <tr>
                <th scope="row" className="px-3 py-2 text-left">All tasks</th>
                <td className="px-3 py-2 text-right tabular-nums">
                  {m.totals.answers} / {m.totals.quota}
                </td>
                <td colSpan={3} className="px-3 py-2 text-sm font-normal text-slate-600">
                  + {m.totals.practiceAnswers} practice, {m.totals.attentionAnswers} attention-check answers
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{seconds(m.totals.medianRtMs)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="mt-2 text-sm text-slate-600">
          Median time per item uses the server-measured time (first served to stored) where present, else the browser&apos;s. Last answer:{" "}
          {m.lastResponseAt ? <UtcTime value={m.lastResponseAt} precision="second" /> : "none yet"}.
        </p>
      </section>
    </main>
  );
}
