import type { AnswerSignals } from "../lib/participant/integrity";

/** What the browser sends with every answer (components/study/integrity-signals.ts): an attentive participant's. */
export const SIGNALS: AnswerSignals = {
  hiddenMs: 0,
  hiddenCount: 0,
  blurCount: 0,
  blurMs: 0,
  pasteCount: 0,
  pasteChars: 0,
  copyCount: 0,
  copyChars: 0,
  reloads: 0,
  webdriver: false,
  device: { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 1, pointer: "fine", touch: false },
};
