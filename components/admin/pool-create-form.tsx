"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { errorsFor, sendJson } from "./send-json";
import { FieldErrors, FormStatus } from "./field-errors";
import { taskDisplayName } from "@/lib/tasks/display-name";

interface TaskOption {
  id: string;
  label: string;
  active: number;
}

interface CreatedPool {
  poolId: string;
  version: number;
  itemCount: number;
  perTask: Record<string, number>;
  shortfalls: Array<{ taskId: string; requested: number; available: number }>;
  seed: string | null;
}

/** Builds a pool: a seeded stratified sample (N per task) or every active item matching filters. */
export function PoolCreateForm({
  tasks,
  splits,
  tags,
  sources,
}: {
  tasks: TaskOption[];
  splits: string[];
  tags: string[];
  sources: readonly string[];
}) {
  const id = useId();
  const [mode, setMode] = useState<"stratified" | "filter">("stratified");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [chosen, setChosen] = useState<string[]>(tasks.map((t) => t.id));
  const [perTask, setPerTask] = useState("50");
  const [seed, setSeed] = useState("");
  const [filter, setFilter] = useState({ task: "", split: "", source: "", tag: "", q: "" });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [created, setCreated] = useState<CreatedPool | null>(null);

  const requested = Number(perTask);
  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setCreated(null);
    const { task, ...rest } = filter;
    const body =
      mode === "stratified"
        ? { mode, name, description, tasks: chosen, perTask, seed: seed || undefined, filter: rest }
        : { mode, name, description, filter: { ...rest, task } };
    const result = await sendJson<CreatedPool>("POST", "/api/admin/pools", body);
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      setFieldErrors(result.fieldErrors);
      setFormErrors(result.formErrors);
      return;
    }
    setFieldErrors({});
    setFormErrors([]);
    setCreated(result.data);
  }

  const input = "mt-1 w-full rounded border border-slate-400 px-2 py-1";
  const field = (path: string, label: string, control: React.ReactNode, hint?: string) => (
    <div>
      <label htmlFor={`${id}-${path}`} className="block text-sm font-medium">
        {label}
      </label>
      {control}
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
      <FieldErrors id={`${id}-${path}-err`} messages={errorsFor(fieldErrors, path, { nested: true })} />
    </div>
  );
  const filterSelect = (key: "split" | "source" | "tag" | "task", label: string, options: Array<[string, string]>) =>
    field(
      `filter.${key}`,
      label,
      <select
        id={`${id}-filter.${key}`}
        value={filter[key]}
        onChange={(e) => setFilter({ ...filter, [key]: e.target.value })}
        className={`${input} bg-white`}
      >
        <option value="">any</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>,
    );

  return (
    <form onSubmit={onSubmit} className="space-y-5" aria-label="New pool" noValidate>
      <fieldset>
        <legend className="text-sm font-medium">How to choose items</legend>
        <div className="mt-1 flex flex-wrap gap-6 text-sm">
          <label className="flex items-center gap-1">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === "stratified"}
              onChange={() => setMode("stratified")}
            />{" "}
            Stratified random sample (N per task, seeded)
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name={`${id}-mode`} checked={mode === "filter"} onChange={() => setMode("filter")} />{" "}
            Every active item matching filters
          </label>
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        {field(
          "name",
          "Name",
          <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required className={input} />,
        )}
        {field(
          "description",
          "Description (optional)",
          <input
            id={`${id}-description`}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className={input}
          />,
        )}
      </div>

      {mode === "stratified" ? (
        <>
          <fieldset>
            <legend className="text-sm font-medium">Tasks (strata)</legend>
            <div className="mt-1 grid gap-1 sm:grid-cols-3">
              {tasks.map((t) => (
                <label key={t.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={chosen.includes(t.id)}
                    onChange={(e) => setChosen(e.target.checked ? [...chosen, t.id] : chosen.filter((c) => c !== t.id))}
                  />
                  {t.label}{" "}
                  <span
                    className={Number.isFinite(requested) && t.active < requested ? "text-amber-800" : "text-slate-500"}
                  >
                    ({t.active} active)
                  </span>
                </label>
              ))}
            </div>
            <FieldErrors id={`${id}-tasks-err`} messages={errorsFor(fieldErrors, "tasks", { nested: true })} />
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            {field(
              "perTask",
              "Items per task (N)",
              <input
                id={`${id}-perTask`}
                type="number"
                min={1}
                value={perTask}
                onChange={(e) => setPerTask(e.target.value)}
                className={input}
              />,
              "MiSI-Bench(tiny) uses 50.",
            )}
            {field(
              "seed",
              "Seed (optional)",
              <input id={`${id}-seed`} value={seed} onChange={(e) => setSeed(e.target.value)} className={input} />,
              "Empty: a seed is generated. The seed is recorded; the same seed and items give the same sample.",
            )}
          </div>
        </>
      ) : null}

      <fieldset className="rounded border border-slate-300 p-3">
        <legend className="px-1 text-sm font-medium">Only items matching (active items only)</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {mode === "filter"
            ? filterSelect(
                "task",
                "Task",
                tasks.map((t) => [t.id, t.label]),
              )
            : null}
          {filterSelect(
            "split",
            "Split",
            splits.map((s) => [s, s]),
          )}
          {filterSelect(
            "source",
            "Source",
            sources.map((s) => [s, s]),
          )}
          {filterSelect(
            "tag",
            "Tag",
            tags.map((t) => [t, t]),
          )}
          {field(
            "filter.q",
            "Question text contains",
            <input
              id={`${id}-filter.q`}
              value={filter.q}
              onChange={(e) => setFilter({ ...filter, q: e.target.value })}
              className={input}
            />,
          )}
        </div>
        <FieldErrors id={`${id}-filter-err`} messages={errorsFor(fieldErrors, "filter")} />
      </fieldset>

      <button
        type="submit"
        disabled={pending}
        className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? "Building…" : "Build pool"}
      </button>
      <FormStatus error={error} extra={formErrors} />
      {created ? (
        <div role="status" className="rounded border border-green-700 bg-green-50 p-3 text-sm">
          <p className="font-medium">
            Pool built: version {created.version} with {created.itemCount} items
            {created.seed ? `, seed ${created.seed}` : ""}.{" "}
            <Link href={`/admin/pools/${created.poolId}`} className="text-blue-700 underline">
              Open the pool
            </Link>
          </p>
          <p className="mt-1">
            {Object.entries(created.perTask)
              .map(([t, n]) => `${taskDisplayName(t)}: ${n}`)
              .join(" · ")}
          </p>
          {created.shortfalls.length ? (
            <ul className="mt-2 list-disc pl-5 text-amber-900">
              {created.shortfalls.map((s) => (
                <li key={s.taskId}>
                  {taskDisplayName(s.taskId)}: only {s.available} active item(s) of {s.requested} requested
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
