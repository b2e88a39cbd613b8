import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { requirePageRole } from "@/lib/server/guards";
import { requireStudyPage } from "@/lib/server/study-access";
import { AppError } from "@/lib/server/errors";
import { env } from "@/lib/server/env";
import { getStudy } from "@/lib/server/dal/studies/get-study";
import { toExampleParticipantUrl, toProlificUrl } from "@/lib/pools/study-input";
import { CopyField } from "@/components/admin/copy-field";
import { StatusBadge } from "@/components/admin/status-badge";
import { StudyStatusActions } from "@/components/admin/study-status-actions";
import { StudyShareList } from "@/components/admin/study-share-list";
import { listStudyShares } from "@/lib/server/dal/studies/study-shares";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { smallStudyNotice } from "@/lib/participant/address-share";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";
import { activeRules, describeRule } from "@/lib/participant/integrity";
import { DataTable } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Study" };
export const dynamic = "force-dynamic";

/** The public base URL: NEXTAUTH_URL when set (behind a proxy), else the host this page was requested on. */
async function resolveBaseUrl(): Promise<string> {
  if (env.NEXTAUTH_URL) return env.NEXTAUTH_URL.replace(/\/+$/, "");
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto =
    h.get("x-forwarded-proto") ?? (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
}

export default async function StudyPage({ params }: { params: Promise<{ studyId: string }> }) {
  const { studyId } = await params;
  const user = await requirePageRole("researcher", `/admin/studies/${studyId}`);
  await requireStudyPage(user, studyId);
  const study = await getStudy(studyId).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const shares = await listStudyShares(study.id);
  const link = `${await resolveBaseUrl()}/s/${study.slug}`;
  const c = study.config;
  const r = study.readiness;
  const smallNotice =
    c && r
      ? smallStudyNotice({
          openSlots: r.perTask.reduce((sum, t) => sum + t.supplyAnswers, 0),
          slotsPerParticipant: c.itemsPerTask * c.tasks.length,
          perAddressJoinLimit: env.PARTICIPANT_LIMIT_PER_ADDRESS,
        })
      : null;

  return (
    <AdminPage>
      <BackLink href="/admin/studies">Studies</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{study.name}</h1>
        <StatusBadge status={study.status} />
        {study.cohortTag ? (
          <span className="rounded bg-slate-200 px-2 py-0.5 text-xs">cohort {study.cohortTag}</span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Pool{" "}
        <Link
          href={`/admin/pools/${study.poolVersion.poolId}?version=${study.poolVersion.version}`}
          className="text-blue-700 underline"
        >
          {study.poolVersion.poolName} v{study.poolVersion.version}
        </Link>{" "}
        ({study.poolVersion.itemCount} items, {study.poolVersion.frozen ? "frozen" : "not frozen"}) ·{" "}
        {study.participantCount} participant(s) ·{" "}
        <Link href={`/admin/studies/${study.id}/monitor`} className="font-medium text-blue-700 underline">
          Live monitor
        </Link>
        {" · "}
        <Link href={`/admin/results/${study.id}`} className="font-medium text-blue-700 underline">
          Results and exports
        </Link>
        {study.editable ? (
          <>
            {" · "}
            <Link href={`/admin/studies/${study.id}/edit`} className="text-blue-700 underline">
              Edit
            </Link>
          </>
        ) : null}
      </p>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="links-h" className="space-y-3 rounded border border-slate-300 bg-white p-4">
          <h2 id="links-h" className="font-semibold">
            Participant link
          </h2>
          <CopyField label="Participant link (lab use: anonymous id)" value={link} />
          {c ? (
            <>
              <CopyField label="Study URL to paste into Prolific" value={toProlificUrl(link, c.prolific)} />
              <p className="text-sm text-slate-700">
                Example of what a Prolific participant opens:{" "}
                <a
                  href={toExampleParticipantUrl(link, c.prolific)}
                  className="break-all font-mono text-xs text-blue-700 underline"
                >
                  {toExampleParticipantUrl(link, c.prolific)}
                </a>
              </p>
              <p className="text-sm text-slate-700">
                Completion:{" "}
                {c.prolific.completionCode ? (
                  <>
                    code <span className="font-mono">{c.prolific.completionCode}</span>
                  </>
                ) : (
                  "no code"
                )}
                {c.prolific.completionUrl ? (
                  <>
                    , then redirect to <span className="break-all font-mono text-xs">{c.prolific.completionUrl}</span>
                  </>
                ) : (
                  ""
                )}
                .
              </p>
            </>
          ) : null}
        </section>

        <section aria-labelledby="status-h" className="space-y-3 rounded border border-slate-300 bg-white p-4">
          <h2 id="status-h" className="font-semibold">
            Status
          </h2>
          <p className="text-sm">
            Created <UtcTime value={study.createdAt} /> by {study.createdByEmail ?? "unknown"}
            {study.openedAt ? (
              <>
                {" "}
                · first opened <UtcTime value={study.openedAt} />
              </>
            ) : null}
            {study.closedAt ? (
              <>
                {" "}
                · closed <UtcTime value={study.closedAt} />
              </>
            ) : null}
          </p>
          {study.configError ? (
            <p className="text-sm text-red-700">Stored configuration is invalid: {study.configError}</p>
          ) : null}
          {r && study.status !== "open" ? (
            <div aria-label="Readiness" className="text-sm">
              {r.errors.length ? (
                <ul className="list-disc space-y-1 pl-5 text-red-700">
                  {r.errors.map((e, i) => (
                    <li key={i}>{e}</li>
                  ))}
                </ul>
              ) : (
                <p className="text-green-800">Ready to open.</p>
              )}
              {r.warnings.length ? (
                <ul className="mt-1 list-disc space-y-1 pl-5 text-amber-800">
                  {r.warnings.map((w, i) => (
                    <li key={i}>{w}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          {smallNotice ? (
            <p aria-label="Per-address limit" className="text-sm text-amber-800">
              {smallNotice}
            </p>
          ) : null}
          <StudyStatusActions studyId={study.id} status={study.status} canOpen={Boolean(r && r.errors.length === 0)} />
          {r ? (
            <DataTable variant="plain" className="w-full">
              <caption className="text-left font-medium">Items and quota per task</caption>
              <thead className="text-left">
                <tr>
                  <th scope="col">Task</th>
                  <th scope="col" className="text-right">
                    Items
                  </th>
                  <th scope="col" className="text-right">
                    Needed / participant
                  </th>
                  <th scope="col" className="text-right">
                    Quota (items × k)
                  </th>
                  <th scope="col" className="text-right">
                    Expected demand
                  </th>
                </tr>
              </thead>
              <tbody>
                {r.perTask.map((t) => (
                  <tr key={t.taskId} className={t.available < t.required ? "text-red-700" : ""}>
                    <td>{taskDisplayName(t.taskId)}</td>
                    <td className="text-right tabular-nums">{t.available}</td>
                    <td className="text-right tabular-nums">{t.required}</td>
                    <td className="text-right tabular-nums">{t.supplyAnswers}</td>
                    <td className="text-right tabular-nums">{t.demandAnswers ?? "no cap"}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          ) : null}
        </section>
      </div>

      <section aria-labelledby="sharing-h" className="mt-6 rounded border border-slate-300 bg-white p-4">
        <h2 id="sharing-h" className="mb-2 font-semibold">
          Sharing
        </h2>
        <StudyShareList
          studyId={study.id}
          ownerEmail={study.createdByEmail}
          initial={shares.map((s) => ({ userId: s.userId, email: s.email }))}
          canManage={user.role === "admin" || study.createdByEmail === user.email}
        />
      </section>

      {c ? (
        <section aria-labelledby="config-h" className="mt-6 rounded border border-slate-300 bg-white p-4">
          <h2 id="config-h" className="font-semibold">
            Configuration
          </h2>
          <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            <Row term="Tasks" value={c.tasks.map((t) => taskDisplayName(t)).join(", ")} />
            <Row term="Items per task / participant" value={c.itemsPerTask} />
            <Row term="Answers per item (k)" value={c.answersPerItem} />
            <Row term="Participant cap" value={c.maxParticipants ?? "none"} />
            <Row term="Conditions" value={c.conditions.join(", ")} />
            <Row term="Practice items" value={c.practiceItemIds.length} />
            <Row
              term="Attention checks"
              value={`${c.attentionItemIds.length} (${c.attentionPolicy}, ${c.attentionMaxFailures} failure(s) tolerated)`}
            />
            <Row term="Time limit per item" value={c.timeLimitSec ? `${c.timeLimitSec} s` : "none"} />
            <Row term="Reclaim unanswered items after" value={`${c.assignmentTimeoutMin} min`} />
            <Row
              term="Prolific parameters"
              value={`${c.prolific.participantParam}, ${c.prolific.studyParam}, ${c.prolific.sessionParam}`}
            />
            <Row
              term="Exclusion policy"
              value={
                activeRules(c.exclusions).length === 0
                  ? "none (every participant counts)"
                  : activeRules(c.exclusions)
                      .map((rule) => describeRule(rule, c.exclusions))
                      .join("; ")
              }
            />
          </dl>
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer">Consent text</summary>
            <p className="mt-1 whitespace-pre-wrap">{c.consentText}</p>
          </details>
        </section>
      ) : null}
    </AdminPage>
  );
}

function Row({ term, value }: { term: string; value: React.ReactNode }) {
  return (
    <div className="flex gap-2">
      <dt className="text-slate-600">{term}:</dt>
      <dd>{value}</dd>
    </div>
  );
}
