"use client";

import { useEffect } from "react";
import { toSafeHttpUrl } from "@/lib/safe-url";

export function CompletionScreen({ completion }: { completion: { code: string | null; url: string | null } }) {
  // Checked again here although the server validates it on save: a javascript: URL would run in this origin.
  const url = toSafeHttpUrl(completion.url);
  useEffect(() => {
    if (!url) return;
    const timer = setTimeout(() => window.location.assign(url), 5000);
    return () => clearTimeout(timer);
  }, [url]);
  return (
    <section aria-live="polite" className="max-w-2xl">
      <h2 className="text-2xl font-semibold">Thank you, you have finished the study</h2>
      <p className="mt-3">All your answers have been saved.</p>
      {completion.code ? (
        <p className="mt-3">
          Your completion code:{" "}
          <strong className="rounded bg-slate-100 px-2 py-1 font-mono text-lg" data-testid="completion-code">
            {completion.code}
          </strong>
        </p>
      ) : null}
      {url ? (
        <p className="mt-3">
          You will be redirected in a few seconds. If not,{" "}
          <a className="text-blue-700 underline" href={url}>
            click here to return
          </a>
          .
        </p>
      ) : null}
    </section>
  );
}
