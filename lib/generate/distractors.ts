/**
 * Multiple-choice options (spec §3). T5: the true transformation (translation, then rotation) plus
 * the paper's three distractors: (a) change both magnitudes, (b) flip the translation's sign and
 * change the rotation's magnitude, (c) change the translation's axis and change the rotation's
 * magnitude. T6 adapts them to two rotations (first rotation in the translation's role). T8 perturbs
 * the sign and/or the magnitude of the x/y move.
 */
import type { Axis } from "@/lib/molecule/geometry/transform";
import type { ViewCommand } from "@/lib/molecule/geometry/commands";
import { type Vec3, distanceSquaredVec } from "@/lib/molecule/geometry/vec3";
import type { Rng } from "@/lib/rng";
import { formatCommand } from "@/lib/tasks/grammar/command";
import { MC_LETTERS, type McLetter } from "@/lib/tasks/types";
import type { DistractorRecord } from "./types";

/** An option: the commands it shows and how it was built. */
export interface OptionCandidate {
  scheme: string;
  commands: ViewCommand[];
}

/** "move x 3, roll y 45" (the option grammars of lib/tasks). */
export function formatOption(commands: readonly ViewCommand[]): string {
  return commands.map((c) => formatCommand(c)).join(", ");
}

/** Root-mean-square distance between two equally long point lists. */
export function computeRmsd(a: readonly Vec3[], b: readonly Vec3[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`RMSD needs two equally long, non-empty point lists (${a.length} vs ${b.length})`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += distanceSquaredVec(a[i]!, b[i]!);
  return Math.sqrt(sum / a.length);
}

/** Smallest RMSD between any two of the poses (how alike the two most alike option images are). */
export function computeMinPairwiseRmsd(poses: readonly (readonly Vec3[])[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < poses.length; i++) for (let j = i + 1; j < poses.length; j++) min = Math.min(min, computeRmsd(poses[i]!, poses[j]!));
  return min;
}

/** A magnitude from `magnitudes` at least `minChange` away from `current`; throws if none (bad params). */
export function pickChangedMagnitude(rng: Rng, magnitudes: readonly number[], current: number, minChange: number, what: string): number {
  const choices = magnitudes.filter((m) => Math.abs(m - current) >= minChange - 1e-9);
  if (choices.length === 0) throw new Error(`no ${what} differs from ${current} by at least ${minChange}: widen the range or lower the minimum change`);
  return rng.pick(choices);
}

/** An axis from `axes` that is none of `excluded`; throws if none (bad params). */
export function pickOtherAxis(rng: Rng, axes: readonly Axis[], excluded: readonly Axis[], what: string): Axis {
  const choices = axes.filter((a) => !excluded.includes(a));
  if (choices.length === 0) throw new Error(`no ${what} other than ${excluded.join(", ")}: allow more axes`);
  return rng.pick(choices);
}

export interface PairedChangeSpec {
  /** Magnitudes allowed for the first command (translation in T5, first rotation in T6). */
  firstMagnitudes: readonly number[];
  firstMinChange: number;
  /** Axes the first command may switch to in scheme (c). */
  firstAxes: readonly Axis[];
  /** Axes the first command may not switch to in scheme (c) besides its own (T6: the second rotation's axis). */
  firstAxisExcluded?: readonly Axis[];
  secondMagnitudes: readonly number[];
  secondMinChange: number;
}

function withValue(command: ViewCommand, value: number): ViewCommand {
  return { ...command, value };
}

/**
 * The paper's three distractors for a two-command transformation [first, second]:
 * (a) both magnitudes changed, (b) first sign flipped + second magnitude changed,
 * (c) first axis changed + second magnitude changed. Signs are kept where the scheme keeps them.
 */
export function buildPairedDistractors(rng: Rng, truth: readonly [ViewCommand, ViewCommand], spec: PairedChangeSpec): OptionCandidate[] {
  const [first, second] = truth;
  const s1 = Math.sign(first.value);
  const s2 = Math.sign(second.value);
  const m1 = Math.abs(first.value);
  const m2 = Math.abs(second.value);
  const changedSecond = () => withValue(second, s2 * pickChangedMagnitude(rng, spec.secondMagnitudes, m2, spec.secondMinChange, `${second.kind} magnitude`));
  const a: ViewCommand[] = [withValue(first, s1 * pickChangedMagnitude(rng, spec.firstMagnitudes, m1, spec.firstMinChange, `${first.kind} magnitude`)), changedSecond()];
  const b: ViewCommand[] = [withValue(first, -first.value), changedSecond()];
  const otherAxis = pickOtherAxis(rng, spec.firstAxes, [first.axis, ...(spec.firstAxisExcluded ?? [])], `${first.kind} axis`);
  const c: ViewCommand[] = [{ ...first, axis: otherAxis }, changedSecond()];
  return [
    { scheme: "a", commands: a },
    { scheme: "b", commands: b },
    { scheme: "c", commands: c },
  ];
}

export interface LetteredOptions {
  letter: McLetter;
  /** Options in letter order A–D. */
  options: OptionCandidate[];
  records: DistractorRecord[];
}

/**
 * Letters A–D for the truth and three distractors: the truth at `answerSlot` when given (the plan
 * balances a task's letters), else at a random place; the distractors in random order around it.
 */
export function assignLetters(rng: Rng, truth: OptionCandidate, distractors: readonly OptionCandidate[], answerSlot?: number): LetteredOptions {
  if (distractors.length !== 3) throw new Error(`an MC item needs 3 distractors, got ${distractors.length}`);
  const options = placeTruth(rng, truth, distractors, answerSlot);
  const index = options.indexOf(truth);
  const records = options.map((o, i) => ({ letter: MC_LETTERS[i]!, scheme: o.scheme, option: formatOption(o.commands) }));
  return { letter: MC_LETTERS[index]!, options, records };
}

/** [distractors shuffled] with the truth inserted at `answerSlot` (0–3), or at a random place. */
export function placeTruth<T>(rng: Rng, truth: T, distractors: readonly T[], answerSlot?: number): T[] {
  if (answerSlot !== undefined && !(Number.isInteger(answerSlot) && answerSlot >= 0 && answerSlot <= distractors.length)) {
    throw new Error(`answer slot ${answerSlot} is not 0..${distractors.length}`);
  }
  const slot = answerSlot ?? rng.int(0, distractors.length);
  const out = rng.shuffle(distractors);
  out.splice(slot, 0, truth);
  return out;
}

export interface MoveDistractorSpec {
  /** Magnitude perturbations are whole Å in [minDeltaA, maxDeltaA]. */
  minDeltaA: number;
  maxDeltaA: number;
  /** Every option is at least this far (Å, in the x/y plane) from every other. */
  minSeparationA: number;
}

type Move = readonly [number, number];

/**
 * T8: three distractors for the move (dx, dy): one sign flip, one magnitude change, one sign flip of
 * one component with a magnitude change of the other, when each exists at the required separation;
 * the remaining places are filled from the other schemes. All values are whole Å.
 */
export function buildMoveDistractors(rng: Rng, truth: Move, spec: MoveDistractorSpec): { scheme: string; move: Move }[] {
  const [dx, dy] = truth;
  const deltas = (): number[] => {
    const out: number[] = [];
    for (let d = Math.ceil(spec.minDeltaA); d <= Math.floor(spec.maxDeltaA); d++) out.push(d);
    return out;
  };
  /** |v| grown or shrunk by d, sign kept (a zero component takes either sign). */
  const changed = (v: number): number[] =>
    deltas().flatMap((d) => {
      if (v === 0) return [d, -d];
      const s = Math.sign(v);
      const grown = s * (Math.abs(v) + d);
      return Math.abs(v) - d > 0 ? [grown, s * (Math.abs(v) - d)] : [grown];
    });
  const schemes: Record<string, Move[]> = {
    sign: [
      [-dx, dy],
      [dx, -dy],
      [-dx, -dy],
    ],
    magnitude: [...changed(dx).map((x): Move => [x, dy]), ...changed(dy).map((y): Move => [dx, y]), ...changed(dx).flatMap((x) => changed(dy).map((y): Move => [x, y]))],
    "sign+magnitude": [...changed(dy).map((y): Move => [-dx, y]), ...changed(dx).map((x): Move => [x, -dy])],
  };
  const far = (m: Move, others: readonly Move[]) => others.every((o) => Math.hypot(m[0] - o[0], m[1] - o[1]) >= spec.minSeparationA - 1e-9);
  const chosen: { scheme: string; move: Move }[] = [];
  const taken = (): Move[] => [truth, ...chosen.map((c) => c.move)];
  const order = ["sign", "magnitude", "sign+magnitude"];
  for (const scheme of order) {
    const ok = rng.shuffle(schemes[scheme]!).find((m) => far(m, taken()));
    if (ok) chosen.push({ scheme, move: ok });
  }
  for (const scheme of order) {
    while (chosen.length < 3) {
      const ok = rng.shuffle(schemes[scheme]!).find((m) => far(m, taken()));
      if (!ok) break;
      chosen.push({ scheme, move: ok });
    }
  }
  if (chosen.length < 3) throw new Error(`could not find 3 moves ${spec.minSeparationA} Å apart around (${dx}, ${dy}): raise maxDeltaA`);
  return chosen.map((c) => ({ scheme: c.scheme, move: [c.move[0] === 0 ? 0 : c.move[0], c.move[1] === 0 ? 0 : c.move[1]] as const }));
}
