"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";

interface FileIssue {
  file: string;
  line: number | null;
  field: string | null;
  problem: string;
}

interface ImportResult {
  status: "created" | "duplicate";
  runId: string;
  format: string;
  nRows: number;
  nMatched: number;
  nUnparseable: number;
  skipped: FileIssue[];
  warnings: FileIssue[];
  referenceMismatches: FileIssue[];
}

type Outcome = { kind: "ok"; result: ImportResult } | { kind: "error"; message: string; problems: FileIssue[] } | null;

function describeIssue(i: FileIssue): string {
  return `${i.file}${i.line !== null ? `, line ${i.line}` : ""}${i.field ? `, ${i.field}` : ""}: ${i.problem}`;
}

function IssueList({ title, issues }: { title: string; issues: FileIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <details className="mt-2">
      <summary className="cursor-pointer">
        {title} ({issues.length})
      </summary>
      <ul className="list-disc pl-5 font-mono text-xs">
        {issues.slice(0, 100).map((i, n) => (
          <li key={n}>{describeIssue(i)}</li>
        ))}
      </ul>
    </details>
  );
}

/** Uploads a prediction file to POST /api/admin/models and shows what was matched, skipped and unparseable. */
export function ModelImportForm({ studies }: { studies: { id: string; label: string }[] }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const ids = { file: useId(), model: useId(), name: useId(), study: useId(), format: useId() };

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setOutcome(null);
    try {
      const response = await fetch("/api/admin/models", { method: "POST", body: new FormData(event.currentTarget) });
      const body = (await response.json().catch(() => null)) as
        | (ImportResult & {
            error?: {
              message: string;
              details?: { problems?: FileIssue[] } | Array<{ path: string; message: string }>;
            };
          })
        | null;
      if (!response.ok || !body || body.error) {
        const details = body?.error?.details;
        const problems = Array.isArray(details)
          ? details.map((d) => ({ file: "form", line: null, field: d.path, problem: d.message }))
          : (details?.problems ?? []);
        setOutcome({
          kind: "error",
          message: body?.error?.message ?? `Import failed (HTTP ${response.status}).`,
          problems,
        });
      } else {
        setOutcome({ kind: "ok", result: body });
        router.refresh();
      }
    } catch (err) {
      setOutcome({ kind: "error", message: err instanceof Error ? err.message : String(err), problems: [] });
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="grid max-w-2xl gap-3 rounded border border-slate-300 bg-white p-4 text-sm"
    >
      <div>
        <label htmlFor={ids.file} className="block font-medium">
          Prediction file
        </label>
        <input
          id={ids.file}
          name="file"
          type="file"
          required
          accept=".xlsx,.tsv,.csv,.jsonl,.json"
          className="mt-1"
          aria-describedby={`${ids.file}-help`}
        />
        <p id={`${ids.file}-help`} className="text-xs text-slate-600">
          VLMEvalKit <code>.xlsx</code>/<code>.tsv</code> (columns index, prediction, answer, category…), lmms-eval{" "}
          <code>samples_*.jsonl</code>, or a CSV <code>item_id,prediction</code>. Rows are matched by item id, else by
          external id.
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={ids.model} className="block font-medium">
            Model
          </label>
          <input
            id={ids.model}
            name="model"
            required
            maxLength={200}
            placeholder="e.g. GPT-4o-2024-08-06"
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
          />
        </div>
        <div>
          <label htmlFor={ids.name} className="block font-medium">
            Display name <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id={ids.name}
            name="name"
            maxLength={200}
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
          />
        </div>
        <div>
          <label htmlFor={ids.study} className="block font-medium">
            Match within study <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <select
            id={ids.study}
            name="studyId"
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
            defaultValue=""
          >
            <option value="">any item</option>
            {studies.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.format} className="block font-medium">
            Format
          </label>
          <select
            id={ids.format}
            name="format"
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
            defaultValue=""
          >
            <option value="">detect from the file</option>
            <option value="vlmevalkit-xlsx">VLMEvalKit xlsx</option>
            <option value="vlmevalkit-tsv">VLMEvalKit tsv</option>
            <option value="vlmevalkit-csv">VLMEvalKit csv</option>
            <option value="lmms-eval-jsonl">lmms-eval samples jsonl</option>
            <option value="plain-csv">CSV item_id,prediction</option>
          </select>
        </div>
      </div>
      <div>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-slate-800 px-3 py-1.5 text-white hover:bg-slate-700 disabled:opacity-50"
        >
          {pending ? "Importing…" : "Import"}
        </button>
      </div>
      <div role="status" aria-live="polite">
        {outcome?.kind === "ok" ? (
          <div className="rounded border border-green-300 bg-green-50 p-2">
            <p>
              {outcome.result.status === "duplicate"
                ? "This exact file was imported before; nothing new was stored."
                : "Imported."}{" "}
              Format {outcome.result.format}: {outcome.result.nMatched} of {outcome.result.nRows} rows matched items,{" "}
              {outcome.result.nUnparseable} unparseable (scored as wrong).
            </p>
            <IssueList title="Rows not stored" issues={outcome.result.skipped} />
            <IssueList title="Warnings" issues={outcome.result.warnings} />
            <IssueList
              title="File answers that differ from this app's gold"
              issues={outcome.result.referenceMismatches}
            />
          </div>
        ) : null}
        {outcome?.kind === "error" ? (
          <div role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-red-900">
            <p>{outcome.message}</p>
            <IssueList title="Problems" issues={outcome.problems} />
          </div>
        ) : null}
      </div>
    </form>
  );
}
