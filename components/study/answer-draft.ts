/**
 * The answer being typed, kept in sessionStorage (this tab) so a reload does not lose it. One draft at a time, for
 * one assignment (one participant's one item); it holds only what the participant typed.
 */
const STORAGE_KEY = "misi.answerDraft";

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked (privacy settings): drafts are simply not kept
  }
}

export function keepDraft(assignmentId: string, text: string): void {
  try {
    if (text) storage()?.setItem(STORAGE_KEY, JSON.stringify({ assignmentId, text }));
    else storage()?.removeItem(STORAGE_KEY);
  } catch {
    // quota exceeded: the draft is not kept
  }
}

/** The draft of this assignment; a draft of another one (answered, or the session moved on) is dropped. */
export function readDraft(assignmentId: string): string | null {
  const s = storage();
  try {
    const raw = s?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as { assignmentId?: unknown; text?: unknown };
    if (v.assignmentId === assignmentId && typeof v.text === "string") return v.text;
  } catch {
    // unreadable: dropped below
  }
  s?.removeItem(STORAGE_KEY);
  return null;
}

export function dropDraft(): void {
  storage()?.removeItem(STORAGE_KEY);
}
