/*
 * Per-question time limits on the server's clock. The server stamps the moment the question itself
 * is displayed (Assignment.questionShownAt, once); the deadline is that stamp plus the study's limit.
 * The browser never times the question on its own: it converts the server's deadline to its own
 * clock with the offset measured on the "question shown" call, so a reload or a slow device cannot
 * restart or stretch the countdown.
 */

/** A timed-out submit fires this long after the deadline, so the server's own check has passed. */
export const TIMEOUT_SUBMIT_MARGIN_MS = 500;

/**
 * An answer (not a time-out) reaching the server later than this after the deadline is stored as late: kept with its
 * text and canonical form, scored 0 like a time-out, and flagged (Response.late, the export's `late` column). The
 * grace covers an answer submitted in the last moment that is still in flight, and a slow network; the browser's own
 * time-out submit fires TIMEOUT_SUBMIT_MARGIN_MS after the deadline, far inside it.
 */
export const LATE_ANSWER_GRACE_MS = 5_000;

/** Deadline in epoch ms, or null without a limit. */
export function questionDeadlineMs(shownAtMs: number, timeLimitSec: number | null): number | null {
  return timeLimitSec === null ? null : shownAtMs + timeLimitSec * 1000;
}

/** True once the limit has run out on the server's clock (a timed-out answer is accepted from here on). */
export function hasTimeLimitRunOut(shownAtMs: number, timeLimitSec: number, nowMs: number): boolean {
  return nowMs - shownAtMs >= timeLimitSec * 1000;
}

/**
 * Offset to add to the browser's clock to read the server's, from one request: the server's time is
 * taken to be read halfway between sending (t0) and receiving (t1), as in NTP's simplest form.
 */
export function estimateServerOffsetMs(serverNowMs: number, t0Ms: number, t1Ms: number): number {
  return serverNowMs - (t0Ms + t1Ms) / 2;
}

/** Whole seconds left on the countdown, never negative (rounded up: "1 s" until the deadline has passed). */
export function secondsLeft(deadlineMs: number, clientNowMs: number, offsetMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - (clientNowMs + offsetMs)) / 1000));
}

/** True when an answer stored at `nowMs` is past the limit plus LATE_ANSWER_GRACE_MS (server clock). */
export function isAnswerLate(shownAtMs: number, timeLimitSec: number, nowMs: number): boolean {
  return nowMs - shownAtMs > timeLimitSec * 1000 + LATE_ANSWER_GRACE_MS;
}
