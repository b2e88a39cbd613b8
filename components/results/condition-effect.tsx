import {
  CONDITION_EFFECT_NOTE,
  CONDITION_MODEL_FORMULA,
  formatConditionEffect,
  formatEffectInterval,
  formatPp,
  hasIntervalSpread,
  type ConditionEffectSummary,
  type ReportedConditionEffect,
} from "@/lib/results/condition-effect";
import type { UnexcludedSummary } from "@/lib/results/summarize";
import { RESULT_COLUMNS } from "@/lib/results/task-columns";
import type { ConditionCounts, ConditionEffect } from "@/lib/stats/crossed-bootstrap";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { HeaderRow } from "./header-row";
import { formatPercent } from "./format";
import { DataTable, Th } from "@/components/ui/data-table";

const TD = "px-2 py-1 tabular-nums whitespace-nowrap";
const STICKY = "sticky left-0 z-10 bg-white";

function interval(e: ConditionEffect): string {
  return e.low === null || e.high === null ? "–" : formatEffectInterval(e);
}

function CountCells({ c }: { c: ConditionCounts }) {
  return (
    <>
      <td className={`${TD} border-l border-slate-300`}>{c.nParticipants}</td>
      <td className={TD}>{c.nItems}</td>
      <td className={TD}>{c.nAnswers}</td>
      <td className={TD}>{formatPercent(c.accuracy)}</td>
    </>
  );
}

function EffectRow({
  id,
  label,
  detail,
  e,
}: {
  id: string;
  label: string;
  detail?: string;
  e: ReportedConditionEffect;
}) {
  return (
    <tr className="border-b border-slate-200" data-testid={`condition-effect-${id}`}>
      <Th variant="ruled" scope="row" className={`${STICKY} whitespace-nowrap`}>
        {label} {detail ? <span className="text-xs font-normal text-slate-600">{detail}</span> : null}
      </Th>
      <CountCells c={e.byCondition.static} />
      <CountCells c={e.byCondition.interactive} />
      <td className={`${TD} border-l border-slate-300 font-medium`} data-testid="condition-effect-estimate">
        {e.estimate === null ? "–" : `${formatPp(e.estimate)} pp`}
      </td>
      <td
        className={TD}
        title={
          e.estimate === null
            ? "A condition has no answers in this task"
            : `Welch t interval on participants: SE ${e.standardError === null ? "–" : formatPp(e.standardError).replace("+", "")} pp, df ${e.df === null ? "–" : e.df.toFixed(1)}; crossed bootstrap for checking ${formatEffectInterval({ low: e.bootstrapLow, high: e.bootstrapHigh })} (${e.replicates} replicates, ${e.skipped} without both conditions)`
        }
      >
        {interval(e)}
      </td>
    </tr>
  );
}

/** One plain sentence for the overall estimate. */
export function describeConditionEffect(e: ConditionEffect): string {
  if (e.estimate === null || !hasIntervalSpread(e)) return "";
  const size = formatPp(Math.abs(e.estimate)).replace("+", "");
  const direction =
    size === "0.0"
      ? "as often"
      : e.estimate > 0
        ? `${size} percentage points more often`
        : `${size} percentage points less often`;
  const verdict =
    e.low > 0
      ? "the interval lies above zero"
      : e.high < 0
        ? "the interval lies below zero"
        : "the interval includes zero, so these data do not settle the direction";
  return `Over all tasks, answers with the interactive 3D view were exactly right ${direction} than answers with static images (95% interval ${formatPp(e.low)} to ${formatPp(e.high)} pp); ${verdict}. The interval treats each participant's accuracy as one observation, so it allows for people differing in skill, not only for answer-to-answer chance; it is about these questions, which both conditions answered.`;
}

/** The "Condition effect" section of the results page: interactive − static per task and overall. */
export function ConditionEffectSection({
  summary,
  unexcluded,
}: {
  summary: ConditionEffectSummary | null;
  unexcluded: UnexcludedSummary | null;
}) {
  return (
    <section
      id="condition-effect"
      aria-labelledby="condition-effect-h"
      className="mt-10 scroll-mt-4"
      data-testid="condition-effect"
    >
      <h2 id="condition-effect-h" className="text-xl font-semibold">
        Condition effect: interactive − static
      </h2>
      <p className="text-sm text-slate-700">{CONDITION_EFFECT_NOTE}</p>
      <p className="mt-1 text-sm text-slate-700" data-testid="condition-model-formula">
        The analysis package&apos;s model (analysis.R, lme4::glmer, binomial, on the same answers):{" "}
        <code className="font-mono">{CONDITION_MODEL_FORMULA}</code>, treatment coding with static and the
        alphabetically first task as references; it prints each task&apos;s condition effect on the log-odds scale and a
        likelihood-ratio test of condition against the model without it.
      </p>
      {summary === null ? (
        <p className="mt-3 text-sm">No main-phase answers yet.</p>
      ) : !summary.estimable ? (
        <p className="mt-3 text-sm" data-testid="condition-effect-needs-both">
          Needs both conditions: this comparison needs answers in the static and the interactive condition;{" "}
          {summary.overall.byCondition.static.nAnswers > 0
            ? `only the static condition has answers here (${summary.overall.nAnswers})`
            : summary.overall.byCondition.interactive.nAnswers > 0
              ? `only the interactive condition has answers here (${summary.overall.nAnswers})`
              : "neither has answers here"}
          .
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm" data-testid="condition-effect-sentence">
            {describeConditionEffect(summary.overall)}
          </p>
          <DataTable variant="ruled" className="mt-3 max-w-full">
            <caption className="py-1 text-left text-slate-700">
              Exact accuracy per condition and the difference with its Welch t interval on participants (the interval
              the planner plans for); the crossed bootstrap for checking in each interval&apos;s tooltip (
              {summary.overall.replicates} replicates, seed <span className="font-mono">{summary.overall.seed}</span>;
              docs/condition-effect.md; the exported R and Python scripts recompute both).
            </caption>
            <thead>
              <tr className="bg-slate-50 text-xs text-slate-700">
                <th className={`px-2 pt-1 text-left font-medium ${STICKY}`} />
                <th scope="colgroup" colSpan={4} className="border-l border-slate-300 px-2 pt-1 text-left font-medium">
                  Static
                </th>
                <th scope="colgroup" colSpan={4} className="border-l border-slate-300 px-2 pt-1 text-left font-medium">
                  Interactive
                </th>
                <th scope="colgroup" colSpan={2} className="border-l border-slate-300 px-2 pt-1 text-left font-medium">
                  Interactive − static
                </th>
              </tr>
              <HeaderRow
                labels={[
                  "Task",
                  "People",
                  "Items",
                  "Answers",
                  "Exact %",
                  "People",
                  "Items",
                  "Answers",
                  "Exact %",
                  "Difference",
                  "95% interval",
                ]}
                stickyFirst
              />
            </thead>
            <tbody>
              {summary.columns.map((c) => (
                <EffectRow
                  key={c.column}
                  id={c.column}
                  label={c.label}
                  detail={taskDisplayName(RESULT_COLUMNS[c.column].taskId)}
                  e={c.effect}
                />
              ))}
              <EffectRow id="overall" label="All tasks" e={summary.overall} />
            </tbody>
          </DataTable>
          {unexcluded ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="condition-effect-unexcluded">
              These differences leave out the {unexcluded.nExcludedParticipants} participant(s) the study&apos;s
              exclusion policy excludes ({unexcluded.nExcludedResponses} answers; see &quot;Integrity and
              exclusions&quot;). With them kept in: all tasks{" "}
              {formatConditionEffect(unexcluded.conditionEffect.overall)}
              {unexcluded.conditionEffect.columns
                .map((c) => `; ${c.label} ${formatConditionEffect(c.effect)}`)
                .join("")}
              .
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
