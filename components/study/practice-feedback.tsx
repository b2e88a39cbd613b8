"use client";

import { ImageGallery } from "./image-gallery";
import { howToSee } from "./practice-explanation";
import type { PublicImage } from "./types";

/**
 * Feedback after a practice answer was stored: right or wrong, the correct answer (sent by the server only after the
 * answer was written), the question's images again and one sentence on how to see the answer in them.
 */
export function PracticeFeedback({
  result,
  question,
  onContinue,
}: {
  result: { correct: boolean; correctAnswer: string };
  question: { taskId: string; text: string; images: PublicImage[]; answer: string } | null;
  onContinue: () => void;
}) {
  return (
    <section aria-labelledby="feedback-title" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_400px]">
      <div className="order-2 lg:order-1">{question ? <ImageGallery images={question.images} /> : null}</div>
      <div
        className="order-1 rounded border border-slate-300 bg-white p-5 lg:order-2 lg:sticky lg:top-4 lg:self-start"
        aria-live="polite"
      >
        <h2 id="feedback-title" className="text-xl font-semibold">
          {result.correct ? "Correct." : "Not quite."}
        </h2>
        {question && question.answer ? (
          <p className="mt-2">
            Your answer: <code className="rounded bg-slate-100 px-1.5 py-0.5">{question.answer}</code>
          </p>
        ) : null}
        <p className="mt-2">
          The correct answer was{" "}
          <code className="rounded bg-slate-100 px-1.5 py-0.5" data-testid="correct-answer">
            {result.correctAnswer}
          </code>
          . Practice answers do not count.
        </p>
        {question ? (
          <p className="mt-3 text-slate-800" data-testid="how-to-see">
            <span className="font-medium">How to see it: </span>
            {howToSee(question.taskId)}
          </p>
        ) : null}
        <button
          type="button"
          autoFocus
          onClick={onContinue}
          className="mt-4 rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800"
        >
          Continue
        </button>
      </div>
    </section>
  );
}
