import type { TaskScore } from "@/lib/tasks/types";
import { extractAnswer, type AnswerGrammar, type ExtractionStep } from "./extract-answer";

/** The type-erased task members scoring needs (any task from the registry fits). */
export interface ScoringTask extends AnswerGrammar {
  gradeText(
    text: string,
    gold: unknown,
  ):
    | { ok: true; canonical: string; score: TaskScore }
    | { ok: false; stage: "answer" | "gold" | "params"; error: string };
}

export type ScoredPrediction =
  | { status: "scored"; canonical: string; exact: 0 | 1; partial: number; step: ExtractionStep; extracted: string }
  | { status: "unparseable"; parseError: string; exact: 0; partial: 0 }
  | { status: "bad-gold"; error: string };

/**
 * Scores one model answer exactly as a human answer is scored (the task's gradeText on the text the
 * extraction rule found); an answer nothing can be read from scores 0 on both scores.
 */
export function scorePrediction(task: ScoringTask, prediction: string, gold: unknown): ScoredPrediction {
  const extraction = extractAnswer(task, prediction);
  if (!extraction.ok) return { status: "unparseable", parseError: extraction.error, exact: 0, partial: 0 };
  const graded = task.gradeText(extraction.text, gold);
  if (!graded.ok) {
    // The extractor only returns text the grammar accepts, so a failure here is the stored gold's.
    return graded.stage === "answer"
      ? { status: "unparseable", parseError: graded.error, exact: 0, partial: 0 }
      : { status: "bad-gold", error: graded.error };
  }
  return {
    status: "scored",
    canonical: graded.canonical,
    exact: graded.score.exact,
    partial: graded.score.partial,
    step: extraction.step,
    extracted: extraction.text,
  };
}
