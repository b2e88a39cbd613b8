/**
 * Multiple-choice options (spec §3). T5: the true transformation (translation, then rotation) plus
 * the paper's three distractors: (a) change both magnitudes, (b) flip the translation's sign and
 * change the rotation's magnitude, (c) change the translation's axis and change the rotation's
 * magnitude. T6 adapts them to two rotations (first rotation in the translation's role). T8 perturbs
 * the sign and/or the magnitude of the x/y move (each component gets one exchangeable partner).
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
  if (a.length !== b.length || a.length === 0)
    throw new Error(`RMSD needs two equally long, non-empty point lists (${a.length} vs ${b.length})`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += distanceSquaredVec(a[i]!, b[i]!);
  return Math.sqrt(sum / a.length);
}

/** Smallest RMSD between any two of the poses (how alike the two most alike option images are). */
export function computeMinPairwiseRmsd(poses: readonly (readonly Vec3[])[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < poses.length; i++)
    for (let j = i + 1; j < poses.length; j++) min = Math.min(min, computeRmsd(poses[i]!, poses[j]!));
  return min;
}

/** A magnitude from `magnitudes` at least `minChange` away from `current`; throws if none (bad params). */
export function pickChangedMagnitude(
  rng: Rng,
  magnitudes: readonly number[],
  current: number,
  minChange: number,
  what: string,
): number {
  const choices = magnitudes.filter((m) => Math.abs(m - current) >= minChange - 1e-9);
  if (choices.length === 0)
    throw new Error(
      `no ${what} differs from ${current} by at least ${minChange}: widen the range or lower the minimum change`,
    );
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
export function buildPairedDistractors(
  rng: Rng,
  truth: readonly [ViewCommand, ViewCommand],
  spec: PairedChangeSpec,
): OptionCandidate[] {
  const [first, second] = truth;
  const s1 = Math.sign(first.value);
  const s2 = Math.sign(second.value);
  const m1 = Math.abs(first.value);
  const m2 = Math.abs(second.value);
  const changedSecond = () =>
    withValue(
      second,
      s2 * pickChangedMagnitude(rng, spec.secondMagnitudes, m2, spec.secondMinChange, `${second.kind} magnitude`),
    );
  const a: ViewCommand[] = [
    withValue(
      first,
      s1 * pickChangedMagnitude(rng, spec.firstMagnitudes, m1, spec.firstMinChange, `${first.kind} magnitude`),
    ),
    changedSecond(),
  ];
  const b: ViewCommand[] = [withValue(first, -first.value), changedSecond()];
  const otherAxis = pickOtherAxis(
    rng,
    spec.firstAxes,
    [first.axis, ...(spec.firstAxisExcluded ?? [])],
    `${first.kind} axis`,
  );
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
export function assignLetters(
  rng: Rng,
  truth: OptionCandidate,
  distractors: readonly OptionCandidate[],
  answerSlot?: number,
): LetteredOptions {
  if (distractors.length !== 3) throw new Error(`an MC item needs 3 distractors, got ${distractors.length}`);
  const options = placeTruth(rng, truth, distractors, answerSlot);
  const index = options.indexOf(truth);
  const records = options.map((o, i) => ({
    letter: MC_LETTERS[i]!,
    scheme: o.scheme,
    option: formatOption(o.commands),
  }));
  return { letter: MC_LETTERS[index]!, options, records };
}

/** [distractors shuffled] with the truth inserted at `answerSlot` (0–3), or at a random place. */
export function placeTruth<T>(rng: Rng, truth: T, distractors: readonly T[], answerSlot?: number): T[] {
  if (
    answerSlot !== undefined &&
    !(Number.isInteger(answerSlot) && answerSlot >= 0 && answerSlot <= distractors.length)
  ) {
    throw new Error(`answer slot ${answerSlot} is not 0..${distractors.length}`);
  }
  const slot = answerSlot ?? rng.int(0, distractors.length);
  const out = rng.shuffle(distractors);
  out.splice(slot, 0, truth);
  return out;
}

export interface MoveDistractorSpec {
  /** A magnitude change moves a component by a whole number of Å in [minDeltaA, maxDeltaA]. */
  minDeltaA: number;
  maxDeltaA: number;
  /** Every option is at least this far (Å, in the x/y plane) from every other. */
  minSeparationA: number;
  /**
   * Spread (standard deviation, Å) of the true move's components: the partners are balanced against a centred normal
   * distribution of this spread, rounded to whole Å (the bond midpoints' offsets from the view centre).
   */
  truthSpreadA: number;
  /** No option shows a component beyond ±maxOptionA Å; a truth beyond it cannot get balanced partners. */
  maxOptionA: number;
}

type Move = readonly [number, number];

/** How a partner value differs from the truth's: its sign, its magnitude, or both (crossing zero). */
export type MovePartnerKind = "sign" | "magnitude" | "sign+magnitude";

/** P(partner = v' | truth = v) over the whole-Å grid −R..R, with the graph it was balanced on. */
export interface MovePartnerKernel {
  /** R: values run −R..R (index v + R). */
  radius: number;
  /** Assumed distribution of a true component (sums to 1). */
  prior: number[];
  /** kernel[v + R] lists the partners of v with their probabilities (summing to 1). */
  kernel: { value: number; p: number }[][];
}

const kernelCache = new Map<string, MovePartnerKernel>();

/**
 * The partner kernel of one move component. A partner of v is −v (sign flip) or v ± d with d a whole-Å change in
 * [max(minDeltaA, minSeparationA), maxDeltaA] (a magnitude change, or sign and magnitude when it crosses zero).
 *
 * Options must not tell the truth from its partner. Given the unordered pair {v, v'}, the truth is v with probability
 * π(v) K(v'|v) / (π(v) K(v'|v) + π(v') K(v|v')); it is 1/2 for every pair exactly when the joint S(v, v') = π(v) K(v'|v)
 * is symmetric. A symmetric proposal alone is not enough: true offsets cluster near zero, so "the option nearer zero"
 * would be the truth more often (a pair {0, 4} is keyed at 0 about twice as often as at 4). S is therefore built as
 * X A X (A: the allowed moves, flips weighted like all magnitude changes together; X diagonal), scaled until every row
 * sums to π (symmetric Sinkhorn scaling), so K(v'|v) = x_v A(v, v') x_v' / π(v).
 */
export function buildMovePartnerKernel(spec: MoveDistractorSpec): MovePartnerKernel {
  const cacheKey = JSON.stringify([
    spec.minDeltaA,
    spec.maxDeltaA,
    spec.minSeparationA,
    spec.truthSpreadA,
    spec.maxOptionA,
  ]);
  const hit = kernelCache.get(cacheKey);
  if (hit) return hit;
  const deltas: number[] = [];
  for (let d = Math.ceil(Math.max(spec.minDeltaA, spec.minSeparationA)); d <= Math.floor(spec.maxDeltaA); d++)
    deltas.push(d);
  if (deltas.length === 0)
    throw new Error(
      `no whole-Å magnitude change in [${spec.minDeltaA}, ${spec.maxDeltaA}] that keeps options ${spec.minSeparationA} Å apart: raise maxDeltaA`,
    );
  if (!(spec.truthSpreadA > 0)) throw new Error(`truthSpreadA must be > 0 Å, got ${spec.truthSpreadA}`);
  const R = Math.floor(spec.maxOptionA);
  if (R < Math.max(...deltas))
    throw new Error(`maxOptionA ${spec.maxOptionA} Å leaves no room for a ${Math.max(...deltas)} Å change: raise it`);
  const n = 2 * R + 1;
  const raw = Array.from({ length: n }, (_, i) => Math.exp(-((i - R) ** 2) / (2 * spec.truthSpreadA ** 2)));
  const total = raw.reduce((a, b) => a + b, 0);
  const prior = raw.map((x) => x / total);
  const flipWeight = deltas.length;
  const edges: { j: number; w: number }[][] = Array.from({ length: n }, (_, i) => {
    const v = i - R;
    const out = new Map<number, number>();
    for (const d of deltas)
      for (const w of [v - d, v + d]) if (Math.abs(w) <= R) out.set(w + R, (out.get(w + R) ?? 0) + 1);
    if (v !== 0 && 2 * Math.abs(v) >= spec.minSeparationA - 1e-9) out.set(-v + R, (out.get(-v + R) ?? 0) + flipWeight);
    return [...out].map(([j, w]) => ({ j, w }));
  });
  // Symmetric Sinkhorn: x ← sqrt(x · π / (A x)) converges on a connected graph with an odd cycle (steps d and d + 1).
  let x = prior.map((p) => Math.sqrt(p));
  let worst = Infinity;
  for (let iter = 0; iter < 100_000 && worst > 1e-12; iter++) {
    const ax = edges.map((es) => es.reduce((s, e) => s + e.w * x[e.j]!, 0));
    x = x.map((xi, i) => Math.sqrt((xi * prior[i]!) / ax[i]!));
    worst = 0;
    for (let i = 0; i < n; i++)
      worst = Math.max(worst, Math.abs((x[i]! * edges[i]!.reduce((s, e) => s + e.w * x[e.j]!, 0)) / prior[i]! - 1));
  }
  if (worst > 1e-9)
    throw new Error(
      `move partner kernel did not balance (row error ${worst.toExponential(2)}): check truthSpreadA and the deltas`,
    );
  const kernel = edges.map((es, i) => {
    const row = es.map((e) => ({ value: e.j - R, p: (x[i]! * e.w * x[e.j]!) / prior[i]! }));
    const sum = row.reduce((s, r) => s + r.p, 0);
    return row.map((r) => ({ value: r.value, p: r.p / sum }));
  });
  const built = { radius: R, prior, kernel };
  kernelCache.set(cacheKey, built);
  return built;
}

/** A partner of the true component `v`, drawn from the kernel. */
export function drawMovePartner(
  rng: Rng,
  v: number,
  kernel: MovePartnerKernel,
): { kind: MovePartnerKind; value: number } {
  const row = kernel.kernel[v + kernel.radius];
  if (!Number.isInteger(v) || !row)
    throw new Error(`move component ${v} Å is not a whole number within ±${kernel.radius} Å (maxOptionA)`);
  let u = rng.next();
  let picked = row[row.length - 1]!.value;
  for (const r of row) {
    if (u < r.p) {
      picked = r.value;
      break;
    }
    u -= r.p;
  }
  const value = picked === 0 ? 0 : picked;
  const kind: MovePartnerKind =
    value === -v
      ? "sign"
      : v !== 0 && value !== 0 && Math.sign(value) !== Math.sign(v)
        ? "sign+magnitude"
        : "magnitude";
  return { kind, value };
}

/**
 * T8: three distractors for the move (dx, dy). The options are a 2 × 2 product {dx, dx'} × {dy, dy'}: each component
 * gets one partner (`drawMovePartner`: its sign flipped, its magnitude changed, or both), and the three distractors
 * change x, y, or both. Every value then appears in exactly two options and, the partners being exchangeable with
 * their truths under the assumed spread, the key is equally likely to be any corner of the set: no rule that reads only
 * the option texts (mirror, median, odd-one-out, the shortest or longest move) beats chance. All values are whole Å;
 * options are at least minSeparationA apart (each partner differs by at least that).
 */
export function buildMoveDistractors(
  rng: Rng,
  truth: Move,
  spec: MoveDistractorSpec,
): { scheme: string; move: Move }[] {
  const kernel = buildMovePartnerKernel(spec);
  const [dx, dy] = truth;
  const px = drawMovePartner(rng, dx, kernel);
  const py = drawMovePartner(rng, dy, kernel);
  return [
    { scheme: `x-${px.kind}`, move: [px.value, dy] },
    { scheme: `y-${py.kind}`, move: [dx, py.value] },
    { scheme: `x-${px.kind}+y-${py.kind}`, move: [px.value, py.value] },
  ];
}

/**
 * T8 beyond the paper (generator option `distractors: "balanced"`): the option set is built before the key and knows
 * nothing of the structure. An anchor move is drawn from the kernel's prior, each component gets a partner
 * (`drawMovePartner`), and the key is one of the four corners {ax, ax'} × {ay, ay'} drawn uniformly; the generator then
 * centres the view so that the bond midpoint sits at minus the key. Given the options, every corner is the key with
 * probability 1/4 whatever the structures, so no option-text rule beats chance and nothing is tuned on a structure set.
 */
export function buildSymmetricMoveSet(
  rng: Rng,
  spec: MoveDistractorSpec,
): { truth: Move; distractors: { scheme: string; move: Move }[] } {
  const kernel = buildMovePartnerKernel(spec);
  const fromPrior = () => {
    let u = rng.next();
    for (let i = 0; i < kernel.prior.length; i++) {
      if (u < kernel.prior[i]!) return i - kernel.radius;
      u -= kernel.prior[i]!;
    }
    return kernel.radius;
  };
  const anchor = [fromPrior(), fromPrior()] as const;
  const px = drawMovePartner(rng, anchor[0], kernel);
  const py = drawMovePartner(rng, anchor[1], kernel);
  const xs = [anchor[0], px.value] as const;
  const ys = [anchor[1], py.value] as const;
  const kx = rng.int(0, 1);
  const ky = rng.int(0, 1);
  const zero = (v: number) => (v === 0 ? 0 : v);
  const corner = (i: number, j: number): Move => [zero(xs[i]!), zero(ys[j]!)];
  return {
    truth: corner(kx, ky),
    distractors: [
      { scheme: `x-${px.kind}`, move: corner(1 - kx, ky) },
      { scheme: `y-${py.kind}`, move: corner(kx, 1 - ky) },
      { scheme: `x-${px.kind}+y-${py.kind}`, move: corner(1 - kx, 1 - ky) },
    ],
  };
}

/** How a balanced option's command may differ from the truth's (see `buildSymmetricOptionSet`). */
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
export function drawExchangeablePartner(
  rng: Rng,
  truth: ViewCommand,
  spec: BalancedCommandSpec,
): { kind: PartnerKind; command: ViewCommand } {
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
    if (degree > 0 && rng.next() < degree / maxDegree)
      return { kind, command: withValue(truth, Math.sign(truth.value) * rng.pick(neighbours(m))) };
  }
  return { kind: "sign", command: withValue(truth, -truth.value) };
}

/** One corner of a symmetric 2 × 2 option set: which partner it takes in each slot (0: the anchor's command, 1: its partner). */
export interface SetCorner {
  corner: readonly [0 | 1, 0 | 1];
  commands: ViewCommand[];
}

/**
 * Beyond the paper (generator option `distractors: "balanced"`): the symmetric option set {first, first'} × {second,
 * second'} around an anchor pair of commands, each partner drawn by `drawExchangeablePartner`. The key is then picked
 * uniformly among the four corners (`pickKeyAmong`), so given the option set every corner is the key with probability
 * exactly 1/4 and no rule that reads only the options (texts, or the option images' poses) can beat chance.
 */
export function buildSymmetricOptionSet(
  rng: Rng,
  anchor: readonly [ViewCommand, ViewCommand],
  first: BalancedCommandSpec,
  second: BalancedCommandSpec,
): { corners: SetCorner[]; kinds: [PartnerKind, PartnerKind] } {
  const p1 = drawExchangeablePartner(rng, anchor[0], first);
  const p2 = drawExchangeablePartner(rng, anchor[1], second);
  const firsts = [anchor[0], p1.command] as const;
  const seconds = [anchor[1], p2.command] as const;
  const corners = ([0, 1] as const).flatMap((i) =>
    ([0, 1] as const).map((j): SetCorner => ({ corner: [i, j], commands: [firsts[i], seconds[j]] })),
  );
  return { corners, kinds: [p1.kind, p2.kind] };
}

/** The key, drawn uniformly among the set's corners, and the other three as distractors named by how they differ from it. */
export function pickKeyAmong(
  rng: Rng,
  set: { corners: readonly SetCorner[]; kinds: readonly [PartnerKind, PartnerKind] },
): { truth: OptionCandidate; distractors: OptionCandidate[] } {
  const key = set.corners[rng.int(0, set.corners.length - 1)]!;
  const distractors = set.corners
    .filter((c) => c !== key)
    .map((c) => {
      const first = c.corner[0] !== key.corner[0];
      const second = c.corner[1] !== key.corner[1];
      const scheme =
        first && second
          ? "balanced:both"
          : first
            ? `balanced:first-${set.kinds[0]}`
            : `balanced:second-${set.kinds[1]}`;
      return { scheme, commands: c.commands };
    });
  return { truth: { scheme: "truth", commands: key.commands }, distractors };
}
