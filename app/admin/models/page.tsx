import type { Metadata } from "next";
import { DeleteRunButton } from "@/components/results/delete-run-button";
import { ModelImportForm } from "@/components/results/model-import-form";
import { PaperReferenceTable } from "@/components/results/paper-reference-table";
import { ANSWER_EXTRACTION_RULE, ANSWER_EXTRACTION_RULE_VERSION } from "@/lib/model-import/extract-answer";
import { listModelRuns } from "@/lib/server/dal/models/list-model-runs";
import { listResultStudies } from "@/lib/server/dal/results/list-result-studies";
import { requirePageRole } from "@/lib/server/guards";
import { taskDisplayName } from "@/lib/tasks/display-name";
import { UtcTime } from "@/components/utc-time";
import { AdminPage } from "@/components/admin/page-shell";
import { BackLink } from "@/components/admin/back-link";
import { DataTable, TableHead, Td, Th } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Model runs" };
export const dynamic = "force-dynamic";

export default async function ModelRunsPage() {
  const user = await requirePageRole("researcher", "/admin/models");
  const [runs, studies] = await Promise.all([listModelRuns(), listResultStudies(user)]);
  return (
    <AdminPage>
      <BackLink href="/admin/results">Results</BackLink>
      <h1 className="mt-2 text-2xl font-semibold">Model runs</h1>
      <p className="mt-1 text-sm text-slate-700">
        Model outputs are scored with the same task scorers as human answers and compared item by item on each
        study&apos;s results page. Importing the same file twice stores it once.
      </p>

      <section aria-labelledby="import-h" className="mt-6">
        <h2 id="import-h" className="text-xl font-semibold">
          Import predictions
        </h2>
        <div className="mt-2">
          <ModelImportForm studies={studies.map((s) => ({ id: s.id, label: `${s.name} (${s.slug})` }))} />
        </div>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium">
            How answers are read from model output (rule v{ANSWER_EXTRACTION_RULE_VERSION})
          </summary>
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
          <DataTable variant="ruled" className="mt-2">
            <TableHead variant="ruled">
              <Th variant="ruled">Run</Th>
              <Th variant="ruled">Format / file</Th>
              <Th variant="ruled">Predictions</Th>
              <Th variant="ruled">Unparseable</Th>
              <Th variant="ruled">Rows not stored</Th>
              <Th variant="ruled">Answer ≠ gold</Th>
              <Th variant="ruled">Per task</Th>
              <Th variant="ruled">Imported</Th>
              {user.role === "admin" ? (
                <Th variant="ruled">
                  <span className="sr-only">Actions</span>
                </Th>
              ) : null}
            </TableHead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} className="border-b border-slate-200 align-top">
                  <Th variant="ruled" scope="row" className="font-normal">
                    {r.name}
                    {r.name !== r.model ? <span className="block text-xs text-slate-600">{r.model}</span> : null}
                  </Th>
                  <Td variant="ruled">
                    {r.source}
                    <span className="block font-mono text-xs text-slate-600">{r.fileName}</span>
                  </Td>
                  <Td variant="ruled" className="tabular-nums">
                    {r.nPredictions}
                  </Td>
                  <Td variant="ruled" className="tabular-nums">
                    {r.nUnparseable}
                  </Td>
                  <Td variant="ruled" className="tabular-nums">
                    {r.nSkipped}
                  </Td>
                  <Td variant="ruled" className="tabular-nums">
                    {r.nReferenceMismatches}
                  </Td>
                  <Td variant="ruled" className="text-xs">
                    {Object.entries(r.byTask)
                      .map(([t, n]) => `${taskDisplayName(t)} ${n}`)
                      .join(", ")}
                  </Td>
                  <Td variant="ruled" className="text-xs">
                    <UtcTime value={r.importedAt} />
                    {r.importedBy ? ` by ${r.importedBy}` : ""}
                  </Td>
                  {user.role === "admin" ? (
                    <Td variant="ruled">
                      <DeleteRunButton runId={r.id} name={r.name} />
                    </Td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </section>

      <section aria-labelledby="paper-h" className="mt-8">
        <h2 id="paper-h" className="text-xl font-semibold">
          The paper&apos;s rows (as reported)
        </h2>
        <p className="text-sm text-slate-700">
          Preloaded from the paper; computed by its authors on their own items, so they are context, not an item-matched
          comparison.
        </p>
        <div className="mt-2 space-y-4">
          <PaperReferenceTable metric="exact" />
          <PaperReferenceTable metric="partial" />
        </div>
      </section>
    </AdminPage>
  );
}
