"use client";

export function ConsentScreen({
  text,
  busy,
  onAnswer,
}: {
  text: string;
  busy: boolean;
  onAnswer: (accept: boolean) => void;
}) {
  return (
    <section aria-labelledby="consent-title" className="max-w-3xl">
      <h2 id="consent-title" className="text-2xl font-semibold">
        Consent
      </h2>
      <div className="mt-4 whitespace-pre-line rounded border border-slate-300 bg-white p-4 leading-relaxed">
        {text}
      </div>
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          disabled={busy}
          onClick={() => onAnswer(true)}
          className="rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          I agree, start the study
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => onAnswer(false)}
          className="rounded border border-slate-400 px-5 py-2 hover:bg-slate-100"
        >
          I do not agree
        </button>
      </div>
    </section>
  );
}
