import { resultsPageContext, type ResultsPageViewProps } from "./results-page/context";
import { ResultsHeader } from "./results-page/header";
import { HumanSection } from "./results-page/human-section";
import { IntegrityPart } from "./results-page/integrity-section";
import { ShortcutsSection } from "./results-page/shortcuts-section";
import { ChartsSection } from "./results-page/charts-section";
import { ThreeDSection } from "./results-page/three-d-section";
import { ItemsSection } from "./results-page/items-section";
import { ModelsSection } from "./results-page/models-section";
import { PlanningSection } from "./results-page/planning-section";
import { PaperTablesSection } from "./results-page/paper-tables-section";
import { ExportsSection } from "./results-page/exports-section";

export type { ResultsPageViewProps } from "./results-page/context";

/**
 * The results page's body: every section, from data already computed (app/admin/results/[studyId]/page.tsx fetches
 * it), one file per section under results-page/. Plain props in, markup out, so the page's weight can be measured
 * without a server (bench/heavy-work.mts).
 */
export function ResultsPageView(props: ResultsPageViewProps) {
  const ctx = resultsPageContext(props);
  return (
    <main className="mx-auto max-w-7xl px-6 py-8">
      <ResultsHeader ctx={ctx} />
      <HumanSection ctx={ctx} />
      <IntegrityPart ctx={ctx} />
      <ShortcutsSection ctx={ctx} />
      <ChartsSection ctx={ctx} />
      <ThreeDSection ctx={ctx} />
      <ItemsSection ctx={ctx} />
      <ModelsSection ctx={ctx} />
      <PlanningSection ctx={ctx} />
      <PaperTablesSection ctx={ctx} />
      <ExportsSection ctx={ctx} />
    </main>
  );
}
