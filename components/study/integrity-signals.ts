import { useCallback, useEffect, useMemo, useRef } from "react";
import { SIGNAL_LIMITS, type AnswerSignals, type SignalDevice } from "@/lib/participant/integrity";

/**
 * Integrity signals of the open question, measured in the browser and sent with the answer (lib/participant/integrity.ts
 * says what each one is, docs/integrity-signals.md how it is measured and what it cannot see). Nothing is shown to the
 * participant. The running counts are kept in sessionStorage under the question's assignment, so a reload carries them
 * over (and is itself counted) instead of starting from zero.
 */

interface Running {
  assignmentId: string;
  hiddenMs: number;
  hiddenCount: number;
  blurCount: number;
  blurMs: number;
  pasteCount: number;
  pasteChars: number;
  copyCount: number;
  copyChars: number;
  reloads: number;
  /** Date.now() when the page was hidden / lost focus, while it still is. */
  hiddenSince: number | null;
  blurSince: number | null;
}

const STORAGE_KEY = "misi.integritySignals";
/** Questions already mounted in this page load: mounting one again (React's development double effects) is no reload. */
const mountedThisLoad = new Set<string>();

function fresh(assignmentId: string): Running {
  return {
    assignmentId,
    hiddenMs: 0,
    hiddenCount: 0,
    blurCount: 0,
    blurMs: 0,
    pasteCount: 0,
    pasteChars: 0,
    copyCount: 0,
    copyChars: 0,
    reloads: 0,
    hiddenSince: null,
    blurSince: null,
  };
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The counts kept for this question by an earlier load of the page (a reload), else fresh ones. */
function resume(assignmentId: string): Running {
  try {
    const raw = storage()?.getItem(STORAGE_KEY);
    const kept = raw ? (JSON.parse(raw) as Partial<Running>) : null;
    if (!kept || kept.assignmentId !== assignmentId) return fresh(assignmentId);
    const r = fresh(assignmentId);
    for (const k of [
      "hiddenMs",
      "hiddenCount",
      "blurCount",
      "blurMs",
      "pasteCount",
      "pasteChars",
      "copyCount",
      "copyChars",
      "reloads",
    ] as const) {
      const v = kept[k];
      if (typeof v === "number" && Number.isFinite(v) && v >= 0) r[k] = v;
    }
    // The time the page was away during the reload itself is not hidden time: the reload is counted instead.
    if (!mountedThisLoad.has(assignmentId)) r.reloads += 1;
    return r;
  } catch {
    return fresh(assignmentId);
  }
}

function save(r: Running): void {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(r));
  } catch {
    // storage blocked or full: the counts of this page load are still sent
  }
}

function device(): SignalDevice {
  const pointer = window.matchMedia("(pointer: fine)").matches
    ? "fine"
    : window.matchMedia("(pointer: coarse)").matches
      ? "coarse"
      : "none";
  return {
    viewportWidth: clampInt(window.innerWidth, 100_000),
    viewportHeight: clampInt(window.innerHeight, 100_000),
    devicePixelRatio: Math.min(20, Math.max(0, Number.isFinite(window.devicePixelRatio) ? window.devicePixelRatio : 1)),
    pointer,
    touch: (navigator.maxTouchPoints ?? 0) > 0,
  };
}

function clampInt(v: number, max: number): number {
  return Number.isFinite(v) ? Math.min(max, Math.max(0, Math.round(v))) : 0;
}

function isAnswerField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

function selectedChars(target: EventTarget | null): number {
  if (
    (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) &&
    target.selectionStart !== null &&
    target.selectionEnd !== null
  ) {
    return Math.max(0, target.selectionEnd - target.selectionStart);
  }
  return document.getSelection()?.toString().length ?? 0;
}

/** Records the open question's signals; `snapshot()` gives them as the answer body carries them. */
export function useIntegritySignals(assignmentId: string): { snapshot: () => AnswerSignals } {
  const running = useRef<Running>(fresh(assignmentId));

  useEffect(() => {
    const r = resume(assignmentId);
    mountedThisLoad.add(assignmentId);
    running.current = r;
    if (document.visibilityState === "hidden") r.hiddenSince = Date.now();
    save(r);
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        if (r.hiddenSince === null) {
          r.hiddenSince = Date.now();
          r.hiddenCount += 1;
        }
      } else if (r.hiddenSince !== null) {
        r.hiddenMs += Date.now() - r.hiddenSince;
        r.hiddenSince = null;
      }
      save(r);
    };
    const onBlur = (e: FocusEvent) => {
      if (e.target !== window || r.blurSince !== null) return;
      r.blurSince = Date.now();
      r.blurCount += 1;
      save(r);
    };
    const onFocus = (e: FocusEvent) => {
      if (e.target !== window || r.blurSince === null) return;
      r.blurMs += Date.now() - r.blurSince;
      r.blurSince = null;
      save(r);
    };
    const onPaste = (e: ClipboardEvent) => {
      if (!isAnswerField(e.target)) return;
      r.pasteCount += 1;
      // Only the length of the pasted text is kept, never the text.
      r.pasteChars += e.clipboardData?.getData("text/plain").length ?? 0;
      save(r);
    };
    const onCopy = (e: ClipboardEvent) => {
      r.copyCount += 1;
      r.copyChars += selectedChars(e.target);
      save(r);
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("blur", onBlur);
    window.addEventListener("focus", onFocus);
    document.addEventListener("paste", onPaste, true);
    document.addEventListener("copy", onCopy, true);
    document.addEventListener("cut", onCopy, true);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("blur", onBlur);
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("paste", onPaste, true);
      document.removeEventListener("copy", onCopy, true);
      document.removeEventListener("cut", onCopy, true);
    };
  }, [assignmentId]);

  const snapshot = useCallback((): AnswerSignals => {
    const r = running.current;
    const now = Date.now();
    const { ms, count, chars } = SIGNAL_LIMITS;
    return {
      // An interval still open (hidden or unfocused at submit, e.g. a time-out) counts up to now.
      hiddenMs: clampInt(r.hiddenMs + (r.hiddenSince === null ? 0 : now - r.hiddenSince), ms),
      hiddenCount: clampInt(r.hiddenCount, count),
      blurCount: clampInt(r.blurCount, count),
      blurMs: clampInt(r.blurMs + (r.blurSince === null ? 0 : now - r.blurSince), ms),
      pasteCount: clampInt(r.pasteCount, count),
      pasteChars: clampInt(r.pasteChars, chars),
      copyCount: clampInt(r.copyCount, count),
      copyChars: clampInt(r.copyChars, chars),
      reloads: clampInt(r.reloads, count),
      webdriver: navigator.webdriver === true,
      device: device(),
    };
  }, []);
  return useMemo(() => ({ snapshot }), [snapshot]);
}
