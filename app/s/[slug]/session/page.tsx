import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { SessionApp } from "@/components/study/session-app";
import type { SessionState } from "@/components/study/types";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { readParticipantSession } from "@/lib/server/participant-flow/page-session";
import { withSignedImageUrls } from "@/lib/server/image-url";
import { isStudySlug } from "@/lib/study-slug";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Study", robots: { index: false } };

export default async function StudySessionPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  // No study has such a slug, and a redirect built from "." or ".." would leave /s/<slug>/ (lib/study-slug.ts).
  if (!isStudySlug(slug)) notFound();
  const token = await readParticipantSession();
  if (!token) redirect(`/s/${encodeURIComponent(slug)}/status?kind=no_session`);
  // Reading never assigns or renews reservations (only answering does); a dropped connection is retried.
  const session = await getParticipantSession(token.participantId);
  if (!session || session.study.slug !== slug) redirect(`/s/${encodeURIComponent(slug)}/status?kind=no_session`);
  // Reloading lands here and resumes at the first unanswered question.
  return (
    <main>
      <SessionApp
        initial={(await withSignedImageUrls(session, token, session.study.timeLimitSec !== null)) as SessionState}
      />
    </main>
  );
}
