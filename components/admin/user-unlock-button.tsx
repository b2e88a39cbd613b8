"use client";

import { useState } from "react";
import { sendJson } from "./send-json";

/** Clears an account's failed sign-ins, so its owner is no longer slowed by someone else's guessing. */
export function UserUnlockButton({ userId, email }: { userId: string; email: string }) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function onClick() {
    setPending(true);
    setMessage(null);
    const result = await sendJson<{ cleared: number }>("POST", `/api/admin/users/${encodeURIComponent(userId)}/unlock`);
    setPending(false);
    setMessage(
      result.ok
        ? { ok: true, text: `Cleared ${result.data.cleared} failed sign-in(s).` }
        : { ok: false, text: result.message },
    );
  }

  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={pending}
        className="ml-2 rounded border border-slate-400 px-2 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-60"
      >
        Clear sign-in lock of {email}
      </button>
      {message ? (
        <span
          role={message.ok ? "status" : "alert"}
          className={`ml-2 text-xs ${message.ok ? "text-green-800" : "text-red-700"}`}
        >
          {message.text}
        </span>
      ) : null}
    </>
  );
}
