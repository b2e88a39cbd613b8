"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendJson } from "./send-json";

/** Open / close buttons with the server's reasons shown when opening is refused. */
export function StudyStatusActions({
  studyId,
  status,
  canOpen,
}: {
  studyId: string;
  status: "draft" | "open" | "closed";
  canOpen: boolean;
}) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [messages, setMessages] = useState<{ errors: string[]; warnings: string[] }>({ errors: [], warnings: [] });

  async function change(action: "open" | "close") {
    if (action === "close" && !window.confirm("Close the study? New participants will be turned away.")) return;
    setPending(true);
    const result = await sendJson<{ warnings: string[] }>("POST", `/api/admin/studies/${studyId}/${action}`);
    setPending(false);
    if (!result.ok) {
      setMessages({ errors: result.formErrors.length ? result.formErrors : [result.message], warnings: [] });
      return;
    }
    setMessages({ errors: [], warnings: result.data.warnings });
    router.refresh();
  }

  return (
    <div className="space-y-2">
      {status === "open" ? (
        <button
          type="button"
          disabled={pending}
          onClick={() => change("close")}
          className="rounded border border-amber-700 px-4 py-1.5 font-medium text-amber-900 hover:bg-amber-50 disabled:opacity-60"
        >
          {pending ? "Closing…" : "Close study"}
        </button>
      ) : (
        <button
          type="button"
          disabled={pending || !canOpen}
          onClick={() => change("open")}
          className="rounded bg-green-700 px-4 py-1.5 font-medium text-white hover:bg-green-800 disabled:opacity-60"
        >
          {pending ? "Opening…" : status === "closed" ? "Re-open study" : "Open study"}
        </button>
      )}
      <div role="status" aria-live="polite" className="text-sm">
        {messages.errors.map((m, i) => (
          <p key={i} className="text-red-700">
            {m}
          </p>
        ))}
        {messages.warnings.map((m, i) => (
          <p key={i} className="text-amber-800">
            Opened, with a warning: {m}
          </p>
        ))}
      </div>
    </div>
  );
}
