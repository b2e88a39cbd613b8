/** The parts of a keydown event the MC shortcut looks at (a plain object in tests). */
export interface McKeyEvent {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: { tagName: string; type?: string; isContentEditable?: boolean } | null;
}

/**
 * The option letter a key press picks on a multiple-choice question (1–4 or A–D), or null. Shortcuts with Ctrl, Cmd
 * or Alt are the browser's (Ctrl+C used to change the answer to C), typing in a text field is typing, and a letter
 * the question does not offer picks nothing.
 */
export function pickMcLetterFromKey(event: McKeyEvent, letters: readonly string[]): string | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const target = event.target;
  if (
    target &&
    ((target.tagName === "INPUT" && target.type === "text") ||
      target.tagName === "TEXTAREA" ||
      target.isContentEditable)
  )
    return null;
  const key = event.key.toUpperCase();
  const letter = ["1", "2", "3", "4"].includes(key)
    ? "ABCD"[Number(key) - 1]!
    : ["A", "B", "C", "D"].includes(key)
      ? key
      : null;
  return letter !== null && letters.includes(letter) ? letter : null;
}
