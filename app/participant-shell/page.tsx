import type { Metadata } from "next";
import { SessionShell } from "@/components/study/session-shell";

// Prerendered once at build time: the production server sends this page, from memory, for every /s/<slug>/session
// (lib/server/serving/participant-shell.ts), with a CSP that lists its inline scripts' hashes instead of a nonce.
export const dynamic = "force-static";
export const metadata: Metadata = { title: "Study", robots: { index: false } };

export default function ParticipantShellPage() {
  return (
    <main>
      <SessionShell />
    </main>
  );
}
