"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { findTask } from "@/lib/tasks/registry";
import { toSafeHttpUrl } from "@/lib/safe-url";
import { deviceAllowed, type DeviceFacts } from "@/lib/participant/device-rule";
import { CommandWidget, DockingWidget, HbondListWidget, McWidget, readOptions } from "./answer-widgets";
import { AxesFigure } from "./axes-figure";
import { QuestionStage } from "./question-stage";
import { imageUrl, preloadImages } from "./image-preload";
import { pickMcLetterFromKey } from "./mc-keys";
import { useQuestionClock } from "./use-question-clock";
import type { CurrentQuestion, SessionState, SessionUpdate, SubmitResult } from "./types";
import { ATTEMPT_TIMEOUT_MS, isRetryableStatus, retryDelayAfterMs, withinBudget } from "@/lib/participant/submit-retry";
import { HBOND_TASK_IDS, HbondPrimer } from "./hbond-primer";
import { PracticeFeedback } from "./practice-feedback";
import { QuestionText } from "./question-text";
import { dropPendingAnswer, keepPendingAnswer, takePendingAnswer, type PendingAnswer } from "./pending-answer";

const MoleculeViewer = dynamic(() => import("@/components/molecule/molecule-viewer").then((m) => m.MoleculeViewer), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-600">Loading the 3D view…</p>,
});

/** Camera samples pushed by the 3D view (throttled there): time, orientation quaternion, distance. */
export interface CameraSample {
  t: number;
  q: [number, number, number, number];
  d: number;
}

/** 128 random bits as hex. crypto.randomUUID exists only in secure contexts (https/localhost); lab servers may be plain http. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * POST JSON; retries network failures, timeouts, 408/429 and 5xx with back-off for at least three minutes
 * (lib/participant/submit-retry.ts; the idempotency key makes retries safe). `onRetry` reports each new attempt.
 */
async function postWithRetry<T>(url: string, body: unknown, onRetry: (attempt: number) => void): Promise<T> {
  const startedAt = Date.now();
  for (let attempt = 0; ; attempt++) {
    // A shedding (503) or rate-limiting (429) server says when to come back; that wait replaces the back-off.
    let retryAfter: string | null = null;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const json = await res.json().catch(() => null);
      if (res.ok) return json as T;
      const message = json?.error?.message ?? `Request failed (${res.status}).`;
      if (!isRetryableStatus(res.status)) throw new HttpError(res.status, message);
      retryAfter = res.headers.get("retry-after");
      throw new Error(message);
    } catch (err) {
      const delay = retryDelayAfterMs(attempt + 1, retryAfter);
      if (err instanceof HttpError || !withinBudget(startedAt, Date.now(), delay)) throw err;
      onRetry(attempt + 1);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

function deviceInfo() {
  const pointer: DeviceFacts["pointer"] = window.matchMedia("(pointer: fine)").matches ? "fine" : window.matchMedia("(pointer: coarse)").matches ? "coarse" : "none";
  let webgl = false;
  try {
    webgl = !!document.createElement("canvas").getContext("webgl2");
  } catch {
    webgl = false;
  }
  return {
    viewportWidth: window.innerWidth,
    viewportHeight: window.innerHeight,
    screenWidth: window.screen.width,
    screenHeight: window.screen.height,
    devicePixelRatio: window.devicePixelRatio,
    userAgent: navigator.userAgent.slice(0, 1000),
    pointer,
    webgl,
  };
}

export function SessionApp({ initial }: { initial: SessionState }) {
  const [session, setSession] = useState(initial);
  const [feedback, setFeedback] = useState<{ state: SessionState; result: NonNullable<SubmitResult["practiceFeedback"]>; question: React.ComponentProps<typeof PracticeFeedback>["question"] } | null>(null);
  // Reloaded in the middle of a question already reported shown: its task's instructions (and the primer) were read.
  const resumedTask = initial.current?.alreadyShown ? initial.current.task.id : null;
  const [instructionsSeen, setInstructionsSeen] = useState<Set<string>>(() => new Set(resumedTask ? [resumedTask] : []));
  const [primerSeen, setPrimerSeen] = useState(initial.hbondPrimerSeen || (resumedTask !== null && HBOND_TASK_IDS.has(resumedTask)));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const consent = async (accept: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      setSession(await postWithRetry<SessionState>("/api/participant/consent", { accept, device: accept ? deviceInfo() : null }, (n) => setProblem(`Connection problem; retrying (attempt ${n})…`)));
      setProblem(null);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "Something went wrong.");
    } finally {
      setBusy(false);
    }
  };

  // The question was answered elsewhere (another tab) or released, or the session ended: show where the participant
  // really is instead of leaving a Submit button that can only fail again.
  const reloadSession = async (message: string) => {
    setProblem(message);
    try {
      const res = await fetch("/api/participant/session", { cache: "no-store" });
      if (res.ok) setSession((await res.json()) as SessionState);
    } catch {
      // Offline: the message stays and the participant can reload the page.
    }
  };

  const { participant, study, progress, current } = session;

  // A study that takes desktops only: a device it does not take is told so before consent (the server applies the same
  // rule, records the device and gives the screen-out message; it checks again at consent).
  const checkDevice = study.deviceRule === "desktop" && participant.status === "consenting" && !session.screenedOut;
  useEffect(() => {
    if (!checkDevice) return;
    const device = deviceInfo();
    if (deviceAllowed("desktop", device)) return;
    void postWithRetry<SessionState>("/api/participant/device", { device }, () => {})
      .then(setSession)
      .catch((err) => setProblem(err instanceof Error ? err.message : "Something went wrong."));
  }, [checkDevice]);

  // Untimed: the current question's images load while its instructions are read, the next question's while this one is
  // answered. Timed: nothing ahead; the server serves a question's images only once it has stamped the question shown
  // (the clock starts there), and QuestionScreen requests them after that.
  const timed = study.timeLimitSec !== null;
  const currentImageUrls = timed ? "" : (current?.item.images.map(imageUrl).join(",") ?? "");
  const upcomingImageUrls = timed ? "" : (session.upcomingImageUrls ?? session.upcomingImageIds?.map((id) => imageUrl({ id })) ?? []).join(",");
  useEffect(() => {
    void preloadImages(currentImageUrls ? currentImageUrls.split(",") : []).then(() => preloadImages(upcomingImageUrls ? upcomingImageUrls.split(",") : []));
  }, [currentImageUrls, upcomingImageUrls]);
  const percent = progress.total ? Math.round((100 * progress.answered) / progress.total) : 0;

  let body: React.ReactNode;
  // The question page fills the window on wide screens (its images and Submit stay within it); other screens scroll.
  let fitsWindow = false;
  if (session.screenedOut) {
    body = <EndScreen title="Thank you" text={session.screenedOut.message} url={session.screenedOut.returnUrl} />;
  } else if (participant.status === "declined") {
    body = <EndScreen title="You declined" text={study.declineMessage} url={null} />;
  } else if (session.completion) {
    body = <CompletionScreen completion={session.completion} />;
  } else if (!participant.consented && session.noWork) {
    body = <EndScreen title="No questions available" text="All questions of this study have already been answered by enough people, or the study is full, so there is no work left for you. Thank you for your interest; please return the study." url={null} />;
  } else if (!participant.consented) {
    body = <ConsentScreen text={study.consentText} busy={busy} onAnswer={consent} />;
  } else if (feedback) {
    body = <PracticeFeedback result={feedback.result} question={feedback.question} onContinue={() => { setSession(feedback.state); setFeedback(null); }} />;
  } else if (!current) {
    body = <EndScreen title="No questions available" text="All questions of this study have already been answered by enough people, so there is no work left for you. Thank you for your interest; please return the study." url={null} />;
  } else if (study.hbondPrimer && !primerSeen && HBOND_TASK_IDS.has(current.task.id) && !instructionsSeen.has(current.task.id) && !current.alreadyShown) {
    body = (
      <HbondPrimer
        onDone={() => {
          setPrimerSeen(true);
          // Recorded on the server so a resumed session (another browser) skips it; failing to record only means it may
          // be shown once more there.
          void postWithRetry("/api/participant/primer", {}, () => {}).catch(() => {});
        }}
      />
    );
  } else if (!instructionsSeen.has(current.task.id) && !current.alreadyShown) {
    // A question already reported shown (a reload mid-question) goes straight back to the question: in a timed study
    // its clock is running, and the instructions screen shows no countdown.
    body = <InstructionsScreen question={current} onStart={() => setInstructionsSeen(new Set([...instructionsSeen, current.task.id]))} />;
  } else {
    fitsWindow = true;
    body = (
      <QuestionScreen
        key={current.assignmentId}
        question={current}
        condition={participant.condition}
        timeLimitSec={study.timeLimitSec}
        onStored={async (result, update, answer) => {
          // The answer's response carries only what changed (progress, next question or end screen).
          const next: SessionState = { ...session, ...update };
          setProblem(null);
          if (result.practiceFeedback) {
            setFeedback({ state: next, result: result.practiceFeedback, question: { taskId: current.task.id, text: current.item.question, images: current.item.images, answer } });
            return;
          }
          // Untimed: the next question appears with its images (fetched ahead; waited for here at most a few seconds).
          if (!timed) await preloadImages(next.current?.item.images.map(imageUrl) ?? []);
          setSession(next);
        }}
        onStale={reloadSession}
      />
    );
  }

  return (
    <div className={`mx-auto max-w-screen-xl px-4 ${fitsWindow ? "py-2 lg:flex lg:h-dvh lg:flex-col" : "py-6"}`}>
      <header className={fitsWindow ? "mb-2" : "mb-6"}>
        <div className="flex items-center justify-between gap-4">
          <h1 className="text-lg font-semibold">{study.name}</h1>
          {participant.consented && progress.total > 0 ? (
            <span className="text-sm text-slate-600">
              {Math.min(progress.answered + (session.completion ? 0 : 1), progress.total)} of {progress.total}
            </span>
          ) : null}
        </div>
        {participant.consented && progress.total > 0 ? (
          <div className="mt-2 h-2 w-full rounded bg-slate-200" role="progressbar" aria-label="Progress" aria-valuemin={0} aria-valuemax={progress.total} aria-valuenow={progress.answered}>
            <div className="h-2 rounded bg-blue-700 transition-all" style={{ width: `${percent}%` }} />
          </div>
        ) : null}
      </header>
      {problem ? (
        <p role="alert" className="mb-2 rounded border border-amber-400 bg-amber-50 px-3 py-2 text-sm">
          {problem}
        </p>
      ) : null}
      {body}
    </div>
  );
}

function ConsentScreen({ text, busy, onAnswer }: { text: string; busy: boolean; onAnswer: (accept: boolean) => void }) {
  return (
    <section aria-labelledby="consent-title" className="max-w-3xl">
      <h2 id="consent-title" className="text-2xl font-semibold">
        Consent
      </h2>
      <div className="mt-4 whitespace-pre-line rounded border border-slate-300 bg-white p-4 leading-relaxed">{text}</div>
      <div className="mt-6 flex gap-3">
        <button type="button" disabled={busy} onClick={() => onAnswer(true)} className="rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60">
          I agree, start the study
        </button>
        <button type="button" disabled={busy} onClick={() => onAnswer(false)} className="rounded border border-slate-400 px-5 py-2 hover:bg-slate-100">
          I do not agree
        </button>
      </div>
    </section>
  );
}

function InstructionsScreen({ question, onStart }: { question: CurrentQuestion; onStart: () => void }) {
  return (
    <section aria-labelledby="instr-title" className="grid gap-6 md:grid-cols-[1fr_auto]">
      <div>
        <h2 id="instr-title" className="text-2xl font-semibold">
          Instructions: {question.task.label}
        </h2>
        <div className="mt-4 whitespace-pre-line leading-relaxed">{question.task.instructions}</div>
        <button type="button" autoFocus onClick={onStart} className="mt-6 rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800">
          {question.phase === "practice" ? "Start the practice question" : "Start"}
        </button>
      </div>
      <AxesFigure />
    </section>
  );
}

function CompletionScreen({ completion }: { completion: { code: string | null; url: string | null } }) {
  // Checked again here although the server validates it on save: a javascript: URL would run in this origin.
  const url = toSafeHttpUrl(completion.url);
  useEffect(() => {
    if (!url) return;
    const timer = setTimeout(() => window.location.assign(url), 5000);
    return () => clearTimeout(timer);
  }, [url]);
  return (
    <section aria-live="polite" className="max-w-2xl">
      <h2 className="text-2xl font-semibold">Thank you, you have finished the study</h2>
      <p className="mt-3">All your answers have been saved.</p>
      {completion.code ? (
        <p className="mt-3">
          Your completion code: <strong className="rounded bg-slate-100 px-2 py-1 font-mono text-lg" data-testid="completion-code">{completion.code}</strong>
        </p>
      ) : null}
      {url ? (
        <p className="mt-3">
          You will be redirected in a few seconds. If not, <a className="text-blue-700 underline" href={url}>click here to return</a>.
        </p>
      ) : null}
    </section>
  );
}

function EndScreen({ title, text, url: rawUrl }: { title: string; text: string; url: string | null }) {
  const url = toSafeHttpUrl(rawUrl);
  return (
    <section className="max-w-2xl">
      <h2 className="text-2xl font-semibold">{title}</h2>
      <p className="mt-3 whitespace-pre-line">{text}</p>
      {url ? (
        <a className="mt-4 inline-block text-blue-700 underline" href={url}>
          Return
        </a>
      ) : null}
    </section>
  );
}

function QuestionScreen({
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
  const events = useRef<Array<{ t: number; type: string; detail?: string }>>([]);
  const zooms = useRef(0);
  // Shown inline: switching to the instructions screen unmounted the question, which restarted the time limit and the
  // response-time clock, issued a new idempotency key and dropped the typed answer and the interaction log.
  const [instructionsOpen, setInstructionsOpen] = useState(false);
  // The Submit button that had focus is gone once the next question renders; without this, focus fell to <body> and
  // keyboard and screen-reader users were not told a new question had appeared.
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);

  useEffect(() => {
    shownAt.current = performance.now();
    // One key per question: a retried or double-clicked submit stores one response.
    idempotencyKey.current = randomKey();
  }, []);

  const parsed = text.trim() && task ? task.parseAnswer(text) : null;
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
        const out = await postWithRetry<{ result: SubmitResult; update: SessionUpdate }>("/api/participant/answer", body, (n) =>
          setStatus(`Reconnecting… your answer is kept and will be saved (attempt ${n + 1}).`),
        );
        dropPendingAnswer(body.idempotencyKey);
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
      });
    },
    [parsed, question.assignmentId, text, send],
  );

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
  const { remaining, reported } = useQuestionClock({ assignmentId: question.assignmentId, timeLimitSec, onExpire: () => void submit(true) });
  // Timed: the images and the 3D view are requested only once the server has stamped the question shown (it refuses
  // them before); the text comes first, the clock starts at the stamp, so loading the images counts against the limit.
  const contentPending = timeLimitSec !== null && reported === "pending";

  useEffect(() => {
    if (widget.type !== "mc") return;
    const onKey = (e: KeyboardEvent) => {
      const letter = pickMcLetterFromKey({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, target: e.target as HTMLInputElement | null }, widget.letters);
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
    events.current.push({ t: Math.round(performance.now() - shownAt.current), type: "widget", detail: value.slice(0, 200) });
  };

  return (
    <section aria-labelledby="q-title" className="lg:flex lg:min-h-0 lg:flex-1 lg:flex-col">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="q-title" ref={titleRef} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {question.task.label}
          {question.phase === "practice" ? <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-sm font-medium text-amber-900">Practice</span> : null}
        </h2>
        <div className="flex items-center gap-4 text-sm">
          {remaining !== null ? <span aria-live="polite" className={remaining < 15 ? "font-semibold text-red-700" : ""}>Time left: {remaining} s</span> : null}
          <button type="button" className="text-blue-700 underline" aria-expanded={instructionsOpen} aria-controls="q-instructions" onClick={() => setInstructionsOpen(!instructionsOpen)}>
            {instructionsOpen ? "Hide instructions" : "Show instructions"}
          </button>
        </div>
      </div>
      {timeLimitSec !== null && reported === "failed" ? (
        <p role="alert" className="mt-4 rounded border border-amber-400 bg-amber-50 px-3 py-2 text-sm">
          The server could not be told that this question is on screen, so its images may not load. Reload the page to try again.
        </p>
      ) : null}
      {/* One column on narrow screens in reading order: question, images, answer. Wide screens: the images left, the
          question and the answer right, all within the window, the answer's own area scrolling so Submit stays on screen. */}
      <div className="mt-2 flex flex-col gap-4 lg:grid lg:min-h-0 lg:flex-1 lg:grid-cols-[minmax(0,1fr)_400px] lg:grid-rows-[auto_minmax(0,1fr)] lg:gap-x-6 lg:gap-y-3">
        {/* Focusable: a long question scrolls inside this area on wide screens, and the keyboard must reach it too. */}
        <div
          role="region"
          aria-label="Question"
          tabIndex={0}
          className={`lg:col-start-2 lg:row-start-1 lg:overflow-y-auto lg:pr-1 ${instructionsOpen ? "lg:max-h-[60dvh]" : "lg:max-h-[38dvh]"}`}
        >
          {instructionsOpen ? (
            <div id="q-instructions" className="mb-3 grid gap-4 rounded border border-slate-300 bg-white p-3 text-sm">
              <div className="whitespace-pre-line leading-relaxed">{question.task.instructions}</div>
              <AxesFigure />
            </div>
          ) : null}
          <QuestionText text={question.item.question} optionsShownElsewhere={widget.type === "mc" && readOptions(question.item.payload).some((o) => !o.text.startsWith("Option "))} />
        </div>
        <div className="relative lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:min-h-0">
          <QuestionStage
            images={question.item.images}
            pending={contentPending}
            onZoom={() => (zooms.current += 1)}
            onEvent={(type, detail) => events.current.push({ t: Math.round(performance.now() - shownAt.current), type, detail })}
            viewer3d={
              condition === "interactive" && question.interactive ? (
                contentPending ? (
                  <p className="text-sm text-slate-600">Loading the 3D view…</p>
                ) : (
                  <MoleculeViewer assignmentId={question.assignmentId} allowRotate={question.interactive.allowRotate} allowZoom={question.interactive.allowZoom} onCameraSample={(s) => camera.current.push(s)} />
                )
              ) : null
            }
          />
        </div>
        <form
          className="flex flex-col rounded border border-slate-300 bg-white lg:col-start-2 lg:row-start-2 lg:min-h-0 lg:self-start lg:max-h-full"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="space-y-4 p-4 lg:min-h-0 lg:overflow-y-auto">
            {widget.type === "mc" ? <McWidget widget={widget} payload={question.item.payload} captions={question.item.images.map((i) => i.caption)} value={text.trim().toUpperCase()} onChange={onWidget} /> : null}
            {widget.type === "command" ? <CommandWidget widget={widget} onChange={onWidget} /> : null}
            {widget.type === "docking" ? <DockingWidget widget={widget} onChange={onWidget} /> : null}
            {widget.type === "hbond-list" ? <HbondListWidget widget={widget} payload={question.item.payload} onChange={onWidget} /> : null}
            <div>
              <label htmlFor="answer-text" className="block text-sm font-medium">
                Your answer {widget.type === "mc" ? "(letter)" : "(you can also type it)"}
              </label>
              <input
                id="answer-text"
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={text}
                onChange={(e) => setText(e.target.value)}
                aria-describedby="answer-feedback"
                aria-invalid={parsed !== null && !parsed.ok}
                className="mt-1 w-full rounded border border-slate-400 px-3 py-2 font-mono"
              />
              <p id="answer-feedback" aria-live="polite" className={`mt-1 min-h-5 text-sm ${parsed && !parsed.ok ? "text-red-700" : "text-slate-600"}`}>
                {parsed ? (parsed.ok ? `Will be recorded as: ${parsed.canonical}` : parsed.error) : "Enter an answer."}
              </p>
            </div>
          </div>
          <div className="shrink-0 space-y-2 border-t border-slate-200 px-4 py-3">
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
            <button type="submit" disabled={submitting || !parsed || !parsed.ok} className="rounded bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-50">
              {submitting ? "Saving…" : "Submit answer"}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
