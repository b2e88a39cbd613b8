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
 * T8: three distractors for the move (dx, dy), chosen so the four option texts give the key away to
 * no option-text-only strategy (lib/generate/mc-validity.ts). The options form a
 * rectangle: one component's sign is flipped (scheme "sign"), the other component's magnitude is
 * changed by d ∈ [minDeltaA, maxDeltaA] Å, grown or shrunk with equal odds when both are possible
 * ("magnitude"), and both together ("sign+magnitude"):
 *   (a, b), (−a, b), (a, c), (−a, c)
 * Every option then has its sign mirror among the options, the per-command medians are the
 * rectangle's centre (all four options equally close) and every option is equally far from the other
 * three, so sign-mirror, median-of-options and odd-one-out all sit at chance. (v1 flipped and changed
 * freely; the key was always one of the two exact sign mirrors, 50 % instead of 25 %.)
 * Which component is flipped is drawn among the non-zero ones; a (0, 0) move falls back to a square
 * of side d around it. All values are whole Å; options are at least minSeparationA apart.
 */
export function buildMoveDistractors(rng: Rng, truth: Move, spec: MoveDistractorSpec): { scheme: string; move: Move }[] {
  const [dx, dy] = truth;
  const deltas: number[] = [];
  for (let d = Math.ceil(Math.max(spec.minDeltaA, spec.minSeparationA)); d <= Math.floor(spec.maxDeltaA); d++) deltas.push(d);
  if (deltas.length === 0) throw new Error(`no whole-Å magnitude change in [${spec.minDeltaA}, ${spec.maxDeltaA}] that keeps options ${spec.minSeparationA} Å apart: raise maxDeltaA`);
  const zero = (v: number) => (v === 0 ? 0 : v);
  const flippable = ([0, 1] as const).filter((k) => truth[k] !== 0 && 2 * Math.abs(truth[k]) >= spec.minSeparationA - 1e-9);
  if (flippable.length === 0) {
    // (0, 0) (or too small to flip apart): a square of side d with the truth at a corner.
    const d = rng.pick(deltas);
    const sx = rng.pick([-1, 1]);
    const sy = rng.pick([-1, 1]);
    return [
      { scheme: "magnitude", move: [zero(dx + sx * d), dy] },
      { scheme: "magnitude", move: [dx, zero(dy + sy * d)] },
      { scheme: "magnitude", move: [zero(dx + sx * d), zero(dy + sy * d)] },
    ];
  }
  const k = rng.pick(flippable);
  const other = k === 0 ? 1 : 0;
  const v = truth[other];
  // The other component's magnitude grows or shrinks by d (sign kept; a zero component takes either sign).
  const grown = deltas.map((d) => (v === 0 ? rng.pick([-1, 1]) * d : Math.sign(v) * (Math.abs(v) + d)));
  const shrunk = v === 0 ? [] : deltas.filter((d) => Math.abs(v) - d >= 0).map((d) => Math.sign(v) * (Math.abs(v) - d));
  const pool = shrunk.length > 0 && rng.next() < 0.5 ? shrunk : grown;
  const c = zero(rng.pick(pool));
  const make = (flip: boolean, changed: boolean): Move => {
    const m: [number, number] = [dx, dy];
    if (flip) m[k] = zero(-m[k]);
    if (changed) m[other] = c;
    return m;
  };
  return [
    { scheme: "sign", move: make(true, false) },
    { scheme: "magnitude", move: make(false, true) },
    { scheme: "sign+magnitude", move: make(true, true) },
  ];
}

/** How a balanced option's command may differ from the truth's (see `buildBalancedDistractors`). */
export type PartnerKind = "sign" | "magnitude" | "axis";

export interface BalancedCommandSpec {
  /** Magnitudes the command's value is drawn from (the truth's magnitude is one of them). */
  magnitudes: readonly number[];
  /** A changed magnitude differs from the truth's by at least this. */
  minChange: number;
  /** Partner kinds allowed for this command, drawn uniformly. */
  kinds: readonly PartnerKind[];
  /** Axes an "axis" partner may switch to (besides the truth's own). */
  axes?: readonly Axis[];
}

/**
 * The partner of one true command, drawn so that truth and partner are exchangeable: given the unordered pair, each
 * of the two is the truth with probability 1/2. A sign flip and a switch among equally many axes are symmetric by
 * construction. A magnitude change is not (a magnitude at the edge of the grid has fewer neighbours ≥ minChange away,
 * so it would be the truth more often than its partner); it is accepted with probability |N(m)| / max|N|, otherwise
 * the partner is a sign flip, which makes P(truth = m, partner = m') the same constant for every allowed pair while
 * the truth itself keeps the paper's distribution.
 */
export function drawExchangeablePartner(rng: Rng, truth: ViewCommand, spec: BalancedCommandSpec): { kind: PartnerKind; command: ViewCommand } {
  const kind = rng.pick(spec.kinds);
  if (kind === "axis") {
    const axes = (spec.axes ?? []).filter((a) => a !== truth.axis);
    if (axes.length > 0) return { kind, command: { ...truth, axis: rng.pick(axes) } };
  }
  if (kind === "magnitude") {
    const m = Math.abs(truth.value);
    const neighbours = (x: number) => spec.magnitudes.filter((y) => Math.abs(y - x) >= spec.minChange - 1e-9);
    const degree = neighbours(m).length;
    const maxDegree = Math.max(...spec.magnitudes.map((x) => neighbours(x).length));
    if (degree > 0 && rng.next() < degree / maxDegree) return { kind, command: withValue(truth, Math.sign(truth.value) * rng.pick(neighbours(m))) };
  }
  return { kind: "sign", command: withValue(truth, -truth.value) };
}

/**
 * Beyond the paper (generator option `distractors: "balanced"`): the four options are the corners of a 2 × 2 product,
 * {first, first'} × {second, second'}, with each partner exchangeable with its true command
 * (`drawExchangeablePartner`). Given the option set, the truth is then equally likely to be any corner, so no rule
 * that reads only the options (texts, or the option images' poses) can beat chance in expectation: every value
 * appears in exactly two options, every option has the same relations to the other three.
 */
export function buildBalancedDistractors(rng: Rng, truth: readonly [ViewCommand, ViewCommand], first: BalancedCommandSpec, second: BalancedCommandSpec): OptionCandidate[] {
  const p1 = drawExchangeablePartner(rng, truth[0], first);
  const p2 = drawExchangeablePartner(rng, truth[1], second);
  return [
    { scheme: `balanced:first-${p1.kind}`, commands: [p1.command, truth[1]] },
    { scheme: `balanced:second-${p2.kind}`, commands: [truth[0], p2.command] },
    { scheme: `balanced:both`, commands: [p1.command, p2.command] },
  ];
}
