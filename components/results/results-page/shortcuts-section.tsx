import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { ShortcutContextTable } from "@/components/results/shortcut-context-table";

/** The results page's section: Human accuracy beside chance and the best shortcut. */
export function ShortcutsSection({ ctx }: { ctx: ResultsPageContext }) {
  const { shortcuts, summary } = ctx;
  return (
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
  );
}
