"use client";

import { useActionState, useId } from "react";

export interface FlagItemState {
  ok: boolean;
  message: string;
}

/** Reason + button that flags one item (the server action checks the admin role and records the audit entry). */
export function FlagItemForm({
  action,
  itemId,
  studyId,
}: {
  action: (prev: FlagItemState, form: FormData) => Promise<FlagItemState>;
  itemId: string;
  studyId: string;
}) {
  const [state, formAction, pending] = useActionState(action, { ok: false, message: "" });
  const id = useId();
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-1">
      <input type="hidden" name="itemId" value={itemId} />
      <input type="hidden" name="studyId" value={studyId} />
      <label htmlFor={id} className="sr-only">
        Reason for flagging item {itemId}
      </label>
      <input
        id={id}
        name="reason"
        required
        minLength={3}
        placeholder="reason, e.g. gold looks wrong"
        className="w-48 rounded border border-slate-400 px-1 py-0.5 text-xs"
        defaultValue="Most humans miss it: check the gold answer"
      />
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-amber-600 bg-amber-50 px-2 py-0.5 text-xs hover:bg-amber-100 disabled:opacity-50"
      >
        {pending ? "Flagging…" : "Flag"}
      </button>
      <span role="status" className={`text-xs ${state.ok ? "text-green-700" : "text-red-700"}`}>
        {state.message}
      </span>
    </form>
  );
}
