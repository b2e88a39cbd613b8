import { notFound } from "next/navigation";
import { isStudySlug } from "@/lib/study-slug";

const MESSAGES: Record<string, { title: string; body: string }> = {
  not_found: { title: "Study not found", body: "This study link is not valid. Please check the link you were given." },
  closed: {
    title: "This study is closed",
    body: "The study is not accepting participants at the moment. Thank you for your interest.",
  },
  full: {
    title: "This study is full",
    body: "All places in this study have been taken. Thank you for your interest; please return the study on Prolific.",
  },
  busy: {
    title: "Too many people are joining right now",
    body: "Please wait a few minutes and open the study link again.",
  },
  no_session: {
    title: "Session not found",
    body: "We could not find your session in this browser. Please open the study link you were given again.",
  },
  invalid: {
    title: "Invalid link",
    body: "The study link is incomplete or malformed: its participant id may only contain letters, digits and _ - : @. Please use the exact link you were given.",
  },
};

export default async function StudyStatusPage({
  params: route,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  // Only under a study slug's own path (lib/study-slug.ts): /s/%2e%2e/status is no study's page.
  if (!isStudySlug((await route).slug)) notFound();
  const params = await searchParams;
  const message = MESSAGES[params.kind ?? ""] ?? MESSAGES.not_found!;
  return (
    <main className="mx-auto max-w-xl px-6 py-16">
      <h1 className="text-2xl font-semibold">{message.title}</h1>
      <p className="mt-3 text-slate-700">{message.body}</p>
    </main>
  );
}
