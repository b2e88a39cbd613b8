import type { AnswerWidget, ParseResult } from "@/lib/tasks/types";

/** The part of a task the extractor needs: its own answer grammar and the kind of answer. */
export interface AnswerGrammar {
  parseAnswer(text: string): ParseResult<unknown>;
  answerWidget: AnswerWidget;
}

/** Bump when the rule below changes; stored with every imported run. */
export const ANSWER_EXTRACTION_RULE_VERSION = 1;

/**
 * How a free-text model answer becomes a task answer. Humans type into a validated widget; models
 * write prose, so the answer is searched for, but always read with the task's own grammar (the
 * parser humans are scored with): nothing is guessed that the grammar would not accept.
 */
export const ANSWER_EXTRACTION_RULE = [
  "Clean the text: keep only what follows the last </think> (reasoning models), drop code fences, backticks and ** emphasis.",
  "Then try these candidates in order and keep the first one the task's answer grammar accepts:",
  "1. the whole text;",
  "2. the content of the last \\boxed{…};",
  "3. the text after the last answer marker ('Answer:', 'answer is', 'Final answer:'): the rest of that line, else the next non-empty line;",
  "4. each line from the last to the first, without list bullets or quote marks;",
  "5. matches of the task grammar inside the text, from the last to the first: for multiple choice '(B)', 'option B', 'answer: B' (capital letter A–D); for commands 'move x 3' or 'roll y -45'; for docking 'roll <axis> <angle>, move x <d>' (also joined by 'and' / 'then'); for bond lists a 'Yes: …' list (T4), a bond list (T9) or a line starting with 'No'.",
  "When no candidate parses, the prediction is unparseable: it is stored with the parse error of the whole text, scored exact 0 and partial 0, and counted in the 'unparseable' n of its cell.",
].join("\n");

export type ExtractionStep = "whole" | "boxed" | "marker" | "line" | "grammar";

export type Extraction =
  { ok: true; text: string; canonical: string; step: ExtractionStep } | { ok: false; error: string };

/** Strips reasoning blocks and markdown decoration that never belongs to an answer. */
export function cleanModelText(raw: string): string {
  let text = raw.replace(/\r\n?/g, "\n");
  const thinkEnd = text.toLowerCase().lastIndexOf("</think>");
  if (thinkEnd >= 0) text = text.slice(thinkEnd + "</think>".length);
  // An unterminated <think> means the answer never came; what follows it is reasoning only.
  const thinkStart = text.toLowerCase().indexOf("<think>");
  if (thinkStart >= 0) text = text.slice(0, thinkStart);
  return text
    .replace(/```[A-Za-z0-9_-]*\n?/g, "")
    .replace(/`/g, "")
    .replace(/\*\*/g, "")
    .trim();
}

const NUMBER = String.raw`[+\-\u2212\u2013]?\d+(?:\.\d+)?`;
const ATOM = String.raw`[A-Za-z0-9'"*_]{1,6}`;
const T9_BOND = String.raw`[A-Za-z0-9]{1,3}\s+-?\d+[A-Za-z]?\s+${ATOM}\s+[A-Za-z0-9]\s*,\s*${ATOM}`;

/** Every match of a pattern, as [position, candidate text]. */
function collect(text: string, pattern: RegExp, toCandidate: (m: RegExpExecArray) => string): [number, string][] {
  const out: [number, string][] = [];
  for (const m of text.matchAll(
    new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`),
  )) {
    out.push([m.index ?? 0, toCandidate(m)]);
  }
  return out;
}

/** Grammar matches inside the text, last one first. */
function listGrammarMatches(text: string, widget: AnswerWidget): string[] {
  let found: [number, string][] = [];
  switch (widget.type) {
    case "mc":
      // Capital letters only, and only in explicit forms: a bare "A" is too often an article.
      found = [
        ...collect(text, /\(([A-D])\)/g, (m) => m[1] ?? ""),
        ...collect(
          text,
          /(?:[Oo]ption|[Aa]nswer|[Cc]hoice)\s*(?:is\s*)?[:：]?\s*\(?([A-D])\)?(?![A-Za-z0-9])/g,
          (m) => m[1] ?? "",
        ),
      ];
      break;
    case "command":
      found = collect(
        text,
        new RegExp(String.raw`\b(move|roll)\s+([xyz])\s+(${NUMBER})`, "gi"),
        (m) => `${m[1]} ${m[2]} ${m[3]}`,
      );
      break;
    case "docking":
      found = collect(
        text,
        new RegExp(
          String.raw`\broll\s+([xyz])\s+(${NUMBER})\s*(?:°|deg(?:rees?)?)?\s*(?:[,;]\s*)?(?:(?:and|then)\s+)*move\s+x\s+(${NUMBER})`,
          "gi",
        ),
        (m) => `roll ${m[1]} ${m[2]}, move x ${m[3]}`,
      );
      break;
    case "hbond-list":
      found = [
        ...(widget.yesPrefix
          ? collect(text, /\byes\s*:[^\n]+/gi, (m) => m[0])
          : collect(text, new RegExp(`${T9_BOND}(?:\\s*;\\s*${T9_BOND})*`, "g"), (m) => m[0])),
        ...(widget.allowNo ? collect(text, /(?:^|\n)[ \t]*(No)(?=[\s.,;:!]|$)/g, (m) => m[1] ?? "No") : []),
      ];
      break;
  }
  return found.sort((a, b) => b[0] - a[0]).map(([, candidate]) => candidate);
}

/** Text after the last answer marker: the rest of its line, else the next non-empty line. */
function findAfterMarker(text: string): string | undefined {
  const markers = [...text.matchAll(/(?:final\s+answer|answer)(?:\s+is)?\s*[:：]?[ \t]*/gi)];
  const last = markers[markers.length - 1];
  if (!last) return undefined;
  const rest = text.slice((last.index ?? 0) + last[0].length);
  const lines = rest.split("\n").map((l) => l.trim());
  return lines[0] !== "" ? lines[0] : lines.find((l) => l !== "");
}

function stripLineDecoration(line: string): string {
  return line
    .trim()
    .replace(/^(?:[-*>•]\s+|\d+[.)]\s+)/, "")
    .replace(/^["'“‘](.*)["'”’]$/, "$1")
    .trim();
}

/**
 * Finds the answer in a model's free-text output by ANSWER_EXTRACTION_RULE. Returns the text that
 * parsed, its canonical form and the step that found it, or the grammar's error for the whole text.
 */
export function extractAnswer(grammar: AnswerGrammar, raw: string): Extraction {
  const text = cleanModelText(raw);
  if (text === "")
    return {
      ok: false,
      error: raw.trim() === "" ? "empty prediction" : "nothing left after removing the reasoning block",
    };
  const whole = grammar.parseAnswer(text);
  if (whole.ok) return { ok: true, text, canonical: whole.canonical, step: "whole" };

  const candidates: [ExtractionStep, string | undefined][] = [];
  const boxed = [...text.matchAll(/\\boxed\{([^{}]*)\}/g)];
  candidates.push(["boxed", boxed[boxed.length - 1]?.[1]]);
  candidates.push(["marker", findAfterMarker(text)]);
  const lines = text
    .split("\n")
    .map(stripLineDecoration)
    .filter((l) => l !== "");
  for (let i = lines.length - 1; i >= 0; i--) candidates.push(["line", lines[i]]);
  for (const m of listGrammarMatches(text, grammar.answerWidget)) candidates.push(["grammar", m]);

  for (const [step, candidate] of candidates) {
    if (candidate === undefined || candidate.trim() === "") continue;
    const parsed = grammar.parseAnswer(candidate);
    if (parsed.ok) return { ok: true, text: candidate, canonical: parsed.canonical, step };
  }
  return { ok: false, error: whole.error };
}
