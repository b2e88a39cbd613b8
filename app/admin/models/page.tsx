import type { Metadata } from "next";
import Link from "next/link";
import { DeleteRunButton } from "@/components/results/delete-run-button";
import { ModelImportForm } from "@/components/results/model-import-form";
import { PaperReferenceTable } from "@/components/results/paper-reference-table";
import { ANSWER_EXTRACTION_RULE, ANSWER_EXTRACTION_RULE_VERSION } from "@/lib/model-import/extract-answer";
import { listModelRuns } from "@/lib/server/dal/models/list-model-runs";
import { listResultStudies } from "@/lib/server/dal/results/list-result-studies";
import { requirePageRole } from "@/lib/server/guards";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { UtcTime } from "@/components/utc-time";

export const metadata: Metadata = { title: "Model runs" };
export const dynamic = "force-dynamic";

const TH = "px-2 py-1 text-left font-medium";

export default async function ModelRunsPage() {
  const user = await requirePageRole("researcher", "/admin/models");
  const [runs, studies] = await Promise.all([listModelRuns(), listResultStudies(user)]);
  return (
    <main className="mx-auto max-w-6xl px-6 py-8">
      <p className="text-sm">
        <Link href="/admin/results" className="underline">
          ← Results
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Model runs</h1>
      <p className="mt-1 text-sm text-slate-700">
        Model outputs are scored with the same task scorers as human answers and compared item by item on each study&apos;s results page. Importing the same
        file twice stores it once.
      </p>

      <section aria-labelledby="import-h" className="mt-6">
        <h2 id="import-h" className="text-xl font-semibold">
          Import predictions
        </h2>
        <div className="mt-2">
          <ModelImportForm studies={studies.map((s) => ({ id: s.id, label: `${s.name} (${s.slug})` }))} />
        </div>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium">How answers are read from model output (rule v{ANSWER_EXTRACTION_RULE_VERSION})</summary>
          <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-100 p-2 text-xs">{ANSWER_EXTRACTION_RULE}</pre>
        </details>
      </section>

      <section aria-labelledby="runs-h" className="mt-8">
        <h2 id="runs-h" className="text-xl font-semibold">
          Imported runs
        </h2>
        {runs.length === 0 ? (
          <p className="mt-2 text-sm">None yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="mt-2 min-w-full border-collapse text-sm">
              <thead>
                <tr className="border-b border-slate-400 bg-slate-100">
                  <th scope="col" className={TH}>
                    Run
                  </th>
                  <th scope="col" className={TH}>
                    Format / file
                  </th>
                  <th scope="col" className={TH}>
                    Predictions
                  </th>
                  <th scope="col" className={TH}>
                    Unparseable
                  </th>
                  <th scope="col" className={TH}>
                    Rows not stored
                  </th>
                  <th scope="col" className={TH}>
                    Answer ≠ gold
                  </th>
                  <th scope="col" className={TH}>
                    Per task
                  </th>
                  <th scope="col" className={TH}>
                    Imported
                  </th>
                  {user.role === "admin" ? (
                    <th scope="col" className={TH}>
                      <span className="sr-only">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {runs.map((r) => (
                  <tr key={r.id} className="border-b border-slate-200 align-top">
                    <th scope="row" className={`${TH} font-normal`}>
                      {r.name}
                      {r.name !== r.model ? <span className="block text-xs text-slate-600">{r.model}</span> : null}
                    </th>
                    <td className="px-2 py-1">
                      {r.source}
                      <span className="block font-mono text-xs text-slate-600">{r.fileName}</span>
                    </td>
                    <td className="px-2 py-1 tabular-nums">{r.nPredictions}</td>
                    <td className="px-2 py-1 tabular-nums">{r.nUnparseable}</td>
                    <td className="px-2 py-1 tabular-nums">{r.nSkipped}</td>
                    <td className="px-2 py-1 tabular-nums">{r.nReferenceMismatches}</td>
                    <td className="px-2 py-1 text-xs">
                      {Object.entries(r.byTask)
                        .map(([t, n]) => `${taskDisplayName(t)} ${n}`)
                        .join(", ")}
                    </td>
                    <td className="px-2 py-1 text-xs">
                      <UtcTime value={r.importedAt} />{r.importedBy ? ` by ${r.importedBy}` : ""}
                    </td>
                    {user.role === "admin" ? (
                      <td className="px-2 py-1">
                        <DeleteRunButton runId={r.id} name={r.name} />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="paper-h" className="mt-8">
        <h2 id="paper-h" className="text-xl font-semibold">
          The paper&apos;s rows (as reported)
        </h2>
        <p className="text-sm text-slate-700">Preloaded from the paper; computed by its authors on their own items, so they are context, not an item-matched comparison.</p>
        <div className="mt-2 space-y-4">
          <PaperReferenceTable metric="exact" />
          <PaperReferenceTable metric="partial" />
        </div>
      </section>
    </main>
  );
}
