import type { ResultsPageContext } from "./context";
import Link from "next/link";

/** The results page's title, scope switch, jump links and the records left out. */
export function ResultsHeader({ ctx }: { ctx: ResultsPageContext }) {
  const { studyId, scope, human, s, href } = ctx;
  return (
    <>
      <p className="text-sm">
        <Link href="/admin/results" className="underline">
          ← Results
        </Link>{" "}
        ·{" "}
        <Link href={`/admin/studies/${studyId}`} className="underline">
          Study page
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Results: {s.study.name}</h1>
      <p className="mt-1 text-sm text-slate-700">
        Study <span className="font-mono">{s.study.slug}</span> ({s.study.status}) · pool {s.poolVersion.poolName} v
        {s.poolVersion.version} ·{" "}
        {scope === "pool"
          ? `${s.studies.length} studies on this pool version: ${s.studies.map((x) => x.slug).join(", ")}`
          : "this study only"}{" "}
        · {human.nResponses} main-phase answers
      </p>
      <nav aria-label="Results scope" className="mt-2 flex flex-wrap gap-2 text-sm">
        <Link
          href={href({ scope: null })}
          aria-current={scope === "study" ? "page" : undefined}
          className={`rounded border px-2 py-1 ${scope === "study" ? "border-slate-800 bg-slate-800 text-white" : "border-slate-400 bg-white"}`}
        >
          This study
        </Link>
        <Link
          href={href({ scope: "pool" })}
          aria-current={scope === "pool" ? "page" : undefined}
          className={`rounded border px-2 py-1 ${scope === "pool" ? "border-slate-800 bg-slate-800 text-white" : "border-slate-400 bg-white"}`}
        >
          All studies on pool v{s.poolVersion.version}
        </Link>
        <span className="ml-auto text-slate-700">
          Jump to:{" "}
          <a href="#human" className="underline">
            humans
          </a>{" "}
          ·{" "}
          <a href="#charts" className="underline">
            charts
          </a>{" "}
          ·{" "}
          <a href="#items" className="underline">
            items
          </a>{" "}
          ·{" "}
          <a href="#models" className="underline">
            models
          </a>{" "}
          ·{" "}
          <a href="#exports" className="underline">
            exports
          </a>
        </span>
      </nav>
      {human.problems.length > 0 || human.skipped.length > 0 ? (
        <div role="alert" className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {human.problems.length > 0 ? (
            <p>The stored responses failed validation: {human.problems.slice(0, 5).join("; ")}</p>
          ) : null}
          {human.skipped.length > 0 ? (
            <p>
              {human.skipped.length} response(s) left out:{" "}
              {human.skipped
                .slice(0, 5)
                .map((x) => `${x.responseId} (${x.reason})`)
                .join("; ")}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
