"use client";

import { useId, useState } from "react";

/** A read-only text field with a copy button (participant links, Prolific URLs). */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          className="w-full rounded border border-slate-400 bg-slate-50 px-2 py-1 font-mono text-sm"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => undefined);
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
