import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { SampleSizePlanner } from "@/components/results/sample-size-planner";

/** The results page's section: How many participants?. */
export function PlanningSection({ ctx }: { ctx: ResultsPageContext }) {
  const { page, human } = ctx;
  return (
    <section id="planning" aria-labelledby="planning-h" className={SECTION}>
      <h2 id="planning-h" className="text-xl font-semibold">
        How many participants?
      </h2>
      <p className="text-sm text-slate-700">
        Recomputed from this study&apos;s answers as a pilot ({human.nResponses} main-phase answers): observed accuracy
        and between-participant ICC per column, where there are answers; the paper&apos;s human row and the assumed ICC
        elsewhere.
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
  );
}
