"use client";

import { useState } from "react";
import { sendJson } from "./send-json";

interface Share {
  userId: string;
  email: string;
}

/**
 * Who besides its owner may see and run the study. The owner and admins add and remove researchers by email; a
 * researcher the study is shared with sees the list read-only.
 */
export function StudyShareList({
  studyId,
  ownerEmail,
  initial,
  canManage,
}: {
  studyId: string;
  ownerEmail: string | null;
  initial: Share[];
  canManage: boolean;
}) {
  const [shares, setShares] = useState<Share[]>(initial);
  const [email, setEmail] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const url = `/api/admin/studies/${encodeURIComponent(studyId)}/shares`;

  async function change(method: "POST" | "DELETE", target: string) {
    setPending(true);
    setError(null);
    const result = await sendJson<{ shares: Share[] }>(method, url, { email: target });
    setPending(false);
    if (!result.ok) {
      setError(result.fieldErrors.email?.join("; ") ?? result.message);
      return;
    }
    setShares(result.data.shares);
    if (method === "POST") setEmail("");
  }

  return (
    <div className="space-y-2 text-sm">
      <p>
        Owner: <span className="font-mono">{ownerEmail ?? "unknown (admins only)"}</span>. Admins see every study.
      </p>
      {shares.length ? (
        <ul aria-label="Shared with" className="space-y-1">
          {shares.map((s) => (
            <li key={s.userId} className="flex items-center gap-2">
              <span className="font-mono">{s.email}</span>
              {canManage ? (
                <button
                  type="button"
                  disabled={pending}
                  onClick={() => change("DELETE", s.email)}
                  className="rounded border border-slate-400 px-2 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-60"
                >
                  Remove {s.email}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-700">Not shared with anyone.</p>
      )}
      {canManage ? (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (email.trim()) void change("POST", email.trim());
          }}
        >
          <label className="flex flex-col">
            <span>Share with (researcher&apos;s email)</span>
            <input
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className="rounded border border-slate-400 px-2 py-1"
              required
            />
          </label>
          <button
            type="submit"
            disabled={pending}
            className="rounded bg-blue-700 px-3 py-1 text-white disabled:opacity-60"
          >
            Share
          </button>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
