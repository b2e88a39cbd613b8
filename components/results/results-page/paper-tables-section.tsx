import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { buildPaperTable, formatPaperTableLatex } from "@/lib/results/paper-table";

/** The results page's section: Paper-style tables. */
export function PaperTablesSection({ ctx }: { ctx: ResultsPageContext }) {
  const { condition, models, summary, runNames, paperTableHref } = ctx;
  return (
    <section id="paper-tables" aria-labelledby="paper-tables-h" className={SECTION}>
      <h2 id="paper-tables-h" className="text-xl font-semibold">
        Paper-style tables
      </h2>
      <p className="text-sm text-slate-700">
        The layout of the paper&apos;s Table 1 (partial credit) and Table 2 (exact match): this study&apos;s human row
        with its 95% interval (the rule above), the imported runs (item-matched
        {condition ? `, humans in the ${condition} condition` : ""}) and the paper&apos;s rows as reported. Same numbers
        and rounding as above.
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
  );
}
