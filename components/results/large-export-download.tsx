"use client";

import { useRef, useState } from "react";
import { formatFixed } from "@/lib/results/rounding";

interface Estimate {
  responses: { rows: number; bytes: number };
  tsv: { items: number; images: number; bytes: number };
}

type State =
  | { kind: "idle" }
  | { kind: "estimating" }
  | { kind: "confirm"; bytes: number; detail: string }
  | { kind: "downloading"; loaded: number; estimate: number }
  | { kind: "done"; loaded: number }
  | { kind: "error"; message: string };

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${formatFixed(bytes / MB, bytes < 10 * MB ? 1 : 0)} MB`;
}

/** The file name from Content-Disposition (RFC 5987 form first), else a fallback. */
function fileNameOf(header: string | null, fallback: string): string {
  const star = header && /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = header && /filename="([^"]+)"/i.exec(header);
  return plain?.[1] ?? fallback;
}

/**
 * A download of a large export (responses, VLMEvalKit TSV): first the estimated size (asked from
 * the server), then the download with a progress bar against that estimate, cancellable; the file
 * is saved when complete.
 */
export function LargeExportDownload({
  href,
  estimateHref,
  which,
  label,
  fallbackName,
}: {
  href: string;
  estimateHref: string;
  which: "responses" | "tsv";
  label: string;
  fallbackName: string;
}) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const abort = useRef<AbortController | null>(null);

  const estimate = async () => {
    setState({ kind: "estimating" });
    try {
      const res = await fetch(estimateHref, { cache: "no-store" });
      if (!res.ok) throw new Error(`The size estimate failed (${res.status}).`);
      const e = (await res.json()) as Estimate;
      const bytes = which === "responses" ? e.responses.bytes : e.tsv.bytes;
      const detail =
        which === "responses"
          ? `${e.responses.rows.toLocaleString("en")} rows`
          : `${e.tsv.items} items, ${e.tsv.images} images`;
      setState({ kind: "confirm", bytes, detail });
    } catch (err) {
      setState({ kind: "error", message: err instanceof Error ? err.message : "The size estimate failed." });
    }
  };

  const download = async (estimateBytes: number) => {
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: "downloading", loaded: 0, estimate: estimateBytes });
    try {
      const res = await fetch(href, { signal: controller.signal, cache: "no-store" });
      if (!res.ok || !res.body) throw new Error(`The export failed (${res.status}).`);
      const reader = res.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let loaded = 0;
      let lastUpdate = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        loaded += value.length;
        if (loaded - lastUpdate > 256 * 1024) {
          lastUpdate = loaded;
          setState({ kind: "downloading", loaded, estimate: estimateBytes });
        }
      }
      const url = URL.createObjectURL(
        new Blob(chunks, { type: res.headers.get("Content-Type") ?? "application/octet-stream" }),
      );
      const a = document.createElement("a");
      a.href = url;
      a.download = fileNameOf(res.headers.get("Content-Disposition"), fallbackName);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setState({ kind: "done", loaded });
    } catch (err) {
      setState(
        controller.signal.aborted
          ? { kind: "idle" }
          : { kind: "error", message: err instanceof Error ? err.message : "The export failed." },
      );
    } finally {
      abort.current = null;
    }
  };

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="text-blue-700 underline disabled:text-slate-500"
        disabled={state.kind === "estimating" || state.kind === "downloading"}
        onClick={() => void estimate()}
      >
        {label}
      </button>
      {state.kind === "estimating" ? <span className="text-slate-600">estimating the size…</span> : null}
      {state.kind === "confirm" ? (
        <span role="status">
          about {megabytes(state.bytes)} ({state.detail}).{" "}
          <button
            type="button"
            className="rounded border border-slate-500 px-2"
            onClick={() => void download(state.bytes)}
          >
            Download
          </button>{" "}
          <button type="button" className="underline" onClick={() => setState({ kind: "idle" })}>
            Cancel
          </button>
        </span>
      ) : null}
      {state.kind === "downloading" ? (
        <span role="status" className="inline-flex items-center gap-2">
          <progress
            max={Math.max(state.estimate, state.loaded, 1)}
            value={state.loaded}
            aria-label={`${label}: downloaded`}
            className="w-40"
          />
          {megabytes(state.loaded)} of about {megabytes(state.estimate)}
          <button type="button" className="underline" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </span>
      ) : null}
      {state.kind === "done" ? <span role="status">saved ({megabytes(state.loaded)}).</span> : null}
      {state.kind === "error" ? (
        <span role="alert" className="text-red-800">
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
