import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { buildConditionChartData, buildTaskChartColumns } from "@/components/results/chart-data";
import { ConditionChart, TaskAccuracyChart } from "@/components/results/results-charts";

/** The results page's section: Charts. */
export function ChartsSection({ ctx }: { ctx: ResultsPageContext }) {
  const { models, summary, fileStem } = ctx;
  return (
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
  );
}
