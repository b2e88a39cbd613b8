"use client";

import { useMemo, useState } from "react";
import { CommandWidget, DockingWidget, HbondListWidget, McWidget } from "@/components/study/answer-widgets";
import { ImageGallery } from "@/components/study/image-gallery";
import { findTask } from "@/lib/tasks/registry";

export interface ItemPreviewProps {
  taskId: string;
  question: string;
  images: Array<{ id: string; position: number; caption: string }>;
  /** Public fields (Item.payload): MC options and H-bond pickers come from here, as for participants. */
  payload: unknown;
}

/**
 * The participant's question screen for one item (static condition), built from the same components the study uses
 * (image gallery, answer widgets, live grammar feedback), so curators see and can try exactly what participants get.
 * Nothing is submitted.
 */
export function ItemPreview({ taskId, question, images, payload }: ItemPreviewProps) {
  const task = useMemo(() => findTask(taskId), [taskId]);
  const [text, setText] = useState("");
  if (!task)
    return <p className="text-sm text-red-700">Unknown task id {taskId}: participants cannot be served this item.</p>;
  const widget = task.answerWidget;
  const parsed = text.trim() ? task.parseAnswerFor(text, payload) : null;

  return (
    <section aria-label="Participant view">
      <details className="rounded border border-slate-300 bg-slate-50 p-3 text-sm">
        <summary className="cursor-pointer font-medium">Instructions: {task.label}</summary>
        <p className="mt-2 whitespace-pre-wrap">{task.instructions}</p>
      </details>
      <h3 className="mt-4 text-xl font-semibold">{task.label}</h3>
      <div className="mt-4 grid gap-6 xl:grid-cols-[minmax(0,1fr)_360px]">
        <div>
          {images.length ? (
            <ImageGallery images={images} />
          ) : (
            <p className="text-sm text-amber-800">This item has no images.</p>
          )}
        </div>
        <div>
          <p className="leading-relaxed whitespace-pre-wrap">{question}</p>
          <div className="mt-4 space-y-4 rounded border border-slate-300 bg-white p-4">
            {widget.type === "mc" ? (
              <McWidget widget={widget} payload={payload} value={text.trim().toUpperCase()} onChange={setText} />
            ) : null}
            {widget.type === "command" ? <CommandWidget widget={widget} onChange={setText} /> : null}
            {widget.type === "docking" ? <DockingWidget widget={widget} onChange={setText} /> : null}
            {widget.type === "hbond-list" ? (
              <HbondListWidget widget={widget} payload={payload} onChange={setText} />
            ) : null}
            <div>
              <label htmlFor="preview-answer" className="block text-sm font-medium">
                Try an answer (not stored)
              </label>
              <input
                id="preview-answer"
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={text}
                onChange={(e) => setText(e.target.value)}
                aria-describedby="preview-feedback"
                aria-invalid={parsed !== null && !parsed.ok}
                className="mt-1 w-full rounded border border-slate-400 px-3 py-2 font-mono"
              />
              <p
                id="preview-feedback"
                aria-live="polite"
                className={`mt-1 min-h-5 text-sm ${parsed && !parsed.ok ? "text-red-700" : "text-slate-600"}`}
              >
                {parsed
                  ? parsed.ok
                    ? `Would be recorded as: ${parsed.canonical}`
                    : parsed.error
                  : "Participants see live feedback on the answer format here."}
              </p>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
