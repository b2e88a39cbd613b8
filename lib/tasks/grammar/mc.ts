import { MC_LETTERS, type McLetter, type ParseResult } from "../types";
import { joinAlternatives, normalizeAnswerText, quote } from "./text";

/**
 * Multiple-choice letters (T5, T6, T8). Accepted, case-insensitive, after the shared whitespace and
 * trailing-period tolerance: `B`, `(B)`, `B)`, `B.`, `Option B`, `Option (B)`. Anything that names
 * more than one letter (`A or B`, `A, B`, `AB`) or adds text (`B because …`) is rejected: the
 * grammar never guesses which letter was meant.
 */
const MC_FORM = /^(?:option\s+)?(?:\(\s*([a-z])\s*\)|([a-z])\s*\)?)$/i;
const LEADING_FORM = /^(?:option\s+)?(?:\(\s*([a-z])\s*\)|([a-z])(?:\s*\)|\s*:|\s*,|\s+|$))/i;

export interface McAnswer {
  letter: McLetter;
}

export function parseMcLetter(text: string, letters: readonly McLetter[] = MC_LETTERS): ParseResult<McAnswer> {
  const choices = joinAlternatives(letters);
  const eg = ` — e.g. ${quote(letters[1] ?? letters[0] ?? "A")}`;
  const normalized = normalizeAnswerText(text);
  if (normalized === "") return { ok: false, error: `the answer is empty: answer with one letter ${choices}${eg}` };

  const exact = MC_FORM.exec(normalized);
  if (exact) {
    const letter = (exact[1] ?? exact[2] ?? "").toUpperCase();
    const match = letters.find((l) => l === letter);
    if (match === undefined)
      return { ok: false, error: `${quote(letter)} is not an option: answer with one letter ${choices}${eg}` };
    return { ok: true, value: { letter: match }, canonical: match };
  }

  // Standalone option letters anywhere in the text ("A or B", "A, B", "(A)/(C)"); "AB" style too.
  const standalone = normalized.match(/(?<![a-z])[a-d](?![a-z])/gi) ?? [];
  if (standalone.length >= 2 || /^[a-d]{2,4}$/i.test(normalized)) {
    return {
      ok: false,
      error: `give exactly one letter, got ${quote(normalized)}: answer with one letter ${choices}${eg}`,
    };
  }
  const leading = LEADING_FORM.exec(normalized);
  if (leading) {
    const letter = (leading[1] ?? leading[2] ?? "").toUpperCase();
    const rest = normalized.slice(leading[0].length).trim();
    const found = rest === "" ? `got ${quote(normalized)}` : `unexpected ${quote(rest)} after ${quote(letter)}`;
    return { ok: false, error: `${found}: answer with the letter only${eg}` };
  }
  return {
    ok: false,
    error: `expected one letter ${choices} (also accepted: '(B)', 'B)', 'Option B'), got ${quote(normalized)}${eg}`,
  };
}
