import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { ThreeDUsageSection } from "@/components/results/three-d-usage-section";

/** The results page's section: How the 3D view was used. */
export function ThreeDSection({ ctx }: { ctx: ResultsPageContext }) {
  const { threeD } = ctx;
  return (
    <section id="three-d" aria-labelledby="three-d-h" className={SECTION}>
      <h2 id="three-d-h" className="text-xl font-semibold">
        How the 3D view was used
      </h2>
      <ThreeDUsageSection
        usage={threeD}
        replayHref={(study, response) => `/admin/results/${study}/replay/${response}`}
      />
    </section>
  );
}
