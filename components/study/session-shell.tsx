"use client";

import { useEffect, useState } from "react";
import { HttpError, participantApi } from "./participant-api-client";
import { SessionApp } from "./session-app";
import type { SessionState } from "./types";

/** The study slug of a session page's address (/s/<slug>/session), or null. */
function slugOfPage(pathname: string): string | null {
  const m = /^\/s\/([^/]+)\/session\/?$/.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

/**
 * The participant's session page. The page is the same for every participant (the production server sends it from
 * memory, prerendered at build: lib/server/serving/participant-shell.ts), so the session is read here, from the API,
 * which decides who may see what. A browser without a session, or with another study's, is sent to the status page.
 */
export function SessionShell() {
  const [session, setSession] = useState<SessionState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const slug = slugOfPage(window.location.pathname);
    const noSession = () =>
      slug === null
        ? setProblem("This page belongs to a study link. Please open the study link you were given.")
        : window.location.replace(`/s/${encodeURIComponent(slug)}/status?kind=no_session`);
    let live = true;
    participantApi
      .load((n) => live && setProblem(`Connection problem; retrying (attempt ${n})…`))
      .then((state) => {
        if (!live) return;
        if (state.study.slug !== slug) return noSession();
        setSession(state);
      })
      .catch((err: unknown) => {
        if (!live) return;
        if (err instanceof HttpError && (err.status === 401 || err.status === 404)) return noSession();
        setProblem(
          `${err instanceof Error ? err.message : "Something went wrong."} Please reload the page; your answers so far are saved.`,
        );
      });
    return () => {
      live = false;
    };
  }, []);

  if (session) return <SessionApp initial={session} />;
  return (
    <div className="mx-auto max-w-2xl p-6" aria-busy={problem === null}>
      <p role="status" className="text-slate-600">
        {problem ?? "Loading your study…"}
      </p>
    </div>
  );
}
