"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** Deletes an imported run through DELETE /api/admin/models/:id after a confirmation (admins only; the API checks). */
export function DeleteRunButton({ runId, name }: { runId: string; name: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function remove() {
    if (!window.confirm(`Delete the run "${name}" and all its predictions?`)) return;
    setPending(true);
    setError(null);
    const response = await fetch(`/api/admin/models/${encodeURIComponent(runId)}`, { method: "DELETE" });
    setPending(false);
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(body?.error?.message ?? `HTTP ${response.status}`);
      return;
    }
    router.refresh();
  }
  return (
    <span>
      <button
        type="button"
        onClick={() => void remove()}
        disabled={pending}
        className="rounded border border-red-400 px-2 py-0.5 text-xs text-red-800 hover:bg-red-50 disabled:opacity-50"
      >
        {pending ? "Deleting…" : "Delete"}
      </button>
      {error ? (
        <span role="alert" className="ml-1 text-xs text-red-800">
          {error}
        </span>
      ) : null}
    </span>
  );
}
