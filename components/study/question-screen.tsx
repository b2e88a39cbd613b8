"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CameraSample, InteractionEvent } from "@/lib/participant/api-contract";
import { findTask } from "@/lib/tasks/registry";
import { CommandWidget, DockingWidget, HbondListWidget, McWidget, readOptions } from "./answer-widgets";
import { dropDraft, keepDraft, readDraft } from "./answer-draft";
import { AxesFigure } from "./axes-figure";
import { pickMcLetterFromKey } from "./mc-keys";
import { useIntegritySignals } from "./integrity-signals";
import { HttpError, participantApi } from "./participant-api-client";
import { dropPendingAnswer, keepPendingAnswer, takePendingAnswer, type PendingAnswer } from "./pending-answer";
import { QuestionStage } from "./question-stage";
import { QuestionText } from "./question-text";
import type { CurrentQuestion, SessionUpdate, SubmitResult } from "./types";
import { useMoreBelow } from "./use-more-below";
import { useQuestionClock } from "./use-question-clock";

const MoleculeViewer = dynamic(() => import("@/components/molecule/molecule-viewer").then((m) => m.MoleculeViewer), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-600">Loading the 3D view…</p>,
});

/** 128 random bits as hex. crypto.randomUUID exists only in secure contexts (https/localhost); lab servers may be plain http. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function QuestionScreen({
  question,
  condition,
  timeLimitSec,
  onStored,
  onStale,
}: {
  question: CurrentQuestion;
  condition: string;
  timeLimitSec: number | null;
  onStored: (result: SubmitResult, update: SessionUpdate, answer: string) => void | Promise<void>;
  onStale: (message: string) => Promise<void>;
}) {
  const task = useMemo(() => findTask(question.task.id), [question.task.id]);
  const [text, setText] = useState("");
  const [serverError, setServerError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  const shownAt = useRef(0);
  const idempotencyKey = useRef("");
  const camera = useRef<CameraSample[]>([]);
  const events = useRef<InteractionEvent[]>([]);
  const zooms = useRef(0);
  const integrity = useIntegritySignals(question.assignmentId);
  // Shown inline: switching to the instructions screen unmounted the question, which restarted the time limit and the
  // response-time clock, issued a new idempotency key and dropped the typed answer and the interaction log.
  const [instructionsOpen, setInstructionsOpen] = useState(false);
  // The Submit button that had focus is gone once the next question renders; without this, focus fell to <body> and
  // keyboard and screen-reader users were not told a new question had appeared.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [questionBox, moreBelow] = useMoreBelow<HTMLDivElement>();
  useEffect(() => titleRef.current?.focus(), []);

  useEffect(() => {
    shownAt.current = performance.now();
    // One key per question: a retried or double-clicked submit stores one response.
    idempotencyKey.current = randomKey();
  }, []);

  // With the item's public fields: a T9 chain typed before its atom is refused naming the item's own chains.
  const parsed = text.trim() && task ? task.parseAnswerFor(text, question.item.payload) : null;
  const widget = question.task.widget;

  /** Posts one answer body (kept in sessionStorage until the server has it, see pending-answer.ts). */
  const send = useCallback(
    async (body: PendingAnswer) => {
      inFlight.current = true;
      setSubmitting(true);
      setServerError(null);
      keepPendingAnswer(body);
      try {
        setStatus("Saving…");
        const out = await participantApi.answer(body, (n) =>
          setStatus(`Reconnecting… your answer is kept and will be saved (attempt ${n + 1}).`),
        );
        dropPendingAnswer(body.idempotencyKey);
        dropDraft();
        setStatus(null);
        await onStored(out.result, out.update, body.answer);
      } catch (err) {
        setStatus(null);
        inFlight.current = false;
        setSubmitting(false);
        // Refused for good (answered elsewhere, released, invalid): nothing left to resend after a reload.
        if (err instanceof HttpError) dropPendingAnswer(body.idempotencyKey);
        if (err instanceof HttpError && (err.status === 409 || err.status === 410)) await onStale(err.message);
        else setServerError(err instanceof Error ? err.message : "Could not save your answer.");
      }
    },
    [onStored, onStale],
  );

  const submit = useCallback(
    async (timedOut = false) => {
      // A ref, not the `submitting` state: the time-limit timer holds the first render's `submit`, whose state copy is
      // always false, so it fired a timed-out submit (same key) while the participant's answer was in flight and, if
      // it reached the server first, the answer was stored as an empty time-out.
      if (inFlight.current) return;
      if (!timedOut && (!parsed || !parsed.ok)) return;
      await send({
        assignmentId: question.assignmentId,
        itemId: question.item.id,
        answer: timedOut ? "" : text,
        idempotencyKey: idempotencyKey.current,
        rtClientMs: Math.round(performance.now() - shownAt.current),
        timedOut,
        interactionLog: {
          camera: camera.current.slice(0, 5000),
          events: events.current.slice(0, 2000),
          imageZooms: zooms.current,
          viewport: { width: window.innerWidth, height: window.innerHeight },
        },
        signals: integrity.snapshot(),
      });
    },
    [parsed, question.assignmentId, question.item.id, text, send, integrity],
  );

  // Text typed but not submitted survives a reload (answer-draft.ts).
  const draftRestored = useRef(false);
  useEffect(() => {
    const draft = readDraft(question.assignmentId);
    draftRestored.current = true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage exists only in the browser, read after hydration (the server rendered an empty field)
    if (draft !== null) setText(draft);
  }, [question.assignmentId]);
  useEffect(() => {
    if (draftRestored.current && !inFlight.current) keepDraft(question.assignmentId, text);
  }, [question.assignmentId, text]);

  // An answer that was on its way when the page reloaded (a dev server restart reloads every open page; a participant
  // may press reload while "Reconnecting…" shows) is sent again with its own key: stored once, never lost.
  useEffect(() => {
    const pending = takePendingAnswer(question.assignmentId);
    if (!pending || inFlight.current) return;
    idempotencyKey.current = pending.idempotencyKey;
    setText(pending.answer);
    void send(pending);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the question mounts
  }, []);

  // The server stamps when this question is displayed and owns the deadline: a reload continues the countdown.
  const { remaining, reported } = useQuestionClock({
    assignmentId: question.assignmentId,
    timeLimitSec,
    onExpire: () => void submit(true),
  });
  // Timed: the images and the 3D view are requested only once the server has stamped the question shown (it refuses
  // them before); the text comes first, the clock starts at the stamp, so loading the images counts against the limit.
  const contentPending = timeLimitSec !== null && reported === "pending";

  useEffect(() => {
    if (widget.type !== "mc") return;
    const onKey = (e: KeyboardEvent) => {
      const letter = pickMcLetterFromKey(
        {
          key: e.key,
          ctrlKey: e.ctrlKey,
          metaKey: e.metaKey,
          altKey: e.altKey,
          target: e.target as HTMLInputElement | null,
        },
        widget.letters,
      );
      if (letter) {
        setText(letter);
        events.current.push({ t: Math.round(performance.now() - shownAt.current), type: "key", detail: letter });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [widget]);

  const onWidget = (value: string) => {
    setText(value);
    events.current.push({
      t: Math.round(performance.now() - shownAt.current),
      type: "widget",
      detail: value.slice(0, 200),
    });
  };

  return (
    <section aria-labelledby="q-title" className="lg:flex lg:min-h-0 lg:flex-1 lg:flex-col">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="q-title" ref={titleRef} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {question.task.label}
          {question.phase === "practice" ? (
            <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-sm font-medium text-amber-900">Practice</span>
          ) : null}
        </h2>
        <div className="flex items-center gap-4 text-sm">
          {remaining !== null ? (
            <span aria-live="polite" className={remaining < 15 ? "font-semibold text-red-700" : ""}>
              Time left: {remaining} s
            </span>
          ) : null}
          <button
            type="button"
            className="text-blue-700 underline"
            aria-expanded={instructionsOpen}
            aria-controls="q-instructions"
            onClick={() => setInstructionsOpen(!instructionsOpen)}
          >
            {instructionsOpen ? "Hide instructions" : "Show instructions"}
          </button>
        </div>
      </div>
      {timeLimitSec !== null && reported === "failed" ? (
        <p role="alert" className="mt-4 rounded border border-amber-400 bg-amber-50 px-3 py-2 text-sm">
          The server could not be told that this question is on screen, so its images may not load. Reload the page to
          try again.
        </p>
      ) : null}
      {/* One column on narrow screens in reading order: question, images, answer. Wide screens: the images left (all
          rows); right, the question (row 1) above the answer form (row 2), within the window. The form keeps its full
          height, so every answer control and Submit are on screen; the question takes what is left (at least 5rem) and,
          when its text is longer, scrolls with a "more below" cue; row 3 takes the rest of the height. */}
      <div className="mt-2 flex flex-col gap-4 lg:grid lg:min-h-0 lg:flex-1 lg:grid-cols-[minmax(0,1fr)_400px] lg:grid-rows-[minmax(5rem,auto)_auto_minmax(0,1fr)] lg:gap-x-6 lg:gap-y-3">
        <div className="relative lg:col-start-2 lg:row-start-1 lg:min-h-0">
          {/* Focusable: a long question scrolls inside this area on wide screens, and the keyboard must reach it too. */}
          <div
            ref={questionBox}
            role="region"
            aria-label="Question"
            tabIndex={0}
            className="lg:h-full lg:overflow-y-auto lg:pr-1 lg:text-[15px] lg:leading-normal"
          >
            {instructionsOpen ? (
              <div id="q-instructions" className="mb-3 grid gap-4 rounded border border-slate-300 bg-white p-3 text-sm">
                <div className="whitespace-pre-line leading-relaxed">{question.task.instructions}</div>
                <AxesFigure />
              </div>
            ) : null}
            <QuestionText
              text={question.item.question}
              optionsShownElsewhere={
                widget.type === "mc" && readOptions(question.item.payload).some((o) => !o.text.startsWith("Option "))
              }
            />
          </div>
          {moreBelow ? (
            <p
              data-scroll-cue
              aria-hidden
              className="pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-50 via-slate-50/95 to-slate-50/0 pt-4 text-center text-sm font-semibold text-blue-800"
            >
              ↓ More of the question below: scroll this text ↓
            </p>
          ) : null}
        </div>
        <div className="relative lg:col-start-1 lg:row-span-3 lg:row-start-1 lg:min-h-0">
          <QuestionStage
            images={question.item.images}
            pending={contentPending}
            onZoom={() => (zooms.current += 1)}
            onEvent={(type, detail) =>
              events.current.push({ t: Math.round(performance.now() - shownAt.current), type, detail })
            }
            viewer3d={
              condition === "interactive" && question.interactive ? (
                contentPending ? (
                  <p className="text-sm text-slate-600">Loading the 3D view…</p>
                ) : (
                  <MoleculeViewer
                    assignmentId={question.assignmentId}
                    allowRotate={question.interactive.allowRotate}
                    allowZoom={question.interactive.allowZoom}
                    onCameraSample={(s) => camera.current.push(s)}
                    onEvent={(type, detail) =>
                      events.current.push({ t: Math.round(performance.now() - shownAt.current), type, detail })
                    }
                  />
                )
              ) : null
            }
          />
        </div>
        <form
          className="flex flex-col rounded border border-slate-300 bg-white lg:col-start-2 lg:row-start-2 lg:self-start"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="space-y-4 p-3 lg:max-h-[45dvh] lg:overflow-y-auto">
            {widget.type === "mc" ? (
              <McWidget
                widget={widget}
                payload={question.item.payload}
                captions={question.item.images.map((i) => i.caption)}
                value={text.trim().toUpperCase()}
                onChange={onWidget}
              />
            ) : null}
            {widget.type === "command" ? <CommandWidget widget={widget} onChange={onWidget} /> : null}
            {widget.type === "docking" ? <DockingWidget widget={widget} onChange={onWidget} /> : null}
            {widget.type === "hbond-list" ? (
              <HbondListWidget widget={widget} payload={question.item.payload} onChange={onWidget} />
            ) : null}
          </div>
          {/* Never scrolled away: the answer as typed, what will be recorded, and Submit stay on screen together while
              a list the participant made long (many H-bond rows) scrolls above them. */}
          <div className="shrink-0 space-y-1 border-t border-slate-200 px-3 py-2">
            <label htmlFor="answer-text" className="block text-sm font-medium">
              Your answer {widget.type === "mc" ? "(letter)" : "(you can also type it)"}
            </label>
            <div className="flex gap-2">
              <input
                id="answer-text"
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={text}
                onChange={(e) => setText(e.target.value)}
                aria-describedby="answer-feedback"
                aria-invalid={parsed !== null && !parsed.ok}
                className="min-w-0 flex-1 rounded border border-slate-400 px-3 py-2 font-mono"
              />
              <button
                type="submit"
                disabled={submitting || !parsed || !parsed.ok}
                className="shrink-0 rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-50"
              >
                {submitting ? "Saving…" : "Submit answer"}
              </button>
            </div>
            <p
              id="answer-feedback"
              aria-live="polite"
              className={`min-h-5 text-sm ${parsed && !parsed.ok ? "text-red-700" : "text-slate-600"}`}
            >
              {parsed ? (parsed.ok ? `Will be recorded as: ${parsed.canonical}` : parsed.error) : "Enter an answer."}
            </p>
            {serverError ? (
              <p role="alert" className="text-sm text-red-700">
                {serverError}
              </p>
            ) : null}
            {status ? (
              <p role="status" className="text-sm text-amber-800">
                {status}
              </p>
            ) : null}
          </div>
        </form>
      </div>
    </section>
  );
}
