import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { ConditionEffectSection } from "@/components/results/condition-effect";
import { GroupBreakdownTable, HumanResultsTable } from "@/components/results/human-results-table";
import { INTERVAL_RULE_NOTE } from "@/lib/results/interval-rule";

/** The results page's section: Human results per task, the condition effect. */
export function HumanSection({ ctx }: { ctx: ResultsPageContext }) {
  const { human, summary } = ctx;
  return (
    <>
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
    </>
  );
}
