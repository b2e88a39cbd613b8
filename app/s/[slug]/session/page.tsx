import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SessionShell } from "@/components/study/session-shell";
import { isStudySlug } from "@/lib/study-slug";

// What `next dev` renders, and Next's answer should the front not have the prerendered shell (app/participant-shell):
// the same component, which reads the session from the API.
export const metadata: Metadata = { title: "Study", robots: { index: false } };

export default async function StudySessionPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  // No study has such a slug, and a redirect built from "." or ".." would leave /s/<slug>/ (lib/study-slug.ts).
  if (!isStudySlug(slug)) notFound();
  return (
    <main>
      <SessionShell />
    </main>
  );
}
