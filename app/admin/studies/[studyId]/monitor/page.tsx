import type { Metadata } from "next";
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
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";
import { DataTable, TableBody, TableHead, Td, Th } from "@/components/ui/data-table";

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
    <AdminPage>
      <BackLink href={`/admin/studies/${study.id}`}>{study.name}</BackLink>
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
        <DataTable className="mt-2">
          <TableHead>
            <Th>Task</Th>
            <Th align="right">Answers / quota</Th>
            <Th>Progress</Th>
            <Th align="right">Reserved now</Th>
            <Th align="right">Items at k</Th>
            <Th align="right">Median time</Th>
            <Th align="right">server / client</Th>
          </TableHead>
          <TableBody>
            {m.tasks.map((t) => {
              const pct = t.quota ? Math.min(100, Math.round((100 * t.answers) / t.quota)) : 0;
              return (
                <tr key={t.taskId}>
                  <Td>{taskDisplayName(t.taskId)}</Td>
                  <Td align="right" className="tabular-nums">
                    {t.answers} / {t.quota}
                  </Td>
                  <Td>
                    <progress
                      value={t.answers}
                      max={Math.max(1, t.quota)}
                      aria-label={`${taskDisplayName(t.taskId)}: ${pct}% of quota`}
                      className="w-32"
                    />{" "}
                    <span className="tabular-nums">{pct}%</span>
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {t.reservedOpen}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {t.itemsAtQuota} / {t.items}
                  </Td>
                  <Td align="right" className="tabular-nums">
                    {seconds(t.medianRtMs)}
                  </Td>
                  <Td align="right" className="tabular-nums text-slate-600">
                    {seconds(t.medianRtServerMs)} / {seconds(t.medianRtClientMs)}
                  </Td>
                </tr>
              );
            })}
          </TableBody>
          <tfoot className="border-t border-slate-300 font-medium">
            <tr>
              <Th scope="row" align="left">
                All tasks
              </Th>
              <Td align="right" className="tabular-nums">
                {m.totals.answers} / {m.totals.quota}
              </Td>
              <Td colSpan={3} className="text-sm font-normal text-slate-600">
                + {m.totals.practiceAnswers} practice, {m.totals.attentionAnswers} attention-check answers
              </Td>
              <Td align="right" className="tabular-nums">
                {seconds(m.totals.medianRtMs)}
              </Td>
              <td />
            </tr>
          </tfoot>
        </DataTable>
        <p className="mt-2 text-sm text-slate-600">
          Median time per item uses the server-measured time (first served to stored) where present, else the
          browser&apos;s. Last answer:{" "}
          {m.lastResponseAt ? <UtcTime value={m.lastResponseAt} precision="second" /> : "none yet"}.
        </p>
      </section>
    </AdminPage>
  );
}
