import type { ResultsPageContext } from "./context";
import { SECTION } from "./context";
import { LargeExportDownload } from "@/components/results/large-export-download";

/** The results page's section: Exports. */
export function ExportsSection({ ctx }: { ctx: ResultsPageContext }) {
  const { studyId, scope, s, exportHref, fileStem } = ctx;
  return (
    <section id="exports" aria-labelledby="exports-h" className={SECTION}>
      <h2 id="exports-h" className="text-xl font-semibold">
        Exports
      </h2>
      <p className="text-sm text-slate-700">
        UTF-8 CSV with a header row, streamed; contains gold answers. Cells a spreadsheet would run as formulas start
        with an apostrophe.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        <li>
          <LargeExportDownload
            href={exportHref("responses")}
            estimateHref={`/api/export/${studyId}/estimate${scope === "pool" ? "?scope=pool" : ""}`}
            which="responses"
            label="Responses (long format, one row per answer)"
            fallbackName={`${fileStem}-responses.csv`}
          />{" "}
          ·{" "}
          <a href={exportHref("responses")} className="text-blue-700 underline">
            direct link
          </a>
        </li>
        <li>
          <a href={exportHref("task-summary")} className="text-blue-700 underline">
            Per-task summary
          </a>
        </li>
        <li>
          <a href={exportHref("item-summary")} className="text-blue-700 underline">
            Per-item summary
          </a>
        </li>
        <li>
          <a href={exportHref("participants")} className="text-blue-700 underline">
            Participants
          </a>
        </li>
        <li>
          <a href={exportHref("three-d-usage")} className="text-blue-700 underline">
            3D view usage per interactive answer
          </a>
        </li>
        <li>
          Pool items as a VLMEvalKit TSV (base64 PNG images) – run models on exactly the items humans saw; longest image
          side:{" "}
          {(["original", "1024", "768", "512"] as const).map((size, i) => (
            <span key={size}>
              {i > 0 ? " · " : ""}
              <LargeExportDownload
                href={`/api/export/${studyId}/vlmevalkit-tsv?size=${size}`}
                estimateHref={`/api/export/${studyId}/estimate?size=${size}`}
                which="tsv"
                label={size === "original" ? "as stored" : `${size} px`}
                fallbackName={`${s.study.slug}-items-vlmevalkit.tsv`}
              />
            </span>
          ))}
        </li>
        <li>
          <a href={exportHref("psych-ds")} className="text-blue-700 underline" data-testid="psych-ds-download">
            Analysis package (.tar.gz)
          </a>
          : a Psych-DS dataset (trials, participants, items, dataset_description.json) with analysis.R (base R + lme4)
          and analysis.py (pandas + statsmodels) that recompute this page&apos;s accuracies, intervals and the condition
          effect, and fit the condition model (docs/analysis-package.md).
        </li>
        <li>
          Codebook: {/* A file download from a route handler: a plain link, not client-side navigation. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a href="/api/export/codebook" className="text-blue-700 underline">
            CSV
          </a>{" "}
          · {/* A file download from a route handler: a plain link, not client-side navigation. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a href="/api/export/codebook?format=md" className="text-blue-700 underline">
            Markdown
          </a>
        </li>
      </ul>
    </section>
  );
}
