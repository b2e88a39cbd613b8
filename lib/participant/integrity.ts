import { z } from "zod";
import type { TaskId } from "@/lib/tasks/types";

/**
 * Participant integrity signals: what the browser measured while one question was open (sent with the answer), the
 * server-side signals derived from the stored answers (time under a per-task floor, runs of identical answers), and the
 * study's exclusion policy over both. Signals are facts, not verdicts: nothing here changes what a participant sees;
 * the policy only decides which participants the results page also reports without. docs/integrity-signals.md.
 */

/** Bounds of what a real browser could reach while one question is open; beyond is a tampered body (422). The browser
 * clamps to them, so an honest participant is never refused. */
export const SIGNAL_LIMITS = { ms: 24 * 3600 * 1000, count: 10_000, chars: 1_000_000 } as const;
const DAY_MS = SIGNAL_LIMITS.ms;
const MAX_COUNT = SIGNAL_LIMITS.count;
const MAX_CHARS = SIGNAL_LIMITS.chars;

const count = z.number().int().min(0).max(MAX_COUNT);
const ms = z.number().int().min(0).max(DAY_MS);
const chars = z.number().int().min(0).max(MAX_CHARS);

/** The device as the browser reported it when the answer was given. */
export const SignalDeviceSchema = z
  .object({
    /** window.innerWidth / innerHeight, CSS px. */
    viewportWidth: z.number().int().min(0).max(100_000),
    viewportHeight: z.number().int().min(0).max(100_000),
    devicePixelRatio: z.number().min(0).max(20),
    /** The primary pointer (CSS `pointer` media feature). */
    pointer: z.enum(["fine", "coarse", "none"]),
    /** navigator.maxTouchPoints > 0. */
    touch: z.boolean(),
  })
  .strict();
export type SignalDevice = z.infer<typeof SignalDeviceSchema>;

/** What the browser measured while one question was open (components/study/integrity-signals.ts). */
export const AnswerSignalsSchema = z
  .object({
    /** Total time the page was hidden (document.visibilityState "hidden": another tab, minimised window, locked screen). */
    hiddenMs: ms,
    /** How many times it became hidden. */
    hiddenCount: count,
    /** How many times the window lost focus (window blur: another window or application, the browser's own UI). */
    blurCount: count,
    /** Total time without focus. */
    blurMs: ms,
    /** Paste events into the answer fields, and the characters pasted (never the text itself). */
    pasteCount: count,
    pasteChars: chars,
    /** Copy (and cut) events on the question page, and the characters selected. */
    copyCount: count,
    copyChars: chars,
    /** Reloads of the page while this question was open (the counts above carry over a reload). */
    reloads: count,
    /** navigator.webdriver: the browser is driven by automation (WebDriver, Playwright, Puppeteer…). */
    webdriver: z.boolean(),
    device: SignalDeviceSchema,
  })
  .strict();
export type AnswerSignals = z.infer<typeof AnswerSignalsSchema>;

/**
 * The least time (ms, question shown → answer stored) in which an answer of each task could be based on its images at
 * all: perceiving the images that must be compared (a fixation of ~0.25–0.3 s each) plus the fastest way to enter the
 * answer (one click or key for a letter or "No"; the command widget's selects, or typing at a fast 5–8 characters/s).
 * No reasoning time is included, so an honest fast participant stays above it; an answer under it was given without
 * looking. Reading the question text alone (40–80 words at ~4 words/s) takes longer than any floor.
 *
 * T1–T3 compare two views (front and front-after) and enter a short command: 3 s. T4 inspects six views of one
 * residue; "No" is one click: 3 s. T5/T6 compare 8–11 images before picking a letter: 4 s. T7 enters a two-part
 * command after comparing pocket and ligand views: 5 s. T8 picks a letter after locating a named bond in six views:
 * 3 s. T9 lists at least one bond as `RES num atom chain, atom` (~17 characters, 2–3 s of typing) after finding it: 6 s.
 */
export const TASK_TIME_FLOORS_MS: Readonly<Record<TaskId, number>> = {
  translation: 3_000,
  rotation: 3_000,
  zooming: 3_000,
  residue_ligand: 3_000,
  translation_rotation: 4_000,
  rotation_rotation: 4_000,
  docking: 5_000,
  interaction_location: 3_000,
  pocket_ligand: 6_000,
};

/**
 * The response time the floor is checked on: the server's (question shown → stored), which a scripted client cannot
 * make longer than the server saw (in an untimed study the display is placed by the client's time, bounded by when the
 * question was served: reporting a small number only makes it shorter, and so flagged); the client's only when the
 * server has none.
 */
export function floorTimeMs(answer: { rtServerMs: number | null; rtClientMs: number | null }): number | null {
  return answer.rtServerMs ?? answer.rtClientMs;
}

/** True when the answer came faster than its task's floor; null when no time is known or the answer is a time-out. */
export function isUnderFloor(answer: {
  taskId: string;
  rtServerMs: number | null;
  rtClientMs: number | null;
  canonicalAnswer: string;
}): boolean | null {
  const floor = TASK_TIME_FLOORS_MS[answer.taskId as TaskId];
  const t = floorTimeMs(answer);
  if (floor === undefined || t === null || answer.canonicalAnswer === "") return null;
  return t < floor;
}

/**
 * Run length of identical answers: for each answer (in submission order), how many answers in a row up to and
 * including it have the same canonical text (1 = differs from the previous one). An empty answer (time-out) is no
 * answer: it gets 0 and breaks the run. Canonical text is compared, so "a" and "A" are the same MC answer.
 */
export function identicalRunLengths(canonicalAnswers: readonly string[]): number[] {
  const out: number[] = [];
  let previous: string | null = null;
  let run = 0;
  for (const answer of canonicalAnswers) {
    if (answer === "") {
      previous = null;
      run = 0;
      out.push(0);
      continue;
    }
    run = answer === previous ? run + 1 : 1;
    previous = answer;
    out.push(run);
  }
  return out;
}

/** Carries the identical-answer run across the rows of one participant read in submission order (the export's pages). */
export class IdenticalRunTracker {
  private readonly last = new Map<string, { answer: string; run: number }>();

  next(participantId: string, canonicalAnswer: string): number {
    if (canonicalAnswer === "") {
      this.last.delete(participantId);
      return 0;
    }
    const before = this.last.get(participantId);
    const run = before && before.answer === canonicalAnswer ? before.run + 1 : 1;
    this.last.set(participantId, { answer: canonicalAnswer, run });
    return run;
  }
}

/**
 * Which signals exclude a participant from the "with exclusions" results, and from which threshold. Null / false:
 * the rule is off. Default: no rule, nobody excluded. Set it before the study opens (it is part of the study's
 * configuration, frozen once participants joined), so exclusions are decided before the data are seen.
 */
export const ExclusionPolicySchema = z
  .object({
    /** Total time with the page hidden over all main answers above this many seconds. */
    hiddenSecOver: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600)
      .nullable()
      .default(null),
    /** Focus losses over all main answers above this count. */
    focusLossesOver: z.number().int().min(0).max(MAX_COUNT).nullable().default(null),
    /** Any paste into an answer field. */
    anyPaste: z.boolean().default(false),
    /** Any copy on a question page. */
    anyCopy: z.boolean().default(false),
    /** navigator.webdriver reported on any answer. */
    webdriver: z.boolean().default(false),
    /** At least this percentage of main answers under their task's floor (TASK_TIME_FLOORS_MS). */
    fastPercentAtLeast: z.number().min(0).max(100).nullable().default(null),
    /** A run of at least this many identical answers in a row. */
    identicalRunAtLeast: z.number().int().min(2).max(1000).nullable().default(null),
  })
  .strict();
export type ExclusionPolicy = z.output<typeof ExclusionPolicySchema>;
export type ExclusionRuleId = keyof ExclusionPolicy;
export const EXCLUSION_RULE_IDS = [
  "hiddenSecOver",
  "focusLossesOver",
  "anyPaste",
  "anyCopy",
  "webdriver",
  "fastPercentAtLeast",
  "identicalRunAtLeast",
] as const satisfies readonly ExclusionRuleId[];

/** One participant's signals over their main answers: what the policy reads. */
export interface ParticipantSignalSummary {
  participantId: string;
  nAnswers: number;
  /** Answers that sent signals (an older client, or a lost body, sends none). */
  nWithSignals: number;
  hiddenMs: number;
  hiddenCount: number;
  blurCount: number;
  pasteCount: number;
  pasteChars: number;
  copyCount: number;
  webdriver: boolean;
  /** Answers with a known time, and those under their task's floor. */
  nTimed: number;
  nUnderFloor: number;
  maxIdenticalRun: number;
}

/** One main answer as the summary reads it: its stored fields plus the browser's signals (null when none were sent). */
export interface SignalledAnswer {
  participantId: string;
  taskId: string;
  canonicalAnswer: string;
  rtClientMs: number | null;
  rtServerMs: number | null;
  signals: AnswerSignals | null;
}

/** Per-participant summaries; `answers` must be in submission order (identical runs depend on it). */
export function summarizeParticipantSignals(answers: readonly SignalledAnswer[]): ParticipantSignalSummary[] {
  const byParticipant = new Map<string, SignalledAnswer[]>();
  for (const a of answers) {
    const list = byParticipant.get(a.participantId);
    if (list) list.push(a);
    else byParticipant.set(a.participantId, [a]);
  }
  return [...byParticipant.entries()].map(([participantId, list]) => {
    const s: ParticipantSignalSummary = {
      participantId,
      nAnswers: list.length,
      nWithSignals: 0,
      hiddenMs: 0,
      hiddenCount: 0,
      blurCount: 0,
      pasteCount: 0,
      pasteChars: 0,
      copyCount: 0,
      webdriver: false,
      nTimed: 0,
      nUnderFloor: 0,
      maxIdenticalRun: Math.max(0, ...identicalRunLengths(list.map((a) => a.canonicalAnswer))),
    };
    for (const a of list) {
      const under = isUnderFloor(a);
      if (under !== null) {
        s.nTimed += 1;
        if (under) s.nUnderFloor += 1;
      }
      if (!a.signals) continue;
      s.nWithSignals += 1;
      s.hiddenMs += a.signals.hiddenMs;
      s.hiddenCount += a.signals.hiddenCount;
      s.blurCount += a.signals.blurCount;
      s.pasteCount += a.signals.pasteCount;
      s.pasteChars += a.signals.pasteChars;
      s.copyCount += a.signals.copyCount;
      s.webdriver ||= a.signals.webdriver;
    }
    return s;
  });
}

/** Does one rule of the policy exclude this participant? False for a rule that is off. */
export function ruleExcludes(rule: ExclusionRuleId, policy: ExclusionPolicy, s: ParticipantSignalSummary): boolean {
  switch (rule) {
    case "hiddenSecOver":
      return policy.hiddenSecOver !== null && s.hiddenMs > policy.hiddenSecOver * 1000;
    case "focusLossesOver":
      return policy.focusLossesOver !== null && s.blurCount > policy.focusLossesOver;
    case "anyPaste":
      return policy.anyPaste && s.pasteCount > 0;
    case "anyCopy":
      return policy.anyCopy && s.copyCount > 0;
    case "webdriver":
      return policy.webdriver && s.webdriver;
    case "fastPercentAtLeast":
      return (
        policy.fastPercentAtLeast !== null &&
        s.nTimed > 0 &&
        (100 * s.nUnderFloor) / s.nTimed >= policy.fastPercentAtLeast
      );
    case "identicalRunAtLeast":
      return policy.identicalRunAtLeast !== null && s.maxIdenticalRun >= policy.identicalRunAtLeast;
  }
}

/** The rules that are on (a threshold set, or a boolean true). */
export function activeRules(policy: ExclusionPolicy): ExclusionRuleId[] {
  return EXCLUSION_RULE_IDS.filter((rule) => policy[rule] !== null && policy[rule] !== false);
}

/** The rules that exclude this participant (empty: kept). */
export function exclusionReasons(policy: ExclusionPolicy, s: ParticipantSignalSummary): ExclusionRuleId[] {
  return activeRules(policy).filter((rule) => ruleExcludes(rule, policy, s));
}

/** How a rule reads in the study form and the results table. */
export function describeRule(rule: ExclusionRuleId, policy: ExclusionPolicy): string {
  switch (rule) {
    case "hiddenSecOver":
      return `page hidden more than ${policy.hiddenSecOver ?? "N"} s in total`;
    case "focusLossesOver":
      return `more than ${policy.focusLossesOver ?? "N"} focus losses in total`;
    case "anyPaste":
      return "any paste into an answer field";
    case "anyCopy":
      return "any copy on a question page";
    case "webdriver":
      return "browser automation (navigator.webdriver)";
    case "fastPercentAtLeast":
      return `at least ${policy.fastPercentAtLeast ?? "X"} % of answers under the task's time floor`;
    case "identicalRunAtLeast":
      return `${policy.identicalRunAtLeast ?? "K"} or more identical answers in a row`;
  }
}
