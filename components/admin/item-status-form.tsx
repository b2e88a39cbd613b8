"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { FieldErrors, FormStatus } from "./field-errors";
import { sendJson } from "./send-json";

type Status = "active" | "excluded" | "flagged";

/** Exclude, flag or re-activate an item; a reason is required and goes to the audit log. */
export function ItemStatusForm({ itemId, current }: { itemId: string; current: Status }) {
  const router = useRouter();
  const id = useId();
  const [status, setStatus] = useState<Status>(current === "active" ? "excluded" : "active");
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [success, setSuccess] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    setSuccess(null);
    const result = await sendJson<{ status: string }>("POST", `/api/admin/items/${itemId}/status`, { status, reason });
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      setFieldErrors(result.fieldErrors);
      return;
    }
    setFieldErrors({});
    setReason("");
    setSuccess(`Status set to ${result.data.status}.`);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Change item status">
      <fieldset>
        <legend className="text-sm font-medium">New status</legend>
        <div className="mt-1 flex gap-4">
          {(["excluded", "flagged", "active"] as const).map((s) => (
            <label key={s} className="flex items-center gap-1 text-sm">
              <input
                type="radio"
                name={`${id}-status`}
                value={s}
                checked={status === s}
                onChange={() => setStatus(s)}
                disabled={s === current}
              />
              {s === "active" ? "active (restore)" : s}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor={`${id}-reason`} className="block text-sm font-medium">
          Reason (required, kept in the audit log)
        </label>
        <textarea
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          minLength={3}
          rows={2}
          aria-invalid={Boolean(fieldErrors.reason)}
          aria-describedby={fieldErrors.reason ? `${id}-reason-err` : undefined}
          className="mt-1 w-full rounded border border-slate-400 px-2 py-1"
        />
        <FieldErrors id={`${id}-reason-err`} messages={fieldErrors.reason ?? []} />
      </div>
      <button
        type="submit"
        disabled={pending || status === current}
        className="rounded bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? "Saving…" : "Save status"}
      </button>
      <FormStatus error={error} success={success} />
    </form>
  );
}
