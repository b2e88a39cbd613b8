import type { ResultsDataDto } from "@/lib/server/dal/results/get-results-page";
import type { ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import type { TaskShortcutAudit } from "@/lib/shortcuts/audit";
import type { FlagItemState } from "@/components/results/flag-item-form";
import Link from "next/link";
import { buildConditionChartData, buildTaskChartColumns } from "@/components/results/chart-data";
import { ComparisonTable } from "@/components/results/comparison-table";
import { ConditionEffectSection } from "@/components/results/condition-effect";
import { GroupBreakdownTable, HumanResultsTable } from "@/components/results/human-results-table";
import { ItemAnalysisSection } from "@/components/results/item-analysis-section";
import { PaperReferenceTable } from "@/components/results/paper-reference-table";
import { SampleSizePlanner } from "@/components/results/sample-size-planner";
import { LargeExportDownload } from "@/components/results/large-export-download";
import { ConditionChart, TaskAccuracyChart } from "@/components/results/results-charts";
import { INTERVAL_RULE_NOTE } from "@/lib/results/interval-rule";
import { buildPaperTable, formatPaperTableLatex } from "@/lib/results/paper-table";
import { ShortcutContextTable } from "@/components/results/shortcut-context-table";
import { ThreeDUsageSection } from "@/components/results/three-d-usage-section";
import { IntegritySection } from "@/components/results/exclusions";

const SECTION = "mt-10 scroll-mt-4";

export interface ResultsPageViewProps {
  studyId: string;
  scope: ResultsScope;
  condition: "static" | "interactive" | null;
  /** The page's data, computed from the responses (getResultsData). */
  data: ResultsDataDto;
  shortcuts: TaskShortcutAudit[];
  /** Page of the per-participant signal table (1-based). */
  participantPage: number;
  /** Flagging an item (admins), or null. */
  flagAction: ((prev: FlagItemState, form: FormData) => Promise<FlagItemState>) | null;
}

/**
 * The results page's body: every section, from data already computed (app/admin/results/[studyId]/page.tsx fetches
 * it). Plain props in, markup out, so the page's weight can be measured without a server (bench/heavy-work.mts).
 */
export function ResultsPageView({
  studyId,
  scope,
  condition,
  data,
  shortcuts,
  participantPage,
  flagAction,
}: ResultsPageViewProps) {
  const { page, integrity, threeD } = data;
  const { human, items, models } = page;
  const s = human.scope;
  const summary = human.summary;
  const href = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams();
    const merged: Record<string, string | null> = { scope: scope === "pool" ? "pool" : null, condition, ...changes };
    for (const [k, v] of Object.entries(merged)) if (v) next.set(k, v);
    const text = next.toString();
    return `/admin/results/${studyId}${text ? `?${text}` : ""}`;
  };
  const exportHref = (kind: string) => `/api/export/${studyId}/${kind}${scope === "pool" ? "?scope=pool" : ""}`;
  const fileStem = `${s.study.slug}${scope === "pool" ? "-pool" : ""}`;
  const runNames = Object.fromEntries(models.runs.map((r) => [r.id, r.name]));
  const paperTableHref = (format: string, metric: string, score = "paper") => {
    const q = new URLSearchParams({ format, metric });
    if (score !== "paper") q.set("score", score);
    if (scope === "pool") q.set("scope", "pool");
    if (condition) q.set("condition", condition);
    return `/api/export/${studyId}/paper-table?${q.toString()}`;
  };

  return (
    <main className="mx-auto max-w-7xl px-6 py-8">
      <p className="text-sm">
        <Link href="/admin/results" className="underline">
          ← Results
        </Link>{" "}
        ·{" "}
        <Link href={`/admin/studies/${studyId}`} className="underline">
          Study page
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Results: {s.study.name}</h1>
      <p className="mt-1 text-sm text-slate-700">
        Study <span className="font-mono">{s.study.slug}</span> ({s.study.status}) · pool {s.poolVersion.poolName} v
        {s.poolVersion.version} ·{" "}
        {scope === "pool"
          ? `${s.studies.length} studies on this pool version: ${s.studies.map((x) => x.slug).join(", ")}`
          : "this study only"}{" "}
        · {human.nResponses} main-phase answers
      </p>
      <nav aria-label="Results scope" className="mt-2 flex flex-wrap gap-2 text-sm">
        <Link
          href={href({ scope: null })}
          aria-current={scope === "study" ? "page" : undefined}
          className={`rounded border px-2 py-1 ${scope === "study" ? "border-slate-800 bg-slate-800 text-white" : "border-slate-400 bg-white"}`}
        >
          This study
        </Link>
        <Link
          href={href({ scope: "pool" })}
          aria-current={scope === "pool" ? "page" : undefined}
          className={`rounded border px-2 py-1 ${scope === "pool" ? "border-slate-800 bg-slate-800 text-white" : "border-slate-400 bg-white"}`}
        >
          All studies on pool v{s.poolVersion.version}
        </Link>
        <span className="ml-auto text-slate-700">
          Jump to:{" "}
          <a href="#human" className="underline">
            humans
          </a>{" "}
          ·{" "}
          <a href="#charts" className="underline">
            charts
          </a>{" "}
          ·{" "}
          <a href="#items" className="underline">
            items
          </a>{" "}
          ·{" "}
          <a href="#models" className="underline">
            models
          </a>{" "}
          ·{" "}
          <a href="#exports" className="underline">
            exports
          </a>
        </span>
      </nav>
      {human.problems.length > 0 || human.skipped.length > 0 ? (
        <div role="alert" className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {human.problems.length > 0 ? (
            <p>The stored responses failed validation: {human.problems.slice(0, 5).join("; ")}</p>
          ) : null}
          {human.skipped.length > 0 ? (
            <p>
              {human.skipped.length} response(s) left out:{" "}
              {human.skipped
                .slice(0, 5)
                .map((x) => `${x.responseId} (${x.reason})`)
                .join("; ")}
            </p>
          ) : null}
        </div>
      ) : null}

      <section id="human" aria-labelledby="human-h" className={SECTION}>
        <h2 id="human-h" className="text-xl font-semibold">
          Human results per task
        </h2>
        <p className="text-sm text-slate-700">
          Main-phase answers only, without the participants the study&apos;s exclusion policy excludes (every estimate
          on this page leaves them out; the figures with them follow). Exact = the paper&apos;s Table 2, partial = Table
          1 (spec §4). The paper score comes first; the fair score follows it: on T4/T9 chemically equivalent atom names
          (ARG NH1/NH2, ASP OD1/OD2, GLU OE1/OE2, C-terminal O/OXT, PHE/TYR ring pairs) count as one, and partial is
          shown as F1 beside precision (elsewhere fair = paper; see the codebook).
        </p>
        <p className="mt-1 text-sm text-slate-700" data-testid="interval-rule-note">
          {INTERVAL_RULE_NOTE} Bootstrap: {human.replicates} replicates, seed{" "}
          <span className="font-mono">{human.seed}</span>; each interval derives its own seed from it, the group and the
          column. The same interval is used in the charts, the exports and the paper-style tables.
        </p>
        {summary ? (
          <div className="mt-3 space-y-6">
            <HumanResultsTable
              group={summary.overall}
              caption={
                summary.unexcluded
                  ? `Participants the exclusion policy keeps (${summary.overall.nParticipants}; ${summary.unexcluded.nExcludedParticipants} excluded), ${summary.overall.nResponses} answers`
                  : `All participants (${summary.overall.nParticipants}), ${summary.overall.nResponses} answers`
              }
            />
            {summary.unexcluded ? (
              <HumanResultsTable
                group={summary.unexcluded.overall}
                caption={`No exclusions: every participant (${summary.unexcluded.overall.nParticipants}), ${summary.unexcluded.overall.nResponses} answers, for comparison`}
              />
            ) : null}
            <GroupBreakdownTable groups={summary.byCondition} dimension="condition" />
            <GroupBreakdownTable groups={summary.byCohort} dimension="cohort" />
          </div>
        ) : (
          <p className="mt-3 text-sm">No main-phase answers yet.</p>
        )}
      </section>

      <ConditionEffectSection summary={summary?.conditionEffect ?? null} unexcluded={summary?.unexcluded ?? null} />

      <IntegritySection
        results={integrity}
        studyId={studyId}
        paging={{ page: participantPage, href: (p) => href({ participants: p > 1 ? String(p) : null }) }}
      />

      <section id="shortcuts" aria-labelledby="shortcuts-h" className={SECTION}>
        <h2 id="shortcuts-h" className="text-xl font-semibold">
          Human accuracy beside chance and the best shortcut
        </h2>
        <p className="text-sm text-slate-700">
          What a number means: each task&apos;s human exact accuracy (all participants) beside chance and the best
          knowledge-free strategy on this pool version&apos;s items (option texts for multiple choice, the most common
          answer of the other items for cloze tasks; lib/shortcuts), with its 95% Wilson interval. A human accuracy near
          the shortcut&apos;s says little about spatial reasoning.
        </p>
        <ShortcutContextTable columns={summary?.overall.columns ?? []} audits={shortcuts} />
      </section>

      <section id="charts" aria-labelledby="charts-h" className={SECTION}>
        <h2 id="charts-h" className="text-xl font-semibold">
          Charts
        </h2>
        <div className="mt-3 space-y-6">
          {summary ? (
            <>
              <TaskAccuracyChart
                columns={buildTaskChartColumns(summary, models.comparison)}
                runs={models.runs.map((r) => ({ id: r.id, name: r.name }))}
                fileStem={fileStem}
              />
              <ConditionChart data={buildConditionChartData(summary)} fileStem={fileStem} />
            </>
          ) : (
            <p className="text-sm">Nothing to chart before the first main-phase answers.</p>
          )}
        </div>
      </section>

      <section id="three-d" aria-labelledby="three-d-h" className={SECTION}>
        <h2 id="three-d-h" className="text-xl font-semibold">
          How the 3D view was used
        </h2>
        <ThreeDUsageSection
          usage={threeD}
          replayHref={(study, response) => `/admin/results/${study}/replay/${response}`}
        />
      </section>

      <section id="items" aria-labelledby="items-h" className={SECTION}>
        <h2 id="items-h" className="text-xl font-semibold">
          Item analysis
        </h2>
        {items.problems.length > 0 ? <p role="alert">{items.problems.slice(0, 5).join("; ")}</p> : null}
        <div className="mt-3">
          <ItemAnalysisSection dto={items} studyId={studyId} flagAction={flagAction} />
        </div>
      </section>

      <section id="models" aria-labelledby="models-h" className={SECTION}>
        <h2 id="models-h" className="text-xl font-semibold">
          Models vs humans
        </h2>
        <p className="text-sm text-slate-700">
          Imported model runs scored with the same task scorers on the items humans answered ({models.runs.length}{" "}
          run(s) with answers on this pool version;{" "}
          <Link href="/admin/models" className="underline">
            import or manage runs
          </Link>
          ). Human side:{" "}
          {([null, "static", "interactive"] as const).map((c) => (
            <Link
              key={c ?? "all"}
              href={href({ condition: c })}
              aria-current={condition === c ? "true" : undefined}
              className={`mr-1 rounded px-1 ${condition === c ? "bg-slate-800 text-white" : "underline"}`}
            >
              {c ?? "all conditions"}
            </Link>
          ))}
          (the paper tested humans on static images).
        </p>
        {models.problems.length > 0 ? (
          <p role="alert" className="text-sm text-red-800">
            {models.problems.slice(0, 5).join("; ")}
          </p>
        ) : null}
        <div className="mt-3">
          {models.comparison ? (
            <ComparisonTable dto={models} audits={shortcuts} />
          ) : (
            <p className="text-sm">
              {models.runs.length === 0
                ? "No imported model answered items of this pool version yet."
                : "No human answers to compare the models with yet."}
            </p>
          )}
        </div>
        <h3 className="mt-8 font-semibold">The paper&apos;s published results (as reported, not item-matched)</h3>
        <div className="mt-2 space-y-4">
          <PaperReferenceTable metric="exact" />
          <details>
            <summary className="cursor-pointer text-sm font-medium">Partial credit (Table 1)</summary>
            <PaperReferenceTable metric="partial" />
          </details>
        </div>
      </section>

      <section id="planning" aria-labelledby="planning-h" className={SECTION}>
        <h2 id="planning-h" className="text-xl font-semibold">
          How many participants?
        </h2>
        <p className="text-sm text-slate-700">
          Recomputed from this study&apos;s answers as a pilot ({human.nResponses} main-phase answers): observed
          accuracy and between-participant ICC per column, where there are answers; the paper&apos;s human row and the
          assumed ICC elsewhere.
        </p>
        <div className="mt-2">
          <SampleSizePlanner
            tasks={page.planning.tasks}
            itemsPerTask={page.planning.itemsPerTask}
            answersPerItem={page.planning.answersPerItem}
            itemsEditable
            pilot={page.planning.pilot}
          />
        </div>
      </section>

      <section id="paper-tables" aria-labelledby="paper-tables-h" className={SECTION}>
        <h2 id="paper-tables-h" className="text-xl font-semibold">
          Paper-style tables
        </h2>
        <p className="text-sm text-slate-700">
          The layout of the paper&apos;s Table 1 (partial credit) and Table 2 (exact match): this study&apos;s human row
          with its 95% interval (the rule above), the imported runs (item-matched
          {condition ? `, humans in the ${condition} condition` : ""}) and the paper&apos;s rows as reported. Same
          numbers and rounding as above.
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
          {(
            [
              ["partial", "Table 1 (partial credit)"],
              ["exact", "Table 2 (exact match)"],
              ["both", "Both tables"],
            ] as const
          ).map(([metric, name]) => (
            <li key={metric}>
              {name}:{" "}
              {(
                [
                  ["latex", "LaTeX (booktabs)"],
                  ["md", "Markdown"],
                  ["csv", "CSV"],
                ] as const
              ).map(([format, label], i) => (
                <span key={format}>
                  {i > 0 ? " · " : ""}
                  <a href={paperTableHref(format, metric)} className="text-blue-700 underline">
                    {label}
                  </a>
                </span>
              ))}
            </li>
          ))}
          <li>
            Fair score (after the paper&apos;s; equivalent atom names count as one), both tables:{" "}
            <a href={paperTableHref("latex", "both", "fair")} className="text-blue-700 underline">
              LaTeX
            </a>{" "}
            ·{" "}
            <a href={paperTableHref("md", "both", "fair")} className="text-blue-700 underline">
              Markdown
            </a>{" "}
            ·{" "}
            <a href={paperTableHref("csv", "both", "fair")} className="text-blue-700 underline">
              CSV
            </a>
          </li>
        </ul>
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium">Table 2 (exact match) as LaTeX</summary>
          <pre
            className="mt-1 max-h-96 overflow-auto rounded border border-slate-300 bg-white p-2 text-xs"
            data-testid="paper-table-latex"
          >
            {formatPaperTableLatex(
              buildPaperTable({
                metric: "exact",
                human: summary?.overall ?? null,
                comparison: models.comparison,
                runNames,
                conditionEffect: summary?.conditionEffect ?? null,
                unexcluded: summary?.unexcluded ?? null,
              }),
            )}
          </pre>
        </details>
      </section>

      <section id="exports" aria-labelledby="exports-h" className={SECTION}>
        <h2 id="exports-h" className="text-xl font-semibold">
          Exports
        </h2>
        <p className="text-sm text-slate-700">
          UTF-8 CSV with a header row, streamed; contains gold answers. Cells a spreadsheet would run as formulas start
          with an apostrophe.
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
          <li>
            <LargeExportDownload
              href={exportHref("responses")}
              estimateHref={`/api/export/${studyId}/estimate${scope === "pool" ? "?scope=pool" : ""}`}
              which="responses"
              label="Responses (long format, one row per answer)"
              fallbackName={`${fileStem}-responses.csv`}
            />{" "}
            ·{" "}
            <a href={exportHref("responses")} className="text-blue-700 underline">
              direct link
            </a>
          </li>
          <li>
            <a href={exportHref("task-summary")} className="text-blue-700 underline">
              Per-task summary
            </a>
          </li>
          <li>
            <a href={exportHref("item-summary")} className="text-blue-700 underline">
              Per-item summary
            </a>
          </li>
          <li>
            <a href={exportHref("participants")} className="text-blue-700 underline">
              Participants
            </a>
          </li>
          <li>
            <a href={exportHref("three-d-usage")} className="text-blue-700 underline">
              3D view usage per interactive answer
            </a>
          </li>
          <li>
            Pool items as a VLMEvalKit TSV (base64 PNG images) – run models on exactly the items humans saw; longest
            image side:{" "}
            {(["original", "1024", "768", "512"] as const).map((size, i) => (
              <span key={size}>
                {i > 0 ? " · " : ""}
                <LargeExportDownload
                  href={`/api/export/${studyId}/vlmevalkit-tsv?size=${size}`}
                  estimateHref={`/api/export/${studyId}/estimate?size=${size}`}
                  which="tsv"
                  label={size === "original" ? "as stored" : `${size} px`}
                  fallbackName={`${s.study.slug}-items-vlmevalkit.tsv`}
                />
              </span>
            ))}
          </li>
          <li>
            <a href={exportHref("psych-ds")} className="text-blue-700 underline" data-testid="psych-ds-download">
              Analysis package (.tar.gz)
            </a>
            : a Psych-DS dataset (trials, participants, items, dataset_description.json) with analysis.R (base R + lme4)
            and analysis.py (pandas + statsmodels) that recompute this page&apos;s accuracies, intervals and the
            condition effect, and fit the condition model (docs/analysis-package.md).
          </li>
          <li>
            Codebook: {/* A file download from a route handler: a plain link, not client-side navigation. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a href="/api/export/codebook" className="text-blue-700 underline">
              CSV
            </a>{" "}
            · {/* A file download from a route handler: a plain link, not client-side navigation. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a href="/api/export/codebook?format=md" className="text-blue-700 underline">
              Markdown
            </a>
          </li>
        </ul>
      </section>
    </main>
  );
}
