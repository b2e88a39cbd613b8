import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { ItemAnalysisSection } from "@/components/results/item-analysis-section";

/** The results page's section: Item analysis. */
export function ItemsSection({ ctx }: { ctx: ResultsPageContext }) {
  const { studyId, flagAction, items } = ctx;
  return (
    <section id="items" aria-labelledby="items-h" className={SECTION}>
      <h2 id="items-h" className="text-xl font-semibold">
        Item analysis
      </h2>
      {items.problems.length > 0 ? <p role="alert">{items.problems.slice(0, 5).join("; ")}</p> : null}
      <div className="mt-3">
        <ItemAnalysisSection dto={items} studyId={studyId} flagAction={flagAction} />
      </div>
    </section>
  );
}
