"use client";

import { useId, useState } from "react";
import { listTaskDisplayNames, taskDisplayName } from "@/lib/tasks/display-name";

interface FoundItem {
  id: string;
  externalId: string | null;
  taskId: string;
  pdbId: string | null;
  questionExcerpt: string;
}

const PAGE_SIZE = 10;

/**
 * Picks items from the item browser (GET /api/admin/items: task filter and text search, active items
 * only) instead of typing raw ids. The chosen ids stay editable in the text box beside it.
 */
export function ItemPicker({
  label,
  chosen,
  onAdd,
  onRemove,
  defaultTask,
}: {
  label: string;
  chosen: readonly string[];
  onAdd: (id: string) => void;
  onRemove: (id: string) => void;
  defaultTask?: string;
}) {
  const id = useId();
  const [task, setTask] = useState(defaultTask ?? "");
  const [q, setQ] = useState("");
  const [found, setFound] = useState<FoundItem[] | null>(null);
  const [total, setTotal] = useState(0);
  const [known, setKnown] = useState<Record<string, FoundItem>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const search = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const params = new URLSearchParams({ status: "active", pageSize: String(PAGE_SIZE) });
      if (task) params.set("task", task);
      if (q.trim()) params.set("q", q.trim());
      const res = await fetch(`/api/admin/items?${params.toString()}`, { cache: "no-store" });
      if (!res.ok) throw new Error(`The item search failed (${res.status}).`);
      const page = (await res.json()) as { rows: FoundItem[]; total: number };
      setFound(page.rows);
      setTotal(page.total);
      setKnown((k) => ({ ...k, ...Object.fromEntries(page.rows.map((r) => [r.id, r])) }));
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "The item search failed.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      className="mt-2 rounded border border-slate-200 bg-slate-50 p-2 text-sm"
      role="group"
      aria-labelledby={`${id}-label`}
    >
      <p id={`${id}-label`} className="font-medium">
        {label}
      </p>
      {chosen.length > 0 ? (
        <ul className="mt-1 space-y-1" aria-label={`${label}: chosen`}>
          {chosen.map((itemId) => {
            const item = known[itemId];
            return (
              <li key={itemId} className="flex items-start gap-2">
                <button
                  type="button"
                  className="text-red-800 underline"
                  onClick={() => onRemove(itemId)}
                  aria-label={`Remove ${itemId}`}
                >
                  remove
                </button>
                <span>
                  {item
                    ? `${taskDisplayName(item.taskId)} · ${item.pdbId ?? ""} · ${item.questionExcerpt.slice(0, 80)}`
                    : null}{" "}
                  <span className="font-mono text-xs text-slate-600">{itemId}</span>
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      <div className="mt-2 flex flex-wrap items-end gap-2">
        <label className="block">
          Task
          <select
            className="mt-1 block rounded border border-slate-400 px-2 py-1"
            value={task}
            onChange={(e) => setTask(e.target.value)}
          >
            <option value="">any</option>
            {listTaskDisplayNames().map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          Search (question, PDB id, item id)
          <input
            className="mt-1 block rounded border border-slate-400 px-2 py-1"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              // Enter searches here instead of submitting the study form around the picker.
              if (e.key === "Enter") {
                e.preventDefault();
                void search();
              }
            }}
          />
        </label>
        <button
          type="button"
          className="rounded border border-slate-500 bg-white px-2 py-1"
          disabled={busy}
          onClick={() => void search()}
        >
          Find items
        </button>
      </div>
      {problem ? (
        <p role="alert" className="mt-1 text-red-800">
          {problem}
        </p>
      ) : null}
      {found ? (
        found.length === 0 ? (
          <p className="mt-1 text-slate-700">No active items match.</p>
        ) : (
          <ul className="mt-2 space-y-1" aria-label={`${label}: search results`}>
            {found.map((item) => (
              <li key={item.id} className="flex items-start gap-2">
                <button
                  type="button"
                  className="rounded border border-slate-500 bg-white px-2 disabled:text-slate-400"
                  disabled={chosen.includes(item.id)}
                  onClick={() => onAdd(item.id)}
                  aria-label={`Add ${item.externalId ?? item.id}`}
                >
                  {chosen.includes(item.id) ? "added" : "add"}
                </button>
                <span>
                  {taskDisplayName(item.taskId)} · {item.pdbId ?? "–"} · {item.questionExcerpt.slice(0, 100)}{" "}
                  <span className="font-mono text-xs text-slate-600">{item.id}</span>
                </span>
              </li>
            ))}
            {total > found.length ? (
              <li className="text-slate-600">…{total - found.length} more; narrow the search.</li>
            ) : null}
          </ul>
        )
      ) : null}
    </div>
  );
}
