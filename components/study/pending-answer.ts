import { AnswerSignalsSchema, type AnswerSignals } from "@/lib/participant/integrity";
import type { InteractionLog } from "@/lib/participant/api-contract";

/**
 * The answer being saved, kept in sessionStorage (this tab only) from the first attempt until the server has stored
 * it: a page reload in between (a dev server restart reloads open pages; a participant may reload while the page says
 * "Reconnecting…") sends it again with the same idempotency key, so it is stored exactly once.
 */
export interface PendingAnswer {
  assignmentId: string;
  itemId?: string;
  answer: string;
  idempotencyKey: string;
  rtClientMs: number;
  timedOut: boolean;
  interactionLog: InteractionLog;
  /** The question's integrity signals as measured at submit: a resend carries the same values. */
  signals?: AnswerSignals;
}

const STORAGE_KEY = "misi.pendingAnswer";

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked (privacy settings): the in-page retry still runs
  }
}

export function keepPendingAnswer(body: PendingAnswer): void {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(body));
  } catch {
    // Quota exceeded (a long camera path): retry once without it rather than keep nothing.
    try {
      storage()?.setItem(
        STORAGE_KEY,
        JSON.stringify({ ...body, interactionLog: { ...body.interactionLog, camera: [] } }),
      );
    } catch {
      // nothing more to do: the in-page retry still runs
    }
  }
}

export function dropPendingAnswer(idempotencyKey: string): void {
  const s = storage();
  const kept = read(s);
  if (kept && kept.idempotencyKey === idempotencyKey) s?.removeItem(STORAGE_KEY);
}

/** The kept answer of this question, if any; a kept answer of another question is stale (stored, or moved on) and dropped. */
export function takePendingAnswer(assignmentId: string): PendingAnswer | null {
  const s = storage();
  const kept = read(s);
  if (!kept) return null;
  if (kept.assignmentId !== assignmentId) {
    s?.removeItem(STORAGE_KEY);
    return null;
  }
  return kept;
}

function read(s: Storage | null): PendingAnswer | null {
  try {
    const raw = s?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<PendingAnswer>;
    const signals = AnswerSignalsSchema.safeParse(v.signals);
    if (typeof v.assignmentId !== "string" || typeof v.idempotencyKey !== "string" || typeof v.answer !== "string")
      return null;
    return {
      assignmentId: v.assignmentId,
      ...(typeof v.itemId === "string" ? { itemId: v.itemId } : {}),
      answer: v.answer,
      idempotencyKey: v.idempotencyKey,
      rtClientMs: typeof v.rtClientMs === "number" ? v.rtClientMs : 0,
      timedOut: v.timedOut === true,
      interactionLog: v.interactionLog && typeof v.interactionLog === "object" ? v.interactionLog : {},
      ...(signals.success ? { signals: signals.data } : {}),
    };
  } catch {
    return null;
  }
}
