import {
  TASK_TIME_FLOORS_MS,
  type AnswerSignals,
  type ExclusionRuleId,
  type SignalDevice,
} from "@/lib/participant/integrity";
import type { TaskId } from "@/lib/tasks/types";
import type { ExportColumn } from "./columns";

// The integrity signals' export columns (docs/integrity-signals.md): appended to the responses and participants files,
// described here so the codebook carries them.

const BROWSER =
  "Measured by the participant's browser while the question was open and sent with the answer; empty when the answer carried no signals (a browser without the recorder).";
const FLOORS = Object.entries(TASK_TIME_FLOORS_MS)
  .map(([t, ms]) => `${t} ${ms} ms`)
  .join(", ");

/** What the response columns read: the stored signals and the derived run length. */
export interface SignalCells {
  taskId: string;
  phase: string;
  canonicalAnswer: string;
  rtClientMs: number | null;
  rtServerMs: number | null;
  signals: AnswerSignals | null;
  identicalRun: number | null;
}

function browser<Row extends SignalCells>(
  key: string,
  type: "integer" | "number" | "boolean" | "string",
  description: string,
  get: (s: AnswerSignals) => number | boolean | string,
  extra: Partial<ExportColumn<Row>> = {},
): ExportColumn<Row> {
  return {
    key,
    type,
    description: `${description} ${BROWSER}`,
    get: (r) => (r.signals ? get(r.signals) : null),
    ...extra,
  };
}

function floorOf(r: SignalCells): number | null {
  return TASK_TIME_FLOORS_MS[r.taskId as TaskId] ?? null;
}

export function responseSignalColumns<Row extends SignalCells>(): ExportColumn<Row>[] {
  return [
    browser<Row>(
      "sig_hidden_ms",
      "integer",
      "Total time the page was hidden (another tab or window in front, minimised, screen locked: document.visibilityState 'hidden').",
      (s) => s.hiddenMs,
      {
        unit: "ms",
      },
    ),
    browser<Row>("sig_hidden_count", "integer", "How many times the page became hidden.", (s) => s.hiddenCount),
    browser<Row>(
      "sig_focus_losses",
      "integer",
      "How many times the browser window lost focus (window blur: another window or application, the browser's own UI).",
      (s) => s.blurCount,
    ),
    browser<Row>("sig_unfocused_ms", "integer", "Total time the window had no focus.", (s) => s.blurMs, { unit: "ms" }),
    browser<Row>(
      "sig_paste_count",
      "integer",
      "Paste events into an answer field (the pasted text is never recorded).",
      (s) => s.pasteCount,
    ),
    browser<Row>("sig_paste_chars", "integer", "Characters pasted into answer fields, in total.", (s) => s.pasteChars, {
      unit: "characters",
    }),
    browser<Row>(
      "sig_copy_count",
      "integer",
      "Copy or cut events on the question page (e.g. the question text).",
      (s) => s.copyCount,
    ),
    browser<Row>("sig_copy_chars", "integer", "Characters selected when copying, in total.", (s) => s.copyChars, {
      unit: "characters",
    }),
    browser<Row>(
      "sig_reloads",
      "integer",
      "Reloads of the page while the question was open (the other counts carry over a reload).",
      (s) => s.reloads,
    ),
    browser<Row>(
      "sig_webdriver",
      "boolean",
      "1 when navigator.webdriver was true: the browser was driven by automation (WebDriver, Playwright, Puppeteer…).",
      (s) => s.webdriver,
      {
        values: ["0", "1"],
      },
    ),
    browser<Row>(
      "sig_viewport_width",
      "integer",
      "Browser window width (window.innerWidth) at submit.",
      (s) => s.device.viewportWidth,
      { unit: "CSS px" },
    ),
    browser<Row>(
      "sig_viewport_height",
      "integer",
      "Browser window height (window.innerHeight) at submit.",
      (s) => s.device.viewportHeight,
      { unit: "CSS px" },
    ),
    browser<Row>(
      "sig_device_pixel_ratio",
      "number",
      "window.devicePixelRatio at submit.",
      (s) => s.device.devicePixelRatio,
    ),
    browser<Row>(
      "sig_pointer",
      "string",
      "The primary pointer (CSS pointer media feature): fine (mouse, trackpad), coarse (touch) or none.",
      (s) => s.device.pointer,
      {
        values: ["fine", "coarse", "none"],
      },
    ),
    browser<Row>(
      "sig_touch",
      "boolean",
      "1 when the device has a touch screen (navigator.maxTouchPoints > 0).",
      (s) => s.device.touch,
      { values: ["0", "1"] },
    ),
    {
      key: "time_floor_ms",
      type: "integer",
      unit: "ms",
      description: `The task's time floor (lib/participant/integrity.ts): the least time in which an answer could be based on the images at all (${FLOORS}).`,
      get: (r) => floorOf(r),
    },
    {
      key: "under_time_floor",
      type: "boolean",
      values: ["0", "1"],
      description:
        "1 when the answer was stored faster than time_floor_ms (rt_server_ms; rt_browser_ms only without it); empty for a time-out or without a time. A server-side signal.",
      get: (r) => {
        const floor = floorOf(r);
        const t = r.rtServerMs ?? r.rtClientMs;
        return floor === null || t === null || r.canonicalAnswer === "" ? null : t < floor;
      },
    },
    {
      key: "identical_run",
      type: "integer",
      description:
        "Main phase: how many of the participant's main answers in a row, up to and including this one (submission order), have this same canonical answer (1 = differs from the previous; 0 = time-out, which breaks a run); empty for practice and attention answers. A server-side signal.",
      get: (r) => r.identicalRun,
    },
  ];
}

/** What the participant columns read. */
export interface ParticipantSignalCells {
  signalDevice: SignalDevice | null;
  signalWebdriver: boolean | null;
  signalTotals: {
    nWithSignals: number;
    hiddenMs: number;
    blurCount: number;
    pasteCount: number;
    pasteChars: number;
    copyCount: number;
    nTimed: number;
    nUnderFloor: number;
    maxIdenticalRun: number;
  } | null;
  excludedBy: ExclusionRuleId[] | null;
}

export function participantSignalColumns<Row extends ParticipantSignalCells>(): ExportColumn<Row>[] {
  const total = (
    key: string,
    description: string,
    get: (t: NonNullable<ParticipantSignalCells["signalTotals"]>) => number,
    unit?: string,
  ): ExportColumn<Row> => ({
    key,
    type: "integer",
    description: `${description} Over main-phase answers; empty without main answers.`,
    ...(unit ? { unit } : {}),
    get: (r) => (r.signalTotals ? get(r.signalTotals) : null),
  });
  return [
    {
      key: "sig_webdriver",
      type: "boolean",
      values: ["0", "1"],
      description:
        "1 when any answer reported navigator.webdriver (browser automation); empty when no answer carried browser signals.",
      get: (r) => r.signalWebdriver,
    },
    {
      key: "sig_viewport_width",
      type: "integer",
      unit: "CSS px",
      description: "Window width at the participant's first signalled answer.",
      get: (r) => r.signalDevice?.viewportWidth ?? null,
    },
    {
      key: "sig_viewport_height",
      type: "integer",
      unit: "CSS px",
      description: "Window height at the participant's first signalled answer.",
      get: (r) => r.signalDevice?.viewportHeight ?? null,
    },
    {
      key: "sig_device_pixel_ratio",
      type: "number",
      description: "devicePixelRatio at the first signalled answer.",
      get: (r) => r.signalDevice?.devicePixelRatio ?? null,
    },
    {
      key: "sig_pointer",
      type: "string",
      values: ["fine", "coarse", "none"],
      description: "Primary pointer at the first signalled answer.",
      get: (r) => r.signalDevice?.pointer ?? null,
    },
    {
      key: "sig_touch",
      type: "boolean",
      values: ["0", "1"],
      description: "Touch screen (maxTouchPoints > 0) at the first signalled answer.",
      get: (r) => r.signalDevice?.touch ?? null,
    },
    total("sig_n_answers_with_signals", "Main answers that carried browser signals.", (t) => t.nWithSignals),
    total("sig_hidden_ms_total", "Total time the page was hidden.", (t) => t.hiddenMs, "ms"),
    total("sig_focus_losses_total", "Focus losses in total.", (t) => t.blurCount),
    total("sig_paste_count_total", "Pastes into answer fields in total.", (t) => t.pasteCount),
    total("sig_paste_chars_total", "Characters pasted in total.", (t) => t.pasteChars, "characters"),
    total("sig_copy_count_total", "Copies on question pages in total.", (t) => t.copyCount),
    total(
      "n_timed_answers",
      "Answers with a response time (time-outs excluded), the base of under_time_floor.",
      (t) => t.nTimed,
    ),
    total("n_under_time_floor", "Answers faster than their task's time floor.", (t) => t.nUnderFloor),
    total("max_identical_run", "Longest run of identical canonical answers in a row.", (t) => t.maxIdenticalRun),
    {
      key: "excluded_by",
      type: "string",
      description:
        "The rules of the study's exclusion policy (study config exclusions) that exclude this participant from the results' 'after exclusions' figures, separated by ' | ' (hiddenSecOver, focusLossesOver, anyPaste, anyCopy, webdriver, fastPercentAtLeast, identicalRunAtLeast); empty: kept.",
      get: (r) => (r.excludedBy ? r.excludedBy.join(" | ") : null),
    },
  ];
}
