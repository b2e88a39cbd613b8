"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { deviceAllowed } from "@/lib/participant/device-rule";
import { progressOf } from "@/lib/participant/progress";
import { CompletionScreen } from "./completion-screen";
import { ConsentScreen } from "./consent-screen";
import { deviceInfo } from "./device-probe";
import { displayedTasksSnapshot, markTaskDisplayed, parseDisplayedTasks } from "./displayed-tasks";
import { EndScreen } from "./end-screen";
import { HBOND_TASK_IDS, HbondPrimer } from "./hbond-primer";
import { imageUrl, preloadImages } from "./image-preload";
import { InstructionsScreen } from "./instructions-screen";
import { participantApi } from "./participant-api-client";
import { PracticeFeedback } from "./practice-feedback";
import { QuestionScreen } from "./question-screen";
import type { SessionState, SubmitResult } from "./types";

const noSubscription = () => () => {};
let desktopDecision: boolean | null = null;
/** The browser's own verdict on the desktop rule (one device per page load). */
function desktopAdmitted(): boolean {
  return (desktopDecision ??= deviceAllowed("desktop", deviceInfo()));
}

/**
 * The participant's session: which screen shows (consent, primer, instructions, question, practice feedback, end),
 * driven by the server's session state; each screen is its own component.
 */
export function SessionApp({ initial }: { initial: SessionState }) {
  const [session, setSession] = useState(initial);
  const [feedback, setFeedback] = useState<{
    state: SessionState;
    result: NonNullable<SubmitResult["practiceFeedback"]>;
    question: React.ComponentProps<typeof PracticeFeedback>["question"];
  } | null>(null);
  // Reloaded in the middle of a question already reported shown: its task's instructions (and the primer) were read.
  const resumedTask = initial.current?.alreadyShown ? initial.current.task.id : null;
  const [instructionsSeen, setInstructionsSeen] = useState<Set<string>>(
    () => new Set(resumedTask ? [resumedTask] : []),
  );
  const [primerSeen, setPrimerSeen] = useState(
    initial.hbondPrimerSeen || (resumedTask !== null && HBOND_TASK_IDS.has(resumedTask)),
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const consent = async (accept: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      setSession(
        await participantApi.consent({ accept, device: accept ? deviceInfo() : null }, (n) =>
          setProblem(`Connection problem; retrying (attempt ${n})…`),
        ),
      );
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
    // Unreadable (offline): the message stays and the participant can reload the page.
    const fresh = await participantApi.session();
    if (fresh) setSession(fresh);
  };

  const { participant, study, progress, current } = session;
  // Tasks whose questions this tab displayed before a reload (an untimed study has no server stamp to say so); read
  // after hydration (the server-rendered page cannot know).
  const displayedTasks = parseDisplayedTasks(
    useSyncExternalStore(
      noSubscription,
      () => displayedTasksSnapshot(participant.id),
      () => "",
    ),
  );
  // Untimed: also when this tab displayed a question of the task before a reload, or the server says one was answered
  // (another browser resuming the session). A timed study's resumed question is told by its "shown" stamp
  // (alreadyShown), as before.
  const instructionsDone = (taskId: string) =>
    instructionsSeen.has(taskId) ||
    (study.timeLimitSec === null &&
      (displayedTasks.includes(taskId) || (current?.task.id === taskId && current.taskAnswered === true)));

  // A study that takes desktops only: a device it does not take is told so before consent (the server applies the same
  // rule, records the device and gives the screen-out message; it checks again at consent).
  const checkDevice = study.deviceRule === "desktop" && participant.status === "consenting" && !session.screenedOut;
  // Decided before the consent page paints: the server-rendered page (which cannot know the device) and a refused
  // device while the server records it show a neutral line, so a phone never sees consent replaced by a refusal.
  const deviceAdmitted = useSyncExternalStore(
    noSubscription,
    () => !checkDevice || desktopAdmitted(),
    () => !checkDevice,
  );
  useEffect(() => {
    if (!checkDevice) return;
    const device = deviceInfo();
    if (deviceAllowed("desktop", device)) return;
    void participantApi
      .device({ device })
      .then(setSession)
      .catch((err) => setProblem(err instanceof Error ? err.message : "Something went wrong."));
  }, [checkDevice]);

  // Untimed: the current question's images load while its instructions are read, the next question's while this one is
  // answered. Timed: nothing ahead; the server serves a question's images only once it has stamped the question shown
  // (the clock starts there), and QuestionScreen requests them after that.
  const timed = study.timeLimitSec !== null;
  const currentImageUrls = timed ? "" : (current?.item.images.map(imageUrl).join(",") ?? "");
  const upcomingImageUrls = timed
    ? ""
    : (session.upcomingImageUrls ?? session.upcomingImageIds?.map((id) => imageUrl({ id })) ?? []).join(",");
  useEffect(() => {
    void preloadImages(currentImageUrls ? currentImageUrls.split(",") : []).then(() =>
      preloadImages(upcomingImageUrls ? upcomingImageUrls.split(",") : []),
    );
  }, [currentImageUrls, upcomingImageUrls]);
  const shownProgress = progressOf(
    progress,
    current?.phase === "practice",
    session.completion !== null && session.completion !== undefined,
  );
  const percent = shownProgress.total ? Math.round((100 * shownProgress.answered) / shownProgress.total) : 0;

  let body: React.ReactNode;
  // The task of the question on screen, if one is.
  let displayedTask: string | null = null;
  // The question page fills the window on wide screens (its images and Submit stay within it); other screens scroll.
  let fitsWindow = false;
  if (session.screenedOut) {
    body = <EndScreen title="Thank you" text={session.screenedOut.message} url={session.screenedOut.returnUrl} />;
  } else if (participant.status === "declined") {
    body = <EndScreen title="You declined" text={study.declineMessage} url={null} />;
  } else if (session.completion) {
    body = <CompletionScreen completion={session.completion} />;
  } else if (!participant.consented && session.noWork) {
    body = (
      <EndScreen
        title="No questions available"
        text="All questions of this study have already been answered by enough people, or the study is full, so there is no work left for you. Thank you for your interest; please return the study."
        url={null}
      />
    );
  } else if (!participant.consented && checkDevice && !deviceAdmitted) {
    body = <p className="text-slate-600">Checking your device…</p>;
  } else if (!participant.consented) {
    body = <ConsentScreen text={study.consentText} busy={busy} onAnswer={consent} />;
  } else if (feedback) {
    body = (
      <PracticeFeedback
        result={feedback.result}
        question={feedback.question}
        onContinue={() => {
          setSession(feedback.state);
          setFeedback(null);
        }}
      />
    );
  } else if (!current) {
    body = (
      <EndScreen
        title="No questions available"
        text="All questions of this study have already been answered by enough people, so there is no work left for you. Thank you for your interest; please return the study."
        url={null}
      />
    );
  } else if (
    study.hbondPrimer &&
    !primerSeen &&
    HBOND_TASK_IDS.has(current.task.id) &&
    !instructionsDone(current.task.id) &&
    !current.alreadyShown
  ) {
    body = (
      <HbondPrimer
        onDone={() => {
          setPrimerSeen(true);
          // Recorded on the server so a resumed session (another browser) skips it; failing to record only means it may
          // be shown once more there.
          void participantApi.primer().catch(() => {});
        }}
      />
    );
  } else if (!instructionsDone(current.task.id) && !current.alreadyShown) {
    // A question already reported shown (a reload mid-question) goes straight back to the question: in a timed study
    // its clock is running, and the instructions screen shows no countdown.
    body = (
      <InstructionsScreen
        question={current}
        onStart={() => setInstructionsSeen(new Set([...instructionsSeen, current.task.id]))}
      />
    );
  } else {
    fitsWindow = true;
    displayedTask = current.task.id;
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
            setFeedback({
              state: next,
              result: result.practiceFeedback,
              question: { taskId: current.task.id, text: current.item.question, images: current.item.images, answer },
            });
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

  useEffect(() => {
    if (displayedTask) markTaskDisplayed(participant.id, displayedTask);
  }, [participant.id, displayedTask]);

  return (
    <div
      className={`mx-auto px-4 ${fitsWindow ? "max-w-[1920px] py-2 lg:flex lg:h-dvh lg:flex-col" : "max-w-screen-xl py-6"}`}
    >
      <header className={fitsWindow ? "mb-2" : "mb-6"}>
        <div className="flex items-center justify-between gap-4">
          <h1 className="text-lg font-semibold">{study.name}</h1>
          {participant.consented && progress.total > 0 ? (
            <span className="text-sm text-slate-600">{shownProgress.label}</span>
          ) : null}
        </div>
        {participant.consented && progress.total > 0 ? (
          <div
            className="mt-2 h-2 w-full rounded bg-slate-200"
            role="progressbar"
            aria-label="Progress"
            aria-valuemin={0}
            aria-valuemax={shownProgress.total}
            aria-valuenow={shownProgress.answered}
          >
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
