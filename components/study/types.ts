// Client-side mirror of the participant DTOs (lib/server/dal/participant/get-session.ts); public data only.
import type { AnswerWidget } from "@/lib/tasks/types";

export interface PublicImage {
  id: string;
  position: number;
  caption: string;
}

export interface CurrentQuestion {
  assignmentId: string;
  position: number;
  phase: "practice" | "main" | "attention";
  item: { id: string; taskId: string; taskVersion: number; question: string; payload: unknown; images: PublicImage[] };
  task: { id: string; label: string; instructions: string; widget: AnswerWidget; format: string };
  interactive: { allowRotate: boolean; allowZoom: boolean } | null;
}

export interface SessionState {
  participant: { id: string; status: string; condition: string; consented: boolean };
  study: {
    name: string;
    slug: string;
    consentText: string;
    declineMessage: string;
    timeLimitSec: number | null;
    tasks: Array<{ id: string; label: string; instructions: string }>;
  };
  progress: { answered: number; total: number; practiceTotal: number };
  current: CurrentQuestion | null;
  completion: { code: string | null; url: string | null } | null;
  screenedOut: { message: string; returnUrl: string | null } | null;
}

export interface SubmitResult {
  status: "stored" | "duplicate";
  practiceFeedback: { correct: boolean; correctAnswer: string } | null;
  ended: "completed" | "screened_out" | null;
}
