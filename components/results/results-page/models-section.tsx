import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import Link from "next/link";
import { ComparisonTable } from "@/components/results/comparison-table";
import { PaperReferenceTable } from "@/components/results/paper-reference-table";

/** The results page's section: Models vs humans. */
export function ModelsSection({ ctx }: { ctx: ResultsPageContext }) {
  const { condition, shortcuts, models, href } = ctx;
  return (
    <section id="models" aria-labelledby="models-h" className={SECTION}>
      <h2 id="models-h" className="text-xl font-semibold">
        Models vs humans
      </h2>
      <p className="text-sm text-slate-700">
        Imported model runs scored with the same task scorers on the items humans answered ({models.runs.length} run(s)
        with answers on this pool version;{" "}
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
  );
}
