/**
 * Text helpers shared by every answer grammar: whitespace/punctuation tolerance and quoting for
 * error messages. Grammars are tolerant of case and layout only; everything else is strict.
 */

/** Longest fragment of participant text echoed back in an error message, in characters. */
const MAX_QUOTED_CHARS = 60;

/**
 * Trims, collapses runs of whitespace (tabs, newlines, no-break spaces) to one space, drops
 * trailing periods/semicolons, composes Unicode (NFC), and turns U+2212 (minus sign) and U+2013 (en dash) into '-':
 * word processors and PDF copies of the paper put those in place of a hyphen-minus. Likewise typographic apostrophes
 * and primes (’ ‘ ′ ` ´) become ' and double ones (″ “ ”) become ": phone keyboards and macOS type ’ for ', and atom
 * names such as O5' and C1'' are written with them.
 */
export function normalizeAnswerText(text: string): string {
  return text
    .normalize("NFC") // U+212B ANGSTROM SIGN and A + combining ring become Å
    .replace(/[\u2212\u2013]/g, "-")
    .replace(/[\u2019\u2018\u2032`\u00b4]/g, "'")
    .replace(/[\u2033\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.;]+$/, "");
}

/** Splits normalized text into whitespace-separated tokens ("" gives []). */
export function splitTokens(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === "" ? [] : trimmed.split(/\s+/);
}

/** Single-quotes a fragment for an error message, shortening long ones. */
export function quote(text: string): string {
  const shown = text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS - 1)}…` : text;
  return `'${shown}'`;
}

/** "x", "x or y", "x, y or z" (or with "and"). */
export function joinAlternatives(items: readonly string[], conjunction: "or" | "and" = "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}
