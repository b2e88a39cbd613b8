import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">MiSI human baseline</h1>
      <p className="mt-4 text-lg text-slate-700">
        Human-baseline studies for <strong>MiSI-Bench</strong>, a benchmark of microscopic spatial intelligence: spatial
        reasoning about protein–ligand complexes (translations, rotations, zooming, hydrogen bonds).
      </p>
      <ul className="mt-8 space-y-3 text-slate-700">
        <li>
          <strong>Participants</strong> enter through the study link they were given (for example from Prolific); no
          account is needed.
        </li>
        <li>
          <strong>Researchers and admins</strong>{" "}
          <Link className="font-medium text-blue-700 underline" href="/admin">
            sign in
          </Link>{" "}
          to configure studies, curate question pools and export results.
        </li>
      </ul>
      <p className="mt-10 text-sm text-slate-500">
        Service status:{" "}
        <a className="underline" href="/api/health">
          /api/health
        </a>
      </p>
    </main>
  );
}
