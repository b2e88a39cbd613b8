"use client";

import { toSafeHttpUrl } from "@/lib/safe-url";

export function EndScreen({ title, text, url: rawUrl }: { title: string; text: string; url: string | null }) {
  const url = toSafeHttpUrl(rawUrl);
  return (
    <section className="max-w-2xl">
      <h2 className="text-2xl font-semibold">{title}</h2>
      <p className="mt-3 whitespace-pre-line">{text}</p>
      {url ? (
        <a className="mt-4 inline-block text-blue-700 underline" href={url}>
          Return
        </a>
      ) : null}
    </section>
  );
}
