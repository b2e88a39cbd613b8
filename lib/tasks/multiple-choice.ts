import { z } from "zod";
import { parseCommandSequence, type CommandSpec } from "./grammar/command";
import { parseMcLetter, type McAnswer } from "./grammar/mc";
import { joinAlternatives } from "./grammar/text";
import { MC_LETTERS, type McLetter, type ParseResult, type TaskScore } from "./types";

/** Shared pieces of the multiple-choice tasks (T5, T6, T8): answer, gold, scoring, widget. */

export const McAnswerSchema = z.object({ letter: z.enum(MC_LETTERS) });
export type { McAnswer };

/** Option texts, one per letter A–D, in letter order. */
export type McOptions = [string, string, string, string];

export interface McGold {
  letter: McLetter;
  /**
   * What each option shows, as commands (T8 options are shown as text; T5/T6 options are images). Generated items
   * always have them; items imported from the MiSI release or a VLMEvalKit TSV may carry only the letter, which is
   * all scoring needs (spec §4: MC items score the letter).
   */
  options?: McOptions;
}

/**
 * Gold for an MC task: the right letter plus the option texts. Each option text must parse with
 * the task's option grammar (e.g. `move x 3, move y -2` for T8) and the four must be distinct.
 */
export function createMcGoldSchema(optionCommands: readonly CommandSpec[], optionExample: string): z.ZodType<McGold> {
  const option = z.string();
  return z
    .object({ letter: z.enum(MC_LETTERS), options: z.tuple([option, option, option, option]).optional() })
    .superRefine((gold, ctx) => {
      const seen = new Map<string, McLetter>();
      gold.options?.forEach((text, i) => {
        const letter = MC_LETTERS[i]!;
        const parsed = parseCommandSequence(text, optionCommands, optionExample);
        if (!parsed.ok) {
          ctx.addIssue({ code: "custom", path: ["options", i], message: `option ${letter}: ${parsed.error}` });
          return;
        }
        const twin = seen.get(parsed.canonical);
        if (twin !== undefined)
          ctx.addIssue({
            code: "custom",
            path: ["options", i],
            message: `option ${letter} repeats option ${twin} (${parsed.canonical})`,
          });
        seen.set(parsed.canonical, letter);
      });
    }) as unknown as z.ZodType<McGold>;
}

/** Canonical text of an option (for comparing the options shown with the options in the key). */
export function canonicalizeOption(
  text: string,
  optionCommands: readonly CommandSpec[],
  optionExample: string,
): string | undefined {
  const parsed = parseCommandSequence(text, optionCommands, optionExample);
  return parsed.ok ? parsed.canonical : undefined;
}

export function parseMcAnswer(text: string): ParseResult<McAnswer> {
  return parseMcLetter(text, MC_LETTERS);
}

export function canonicalizeMcAnswer(value: McAnswer): string {
  return value.letter;
}

/** Spec §4: MC tasks score the letter; partial equals exact. */
export function scoreMcAnswer(answer: McAnswer, gold: McGold): TaskScore {
  const exact = answer.letter === gold.letter ? 1 : 0;
  return { exact, partial: exact };
}

export const MC_WIDGET = { type: "mc", letters: MC_LETTERS } as const;

export const MC_ANSWER_FORMAT =
  `Answer with one letter: ${joinAlternatives(MC_LETTERS)}. ` +
  "'B', 'b', '(B)', 'B)', 'B.' and 'Option B' are all read as B; an answer naming two letters is not accepted.";

/** "A. move x 3, move y -2\nB. …" */
export function formatMcOptions(options: readonly string[]): string {
  return options.map((text, i) => `${MC_LETTERS[i] ?? "?"}. ${text}`).join("\n");
}
