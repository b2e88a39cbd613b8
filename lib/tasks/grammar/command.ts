import { z } from "zod";
import type { Axis, ParseResult } from "../types";
import { joinAlternatives, normalizeAnswerText, quote, splitTokens } from "./text";

/**
 * ChimeraX-style commands (spec §2): `move <axis> <distance Å>` and `roll <axis> <angle °>`.
 * A spec fixes which axes and which values (range and step) one slot of an answer accepts.
 */
export interface CommandSpec<A extends Axis = Axis> {
  verb: "move" | "roll";
  axes: readonly A[];
  /** Smallest and largest accepted value, inclusive, in the command's unit. */
  min: number;
  max: number;
  /** Values must be whole multiples of this (1 = integers). */
  step: number;
}

/** Same shape as lib/molecule's ViewCommand, so parsed answers feed the transforms directly. */
export interface Command<A extends Axis = Axis> {
  kind: "move" | "roll";
  axis: A;
  value: number;
}

type Result<V> = { ok: true; value: V } | { ok: false; error: string };

/** Tolerance when checking that a value sits on the step grid (values are small decimals). */
const STEP_TOLERANCE = 1e-9;
const NUMBER_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Units a participant may write after the number (people write them): distances in Å, angles in degrees. */
const UNIT_ALTERNATIVES = "å|a|ang|angstroms?|ångströms?|Å|°|º|deg|degs|degrees?";
const NUMBER_WITH_UNIT_PATTERN = new RegExp(`^([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(${UNIT_ALTERNATIVES})$`, "i");
const UNIT_TOKEN_PATTERN = new RegExp(`^(?:${UNIT_ALTERNATIVES})$`, "i");

function unitKindOf(unit: string): "Å" | "°" {
  return /^(?:°|º|deg|degs|degrees?)$/i.test(unit) ? "°" : "Å";
}

function unitOf(spec: CommandSpec): "Å" | "°" {
  return spec.verb === "move" ? "Å" : "°";
}

function nounOf(spec: CommandSpec): string {
  return spec.verb === "move" ? "distance" : "angle";
}

function decimalsOf(step: number): number {
  const text = String(step);
  const dot = text.indexOf(".");
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** Formats a value on the spec's grid: no trailing zeros, no "-0". */
export function formatCommandValue(value: number, step: number): string {
  const fixed = Number(value.toFixed(decimalsOf(step)));
  return String(fixed === 0 ? 0 : fixed);
}

export function formatCommand(command: Command, step = 1): string {
  return `${command.kind} ${command.axis} ${formatCommandValue(command.value, step)}`;
}

/** The pattern shown in messages, e.g. "move <x|y> <distance>". */
export function describeCommandPattern(spec: CommandSpec): string {
  const axes = spec.axes.length === 1 ? spec.axes[0] : `<${spec.axes.join("|")}>`;
  return `${spec.verb} ${axes} <${nounOf(spec)}>`;
}

/** "a whole number from -4 to 4 Å", "a multiple of 15 from -90 to 90°". */
export function describeCommandRange(spec: CommandSpec): string {
  const unit = unitOf(spec);
  const grid = spec.step === 1 ? "a whole number" : `a multiple of ${spec.step}`;
  return `${grid} from ${formatCommandValue(spec.min, spec.step)} to ${formatCommandValue(spec.max, spec.step)}${unit === "Å" ? " Å" : "°"}`;
}

function isOnStep(value: number, step: number): boolean {
  const k = value / step;
  return Math.abs(k - Math.round(k)) < STEP_TOLERANCE;
}

function isInRange(value: number, spec: CommandSpec): boolean {
  return value >= spec.min - STEP_TOLERANCE && value <= spec.max + STEP_TOLERANCE;
}

/** zod for a stored command value: finite, in range, on the step grid. */
export function commandValueSchema(spec: CommandSpec): z.ZodNumber {
  return z
    .number()
    .refine((v) => isInRange(v, spec), { message: `must be ${describeCommandRange(spec)}` })
    .refine((v) => isOnStep(v, spec.step), { message: `must be a multiple of ${spec.step}` });
}

export function axisSchema<A extends Axis>(axes: readonly A[]): z.ZodType<A> {
  return z.enum(axes as unknown as [A, ...A[]]) as unknown as z.ZodType<A>;
}

interface CommandContext {
  /** A correct example answer for this task, quoted in every message. */
  example: string;
  /** Where the command sits, for multi-command answers: "command 2 (…): ". */
  where?: string;
}

/**
 * Reads one command from its tokens. Every failure names what was expected, where, and what was
 * found, and ends with the task's example.
 */
export function parseCommandTokens<A extends Axis>(
  tokens: readonly string[],
  spec: CommandSpec<A>,
  context: CommandContext,
): Result<{ command: Command<A>; rest: string[] }> {
  const where = context.where ?? "";
  const eg = ` — e.g. ${quote(context.example)}`;
  const fail = (message: string) => ({ ok: false as const, error: `${where}${message}${eg}` });
  const axesText = joinAlternatives(spec.axes);

  const verbToken = tokens[0];
  if (verbToken === undefined) return fail(`expected ${quote(describeCommandPattern(spec))}, got nothing`);
  const verb = verbToken.toLowerCase();
  if (verb !== spec.verb) {
    const glued = /^(move|roll)([xyz])([+-]?[\d.]*)$/i.exec(verbToken);
    if (glued) return fail(`put spaces between the command, the axis and the number: got ${quote(verbToken)}`);
    const other =
      verb === "move" || verb === "roll"
        ? ` (this answer is a ${spec.verb === "move" ? "translation, 'move'" : "rotation, 'roll'"})`
        : "";
    return fail(`expected ${quote(spec.verb)} at the start, got ${quote(verbToken)}${other}`);
  }

  const axisToken = tokens[1];
  if (axisToken === undefined) return fail(`expected an axis ${axesText} after ${quote(spec.verb)}`);
  const axisGlued = /^([xyz])([+-]?(?:\d|\.\d).*)$/i.exec(axisToken);
  if (axisGlued) return fail(`put a space between the axis and the number: got ${quote(axisToken)}`);
  const axis = spec.axes.find((a) => a === axisToken.toLowerCase());
  if (axis === undefined) {
    return fail(`expected an axis ${axesText} after ${quote(spec.verb)}, got ${quote(axisToken)}`);
  }

  const head = `${spec.verb} ${axis}`;
  const valueToken = tokens[2];
  if (valueToken === undefined) {
    return fail(`expected ${spec.verb === "move" ? "a distance in Å" : "an angle in degrees"} after ${quote(head)}`);
  }
  if (valueToken === "-" || valueToken === "+") {
    return fail(
      `write the sign directly before the number, without a space: got ${quote(tokens.slice(2, 4).join(" "))}`,
    );
  }
  // A unit may follow the number, glued (`4Å`, `15°`) or as the next token (`4 Å`, `15 degrees`).
  const glued = NUMBER_WITH_UNIT_PATTERN.exec(valueToken);
  const numberText = glued ? glued[1]! : valueToken;
  let unitText = glued ? glued[2]! : undefined;
  let consumed = 3;
  if (!glued && NUMBER_PATTERN.test(valueToken) && UNIT_TOKEN_PATTERN.test(tokens[3] ?? "")) {
    unitText = tokens[3]!;
    consumed = 4;
  }
  if (unitText !== undefined && unitKindOf(unitText) !== unitOf(spec)) {
    const accepted = unitOf(spec) === "Å" ? "Å, A or angstroms" : "°, deg or degrees";
    return fail(
      `${quote(unitText)} is not a unit of ${nounOf(spec)}: write the ${nounOf(spec)} in ${accepted}, or as a plain number, after ${quote(head)}`,
    );
  }
  if (!NUMBER_PATTERN.test(numberText)) {
    return fail(`expected a number after ${quote(head)}, got ${quote(valueToken)}`);
  }
  const raw = Number(numberText);
  const shown = numberText;
  if (!isOnStep(raw, spec.step)) {
    const unit = unitOf(spec);
    const rule =
      spec.step === 1
        ? `a whole number of ${unit === "Å" ? "Å" : "degrees"}`
        : `a multiple of ${spec.step}${unit === "Å" ? " Å" : "°"}`;
    return fail(`the ${nounOf(spec)} must be ${rule}, got ${shown}`);
  }
  if (!isInRange(raw, spec)) {
    return fail(`the ${nounOf(spec)} ${shown} is out of range: expected ${describeCommandRange(spec)}`);
  }
  // Snap to the grid so 4.0, +4 and 04 all become 4 (and -0 becomes 0).
  const snapped = Number((Math.round(raw / spec.step) * spec.step).toFixed(decimalsOf(spec.step)));
  const value = snapped === 0 ? 0 : snapped;
  return { ok: true, value: { command: { kind: spec.verb, axis, value }, rest: tokens.slice(consumed) } };
}

/** Parses an answer that is exactly one command. */
export function parseSingleCommand<A extends Axis>(
  text: string,
  spec: CommandSpec<A>,
  example: string,
): ParseResult<Command<A>> {
  const normalized = normalizeAnswerText(text);
  if (normalized === "") {
    return {
      ok: false,
      error: `the answer is empty: expected ${quote(describeCommandPattern(spec))} — e.g. ${quote(example)}`,
    };
  }
  if (normalized.includes(",") || normalized.includes(";")) {
    return {
      ok: false,
      error: `expected a single command ${quote(describeCommandPattern(spec))}; got ${quote(normalized)} — e.g. ${quote(example)}`,
    };
  }
  const parsed = parseCommandTokens(splitTokens(normalized), spec, { example });
  if (!parsed.ok) return parsed;
  const { command, rest } = parsed.value;
  if (rest.length > 0) {
    return {
      ok: false,
      error: `unexpected ${quote(rest.join(" "))} after ${quote(formatCommand(command, spec.step))}: the answer is one command only — e.g. ${quote(example)}`,
    };
  }
  return { ok: true, value: command, canonical: formatCommand(command, spec.step) };
}

/**
 * Parses a comma-separated sequence of commands, one per spec, in that order
 * (T7 `roll <axis> <angle>, move x <distance>`; MC option texts).
 */
export function parseCommandSequence(
  text: string,
  specs: readonly CommandSpec[],
  example: string,
): ParseResult<Command[]> {
  const pattern = specs.map(describeCommandPattern).join(", ");
  const normalized = normalizeAnswerText(text);
  if (normalized === "") {
    return { ok: false, error: `the answer is empty: expected ${quote(pattern)} — e.g. ${quote(example)}` };
  }
  if (specs.length > 1 && normalized.includes(";")) {
    return {
      ok: false,
      error: `separate the commands with a comma, not ';': expected ${quote(pattern)} — e.g. ${quote(example)}`,
    };
  }
  const parts = normalized.split(",").map((part) => part.trim());
  const verbsFound = parts.map((part) => (splitTokens(part)[0] ?? "").toLowerCase());
  const verbsExpected = specs.map((s) => s.verb);
  if (
    parts.length === specs.length &&
    verbsFound.join(",") !== verbsExpected.join(",") &&
    [...verbsFound].sort().join(",") === [...verbsExpected].sort().join(",")
  ) {
    return {
      ok: false,
      error: `the commands are in the wrong order: expected ${quote(pattern)} — e.g. ${quote(example)}`,
    };
  }
  const commands: Command[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const part = parts[i];
    if (part === undefined) {
      const n = specs.length;
      return {
        ok: false,
        error: `expected ${n} commands separated by commas, ${quote(pattern)}, got ${parts.length} — e.g. ${quote(example)}`,
      };
    }
    if (part === "") {
      return {
        ok: false,
        error: `command ${i + 1} is empty: expected ${quote(describeCommandPattern(spec))} there — e.g. ${quote(example)}`,
      };
    }
    const where = specs.length > 1 ? `command ${i + 1} (${quote(part)}): ` : "";
    const parsed = parseCommandTokens(splitTokens(part), spec, { example, where });
    if (!parsed.ok) return parsed;
    const { command, rest } = parsed.value;
    if (rest.length > 0) {
      const missingComma = i + 1 < specs.length && parts.length < specs.length && /^(move|roll)$/i.test(rest[0] ?? "");
      const hint = missingComma
        ? "separate the commands with a comma"
        : `expected ${i + 1 < specs.length ? "a comma" : "the end of the answer"} there`;
      return {
        ok: false,
        error: `${where}unexpected ${quote(rest.join(" "))} after ${quote(formatCommand(command, spec.step))}: ${hint} — e.g. ${quote(example)}`,
      };
    }
    commands.push(command);
  }
  if (parts.length > specs.length) {
    return {
      ok: false,
      error: `unexpected ${quote(parts.slice(specs.length).join(", "))} after the ${specs.length === 1 ? "command" : `${specs.length} commands`}: expected exactly ${quote(pattern)} — e.g. ${quote(example)}`,
    };
  }
  const canonical = commands.map((c, i) => formatCommand(c, specs[i]!.step)).join(", ");
  return { ok: true, value: commands, canonical };
}

/** Whole multiples of `step` in [min, max], without 0 unless allowed. */
export function listGridValues(min: number, max: number, step: number, allowZero: boolean): number[] {
  const out: number[] = [];
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  for (let k = first; k <= last; k++) {
    const v = k * step;
    if (v === 0 && !allowZero) continue;
    out.push(v === 0 ? 0 : v);
  }
  return out;
}
