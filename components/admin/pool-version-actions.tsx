"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { parseIdList } from "@/lib/pools/pool-recipe";
import { FieldErrors, FormStatus } from "./field-errors";
import { sendJson } from "./send-json";

/** Freeze button for a draft pool version (admin). */
export function FreezeButton({ versionId, version }: { versionId: string; version: number }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        className="rounded border border-blue-700 px-3 py-1 text-sm font-medium text-blue-800 hover:bg-blue-50 disabled:opacity-60"
        onClick={async () => {
          if (
            !window.confirm(
              `Freeze version ${version}? Its items can never change afterwards (edits create a new version).`,
            )
          )
            return;
          setPending(true);
          const result = await sendJson("POST", `/api/admin/pool-versions/${versionId}/freeze`);
          setPending(false);
          if (!result.ok) setError(result.message);
          else router.refresh();
        }}
      >
        {pending ? "Freezing…" : `Freeze version ${version}`}
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** Adds/removes items by id. On a frozen or used version the server creates the next version instead. */
export function PoolVersionEditForm({
  versionId,
  version,
  locked,
}: {
  versionId: string;
  version: number;
  locked: boolean;
}) {
  const router = useRouter();
  const id = useId();
  const [add, setAdd] = useState("");
  const [remove, setRemove] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [success, setSuccess] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setSuccess(null);
    const result = await sendJson<{
      version: number;
      createdNewVersion: boolean;
      added: number;
      removed: number;
      itemCount: number;
    }>("PATCH", `/api/admin/pool-versions/${versionId}/items`, {
      addItemIds: parseIdList(add),
      removeItemIds: parseIdList(remove),
    });
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      setFieldErrors(result.fieldErrors);
      return;
    }
    const r = result.data;
    setFieldErrors({});
    setAdd("");
    setRemove("");
    setSuccess(
      `${r.createdNewVersion ? `Created version ${r.version}` : `Edited version ${r.version}`}: +${r.added} / −${r.removed}, ${r.itemCount} items.`,
    );
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label={`Edit items of version ${version}`}>
      <p className="text-sm text-slate-700">
        {locked
          ? `Version ${version} is frozen or used by a study, so it never changes: saving creates a new version with the edit.`
          : `Version ${version} is a draft no study uses: it is edited in place.`}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-add`} className="block text-sm font-medium">
            Add item ids
          </label>
          <textarea
            id={`${id}-add`}
            rows={3}
            value={add}
            onChange={(e) => setAdd(e.target.value)}
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1 font-mono text-xs"
            placeholder="one per line or comma-separated"
          />
          <FieldErrors id={`${id}-add-err`} messages={fieldErrors.addItemIds ?? []} />
        </div>
        <div>
          <label htmlFor={`${id}-remove`} className="block text-sm font-medium">
            Remove item ids
          </label>
          <textarea
            id={`${id}-remove`}
            rows={3}
            value={remove}
            onChange={(e) => setRemove(e.target.value)}
            className="mt-1 w-full rounded border border-slate-400 px-2 py-1 font-mono text-xs"
          />
          <FieldErrors id={`${id}-remove-err`} messages={fieldErrors.removeItemIds ?? []} />
        </div>
      </div>
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-blue-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? "Saving…" : locked ? "Save as new version" : "Save edit"}
      </button>
      <FormStatus error={error} success={success} />
    </form>
  );
}
