import Link from "next/link";
import type { AccuracyView, ExclusionResults } from "@/lib/results/exclusions";
import { formatPercent } from "./format";
import { DataTable } from "@/components/ui/data-table";

/** A browser signal the participant's browser never sent (an older page, a scripted client): unknown, not zero. */
const NOT_MEASURED = "–";

const CELL = "border-b border-slate-200 px-2 py-1 text-right tabular-nums";
const HEAD = "border-b border-slate-400 px-2 py-1 text-right font-medium";

/**
 * Rows of the per-participant signal table per page: the table is paginated on the server, so the results page of a
 * 6,000-participant study stays small (every server-rendered row travels twice: as HTML and in the RSC payload).
 */
export const PARTICIPANT_ROWS_PER_PAGE = 100;

/** One page of the per-participant table: which page (1-based) and the link to any page. */
export interface ParticipantPaging {
  page: number;
  href: (page: number) => string;
}

/** The results page's integrity section: signals per participant, the study's exclusion policy and what it changes. */
export function IntegritySection({
  results,
  studyId,
  paging,
}: {
  results: ExclusionResults;
  studyId: string;
  paging: ParticipantPaging;
}) {
  return (
    <section id="integrity" aria-labelledby="integrity-h" className="mt-10 scroll-mt-4">
      <h2 id="integrity-h" className="text-xl font-semibold">
        Participant integrity and exclusions
      </h2>
      <ExclusionsView results={results} studyId={studyId} paging={paging} />
    </section>
  );
}

export function ExclusionsView({
  results,
  studyId,
  paging,
}: {
  results: ExclusionResults;
  studyId: string;
  paging: ParticipantPaging;
}) {
  const nPages = Math.max(1, Math.ceil(results.participants.length / PARTICIPANT_ROWS_PER_PAGE));
  const page = Math.min(Math.max(1, paging.page), nPages);
  const shown = results.participants.slice((page - 1) * PARTICIPANT_ROWS_PER_PAGE, page * PARTICIPANT_ROWS_PER_PAGE);
  const columns = results.all.columns.map((c) => ({ column: c.column, label: c.label }));
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Signals recorded while each main question was open (page hidden, focus lost, paste, copy, browser automation)
        and derived from the answers (faster than the task&apos;s time floor, identical answers in a row); see
        docs/integrity-signals.md. They are facts, not verdicts: nobody was blocked.{" "}
        {results.rules.length === 0 ? (
          <>
            This study has no exclusion policy, so nobody is excluded (
            <Link href={`/admin/studies/${studyId}/edit`} className="underline">
              set one in the study form
            </Link>{" "}
            before the study opens).
          </>
        ) : (
          <>
            The study&apos;s exclusion policy excludes <strong data-testid="excluded-count">{results.nExcluded}</strong>{" "}
            of {results.nParticipants} participants.
          </>
        )}
        {results.nWithoutBrowserSignals > 0
          ? ` ${results.nWithoutBrowserSignals} participant(s) sent no browser signals; only the answer-based rules apply to them.`
          : ""}
      </p>

      <DataTable variant="plain" data-testid="exclusion-accuracy">
        <caption className="text-left font-medium">
          Exact accuracy with and without exclusions (pooled over answers)
        </caption>
        <thead>
          <tr>
            <th scope="col" className="border-b border-slate-400 px-2 py-1 text-left font-medium">
              Participants
            </th>
            <th scope="col" className={HEAD}>
              n
            </th>
            <th scope="col" className={HEAD}>
              Answers
            </th>
            <th scope="col" className={HEAD}>
              All answers
            </th>
            <th scope="col" className={HEAD}>
              Paper Avg
            </th>
            {columns.map((c) => (
              <th key={c.column} scope="col" className={HEAD}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <AccuracyRow name="All participants" view={results.all} columns={columns} testId="accuracy-all" />
          <AccuracyRow name="After exclusions" view={results.kept} columns={columns} testId="accuracy-kept" />
        </tbody>
      </DataTable>

      {results.rules.length > 0 ? (
        <DataTable variant="plain" data-testid="exclusion-rules">
          <caption className="text-left font-medium">Participants each rule removed</caption>
          <thead>
            <tr>
              <th scope="col" className="border-b border-slate-400 px-2 py-1 text-left font-medium">
                Rule
              </th>
              <th scope="col" className={HEAD}>
                Excluded by it
              </th>
              <th scope="col" className={HEAD}>
                By it alone
              </th>
            </tr>
          </thead>
          <tbody>
            {results.rules.map((r) => (
              <tr key={r.rule} data-rule={r.rule}>
                <th scope="row" className="border-b border-slate-200 px-2 py-1 text-left font-normal">
                  {r.description}
                </th>
                <td className={CELL}>{r.nMatched}</td>
                <td className={CELL}>{r.nOnlyThisRule}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="px-2 py-1 text-left font-medium">
                Any rule
              </th>
              <td className={CELL}>{results.nExcluded}</td>
              <td className={CELL} />
            </tr>
          </tbody>
        </DataTable>
      ) : null}

      <details open={paging.page > 1} id="participant-signals">
        <summary className="cursor-pointer text-sm font-medium">
          Signals per participant ({results.participants.length}
          {nPages > 1
            ? `; ${(page - 1) * PARTICIPANT_ROWS_PER_PAGE + 1}–${(page - 1) * PARTICIPANT_ROWS_PER_PAGE + shown.length} shown`
            : ""}
          )
        </summary>
        {nPages > 1 ? <PageLinks page={page} nPages={nPages} href={paging.href} /> : null}
        <div className="mt-2 overflow-x-auto">
          <DataTable
            variant="plain"
            // Cell styles set once on the table, not on each of the page's cells (less HTML per row).
            className="[&_tbody_td]:border-b [&_tbody_td]:border-slate-200 [&_tbody_td]:px-2 [&_tbody_td]:py-1 [&_tbody_td]:text-right [&_tbody_td]:tabular-nums [&_tbody_th]:border-b [&_tbody_th]:border-slate-200 [&_tbody_th]:px-2 [&_tbody_th]:py-1 [&_tbody_th]:text-left [&_tbody_th]:font-mono [&_tbody_th]:text-xs [&_tbody_th]:font-normal"
            data-testid="participant-signals"
          >
            <thead>
              <tr>
                <th scope="col" className="border-b border-slate-400 px-2 py-1 text-left font-medium">
                  Participant
                </th>
                {[
                  "Answers",
                  "Hidden (s)",
                  "Hidden (times)",
                  "Focus losses",
                  "Pastes (chars)",
                  "Copies",
                  "Automation",
                  "Under floor",
                  "Longest identical run",
                ].map((h) => (
                  <th key={h} scope="col" className={HEAD}>
                    {h}
                  </th>
                ))}
                <th scope="col" className="border-b border-slate-400 px-2 py-1 text-left font-medium">
                  Excluded by
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.participantId} data-participant={p.participantId}>
                  <th scope="row">{p.participantId}</th>
                  <td>
                    {p.nWithSignals === p.nAnswers ? p.nAnswers : `${p.nAnswers} (${p.nWithSignals} with signals)`}
                  </td>
                  <td data-signal="hidden-sec">{p.nWithSignals ? (p.hiddenMs / 1000).toFixed(1) : NOT_MEASURED}</td>
                  <td data-signal="hidden-count">{p.nWithSignals ? p.hiddenCount : NOT_MEASURED}</td>
                  <td data-signal="focus-losses">{p.nWithSignals ? p.blurCount : NOT_MEASURED}</td>
                  <td data-signal="pastes">
                    {!p.nWithSignals ? NOT_MEASURED : p.pasteCount > 0 ? `${p.pasteCount} (${p.pasteChars})` : "0"}
                  </td>
                  <td data-signal="copies">{p.nWithSignals ? p.copyCount : NOT_MEASURED}</td>
                  <td data-signal="webdriver">{!p.nWithSignals ? NOT_MEASURED : p.webdriver ? "yes" : "no"}</td>
                  <td data-signal="under-floor">{p.nTimed ? `${p.nUnderFloor}/${p.nTimed}` : "–"}</td>
                  <td data-signal="identical-run">{p.maxIdenticalRun}</td>
                  <td className="text-left! text-xs" data-signal="excluded-by">
                    {p.excludedBy.length ? p.excludedBy.join("; ") : "kept"}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </div>
      </details>
    </div>
  );
}

/** Previous / next and the page number of the per-participant table (links: the server renders each page). */
function PageLinks({ page, nPages, href }: { page: number; nPages: number; href: (page: number) => string }) {
  return (
    <nav aria-label="Participant pages" className="mt-2 flex gap-3 text-sm" data-testid="participant-pages">
      {page > 1 ? (
        <Link href={`${href(page - 1)}#participant-signals`} className="underline">
          ← Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {nPages}
      </span>
      {page < nPages ? (
        <Link href={`${href(page + 1)}#participant-signals`} className="underline">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}

function AccuracyRow({
  name,
  view,
  columns,
  testId,
}: {
  name: string;
  view: AccuracyView;
  columns: Array<{ column: string; label: string }>;
  testId: string;
}) {
  const byColumn = new Map(view.columns.map((c) => [c.column as string, c]));
  return (
    <tr data-testid={testId}>
      <th scope="row" className="border-b border-slate-200 px-2 py-1 text-left font-normal">
        {name}
      </th>
      <td className={CELL} data-cell="participants">
        {view.nParticipants}
      </td>
      <td className={CELL} data-cell="answers">
        {view.nResponses}
      </td>
      <td className={CELL} data-cell="exact">
        {formatPercent(view.exact)}
      </td>
      <td className={CELL}>{formatPercent(view.paperAverage)}</td>
      {columns.map((c) => {
        const cell = byColumn.get(c.column);
        return (
          <td key={c.column} className={CELL}>
            {cell ? formatPercent(cell.exact) : "–"}
          </td>
        );
      })}
    </tr>
  );
}
