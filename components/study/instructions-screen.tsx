"use client";

import { AxesFigure } from "./axes-figure";
import type { CurrentQuestion } from "./types";

export function InstructionsScreen({ question, onStart }: { question: CurrentQuestion; onStart: () => void }) {
  return (
    <section aria-labelledby="instr-title" className="grid gap-6 md:grid-cols-[1fr_auto]">
      <div>
        <h2 id="instr-title" className="text-2xl font-semibold">
          Instructions: {question.task.label}
        </h2>
        <div className="mt-4 whitespace-pre-line leading-relaxed">{question.task.instructions}</div>
        <button
          type="button"
          autoFocus
          onClick={onStart}
          className="mt-6 rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800"
        >
          {question.phase === "practice" ? "Start the practice question" : "Start"}
        </button>
      </div>
      <AxesFigure />
    </section>
  );
}
