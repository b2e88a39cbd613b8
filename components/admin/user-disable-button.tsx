"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendJson } from "./send-json";

/** Disables or re-enables a staff account (the account's sessions stop working on their next request). */
export function UserDisableButton({ userId, email, disabled }: { userId: string; email: string; disabled: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onClick() {
    if (!disabled && !window.confirm(`Disable ${email}? The account is signed out on its next request.`)) return;
    setPending(true);
    setError(null);
    const result = await sendJson("PATCH", `/api/admin/users/${encodeURIComponent(userId)}`, { disabled: !disabled });
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    router.refresh();
  }

  return (
    <>
      <button
        type="button"
        onClick={onClick}
        disabled={pending}
        className="rounded border border-slate-400 px-2 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-60"
      >
        {disabled ? `Enable ${email}` : `Disable ${email}`}
      </button>
      {error ? (
        <span role="alert" className="ml-2 text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </>
  );
}
