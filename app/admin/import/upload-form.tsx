"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

type Kind = "auto" | "bundle" | "misi" | "vlmevalkit" | "structures";

interface BatchView {
  id: string;
  status: string;
  reportLines: string[];
  progress: {
    phase: string;
    currentFile: string | null;
    recordsRead: number;
    imported: number;
    duplicates: number;
    skipped: number;
    bytesRead: number;
    bytesTotal: number;
  } | null;
}

type State =
  | { step: "idle" }
  | { step: "uploading"; loaded: number; total: number }
  | { step: "importing"; batchId: string; batch: BatchView | null }
  | { step: "done"; batch: BatchView }
  | { step: "error"; message: string; batchId?: string };

const KINDS: Array<[Kind, string]> = [
  ["auto", "Detect automatically"],
  ["bundle", "Item bundle (this app's export)"],
  ["misi", "MiSI-Bench release (zip, tar.gz, JSON/JSONL/CSV/TSV)"],
  ["vlmevalkit", "VLMEvalKit TSV"],
  ["structures", "Structures (PDB/SDF/MOL2, or a zip of them)"],
];

/** Milliseconds between two status polls while the server imports. */
const POLL_INTERVAL_MS = 1000;

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((100 * part) / whole)) : 0;
}

/** Upload with progress (XHR reports upload bytes; fetch does not), then poll the batch until the report is ready. */
export function ImportUploadForm() {
  const router = useRouter();
  const [state, setState] = useState<State>({ step: "idle" });
  const [kind, setKind] = useState<Kind>("auto");
  const xhrRef = useRef<XMLHttpRequest | null>(null);

  useEffect(() => {
    if (state.step !== "importing") return;
    let stopped = false;
    const poll = async () => {
      try {
        const res = await fetch(`/api/admin/import/${encodeURIComponent(state.batchId)}`, { cache: "no-store" });
        if (!res.ok) throw new Error(`status ${res.status}`);
        const batch = (await res.json()) as BatchView;
        if (stopped) return;
        if (batch.status === "running" || batch.status === "queued" || batch.status === "uploading")
          setState({ step: "importing", batchId: state.batchId, batch });
        else {
          setState({ step: "done", batch });
          router.refresh();
        }
      } catch (e) {
        if (!stopped)
          setState({
            step: "error",
            message: `Lost track of the import (${(e as Error).message}); see the list below.`,
            batchId: state.batchId,
          });
      }
    };
    const timer = setInterval(poll, POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [state, router]);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) {
      setState({ step: "error", message: "Choose a non-empty file first." });
      return;
    }
    const params = new URLSearchParams({ name: file.name, kind, dryRun: form.get("dryRun") ? "1" : "0" });
    const ligand = String(form.get("ligand") ?? "").trim();
    if (ligand) params.set("ligand", ligand);
    const generate = String(form.get("generate") ?? "").trim();
    if (generate) {
      params.set("generate", generate);
      params.set("perTask", String(form.get("perTask") ?? ""));
      params.set("seed", String(form.get("seed") ?? ""));
      const size = String(form.get("size") ?? "").trim();
      if (size) params.set("size", size);
    }
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open("POST", `/api/admin/import?${params}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) =>
      setState({ step: "uploading", loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onerror = () => setState({ step: "error", message: "The upload failed (network error)." });
    xhr.onabort = () => setState({ step: "error", message: "Upload cancelled." });
    xhr.onload = () => {
      let body: { batchId?: string; error?: { message?: string; details?: Array<{ path: string; message: string }> } } =
        {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // handled below
      }
      if (xhr.status === 202 && body.batchId) setState({ step: "importing", batchId: body.batchId, batch: null });
      else {
        const details = body.error?.details?.map((d) => `${d.path}: ${d.message}`).join("; ");
        setState({
          step: "error",
          message: `${body.error?.message ?? `Upload refused (HTTP ${xhr.status}).`}${details ? ` ${details}` : ""}`,
        });
      }
    };
    setState({ step: "uploading", loaded: 0, total: file.size });
    xhr.send(file);
  }

  const busy = state.step === "uploading" || state.step === "importing";
  return (
    <div>
      <form
        onSubmit={submit}
        className="grid gap-4 rounded border border-slate-300 bg-white p-4 sm:grid-cols-2"
        aria-label="Import a file"
      >
        <div className="sm:col-span-2">
          <label htmlFor="import-file" className="block text-sm font-medium">
            File
          </label>
          <input
            id="import-file"
            name="file"
            type="file"
            required
            disabled={busy}
            accept=".zip,.tar,.tar.gz,.tgz,.tsv,.csv,.json,.jsonl,.ndjson,.pdb,.ent,.sdf,.sd,.mol,.mol2"
            aria-describedby="import-file-help"
            className="mt-1 block w-full text-sm"
          />
          <p id="import-file-help" className="mt-1 text-xs text-slate-600">
            A bundle zip from <code>npm run generate</code>, the MiSI-Bench release archive, a VLMEvalKit TSV, or
            structure files (zip several PDB/SDF/MOL2 files together to pair proteins with ligands). Large files are
            streamed; up to 4 GB.
          </p>
        </div>
        <div>
          <label htmlFor="import-kind" className="block text-sm font-medium">
            Kind
          </label>
          <select
            id="import-kind"
            value={kind}
            disabled={busy}
            onChange={(e) => setKind(e.target.value as Kind)}
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
          >
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="import-ligand" className="block text-sm font-medium">
            Ligand residue (structures only, optional)
          </label>
          <input
            id="import-ligand"
            name="ligand"
            disabled={busy || (kind !== "structures" && kind !== "auto")}
            placeholder="e.g. NDP:A:701"
            aria-describedby="import-ligand-help"
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
          />
          <p id="import-ligand-help" className="mt-1 text-xs text-slate-600">
            For PDB files without a ligand file; otherwise the largest ligand-like residue is used.
          </p>
        </div>
        <fieldset
          className="grid gap-3 rounded border border-slate-200 p-3 sm:col-span-2 sm:grid-cols-4"
          disabled={busy || (kind !== "structures" && kind !== "auto")}
        >
          <legend className="px-1 text-sm font-medium">Generate items from the structures (optional)</legend>
          <div>
            <label htmlFor="import-generate" className="block text-sm">
              Tasks
            </label>
            <input
              id="import-generate"
              name="generate"
              placeholder="all, or t1,t2,t8"
              aria-describedby="import-generate-help"
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
            />
          </div>
          <div>
            <label htmlFor="import-per-task" className="block text-sm">
              Items per task
            </label>
            <input
              id="import-per-task"
              name="perTask"
              type="number"
              min={1}
              max={1000}
              defaultValue={10}
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
            />
          </div>
          <div>
            <label htmlFor="import-seed" className="block text-sm">
              Seed
            </label>
            <input
              id="import-seed"
              name="seed"
              placeholder="e.g. pilot-1"
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
            />
          </div>
          <div>
            <label htmlFor="import-size" className="block text-sm">
              Image size (px)
            </label>
            <input
              id="import-size"
              name="size"
              type="number"
              min={16}
              max={4096}
              defaultValue={1024}
              className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
            />
          </div>
          <p id="import-generate-help" className="text-xs text-slate-600 sm:col-span-4">
            Leave Tasks empty to store the structures only. With tasks, items are generated and rendered by the task
            engine (the same seed gives the same items) and stored with their answer keys; this can take minutes for
            many items.
          </p>
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="dryRun" disabled={busy} /> Dry run (check everything, write nothing)
        </label>
        <div className="flex items-center gap-3 sm:col-span-2">
          <button
            type="submit"
            disabled={busy}
            className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-50"
          >
            Upload and import
          </button>
          {state.step === "uploading" ? (
            <button type="button" onClick={() => xhrRef.current?.abort()} className="text-sm underline">
              Cancel upload
            </button>
          ) : null}
        </div>
      </form>

      <div aria-live="polite" className="mt-4">
        {state.step === "uploading" ? (
          <div>
            <label htmlFor="upload-progress" className="text-sm">
              Uploading: {percent(state.loaded, state.total)}% ({(state.loaded / 1e6).toFixed(1)} of{" "}
              {(state.total / 1e6).toFixed(1)} MB)
            </label>
            <progress
              id="upload-progress"
              max={100}
              value={percent(state.loaded, state.total)}
              className="mt-1 block w-full"
            />
          </div>
        ) : null}
        {state.step === "importing" ? (
          <div>
            <p className="text-sm">
              Importing
              {state.batch?.progress
                ? ` (${state.batch.progress.phase}${state.batch.progress.currentFile ? `: ${state.batch.progress.currentFile}` : ""})`
                : "…"}
              {state.batch?.progress
                ? ` · read ${state.batch.progress.recordsRead} · imported ${state.batch.progress.imported} · duplicates ${state.batch.progress.duplicates} · skipped ${state.batch.progress.skipped}`
                : ""}
            </p>
            <progress
              aria-label="Import progress"
              max={100}
              {...(state.batch?.progress && state.batch.progress.bytesTotal > 0
                ? { value: percent(state.batch.progress.bytesRead, state.batch.progress.bytesTotal) }
                : {})}
              className="mt-1 block w-full"
            />
          </div>
        ) : null}
        {state.step === "error" ? (
          <p role="alert" className="text-sm text-red-700">
            {state.message}
            {state.batchId ? (
              <>
                {" "}
                <Link href={`/admin/import/${state.batchId}`} className="underline">
                  Open the batch
                </Link>
              </>
            ) : null}
          </p>
        ) : null}
        {state.step === "done" ? (
          <section aria-labelledby="last-report">
            <h2 id="last-report" className="text-lg font-semibold">
              Import{" "}
              {state.batch.status === "failed"
                ? "failed"
                : state.batch.status === "dry_run"
                  ? "checked (dry run)"
                  : "finished"}
            </h2>
            <pre className="mt-2 max-h-96 overflow-auto rounded border border-slate-300 bg-slate-50 p-3 text-xs whitespace-pre-wrap">
              {state.batch.reportLines.join("\n")}
            </pre>
            <Link href={`/admin/import/${state.batch.id}`} className="text-sm underline">
              Full report
            </Link>
          </section>
        ) : null}
      </div>
    </div>
  );
}
