/**
 * T5 translation + rotation and T6 rotation + rotation (spec §3). Both are MC items whose options are
 * images; the option texts (the commands each option image shows) live only in the gold. No scene3d:
 * the question is the option images themselves, and an interactive copy of the target would let a
 * participant try the transformation out instead of imagining it.
 */
import { z } from "zod";
import { type ViewCommand, applyCommands } from "@/lib/molecule/geometry/commands";
import type { Axis } from "@/lib/molecule/geometry/transform";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";
import type { Rng } from "@/lib/rng";
import {
  type LetteredOptions,
  type OptionCandidate,
  assignLetters,
  type BalancedCommandSpec,
  buildPairedDistractors,
  buildSymmetricOptionSet,
  computeMinPairwiseRmsd,
  formatOption,
  type PairedChangeSpec,
  pickKeyAmong,
} from "../distractors";
import { toFrontFrame } from "../scene";
import {
  type PlanResult,
  AxisXYZSchema,
  THREE_VIEWS,
  defineGenerator,
  listGridValues,
  makeCanonicalViews,
  makeView,
  pickValue,
  requireComplex,
} from "../task-generator";
import type { GeneratorComplex, ItemView } from "../types";
import { makeComplexBase } from "./whole-complex";

const angleKnobs = {
  /** Rotation magnitudes are multiples of the step in [min, max] (T2's grid: 15° steps up to 90°). */
  minAngleDeg: z.number().int().min(1).max(180).default(15),
  maxAngleDeg: z.number().int().min(1).max(180).default(90),
  angleStepDeg: z.number().int().min(1).max(90).default(15),
  /** A distractor's changed rotation magnitude differs from the true one by at least this. */
  minAngleChangeDeg: z.number().min(0).max(180).default(30),
  /** The two most alike option images must differ by at least this RMSD over the shown atoms. */
  minOptionRmsdA: z.number().min(0).max(20).default(1.5),
  /** Redraws of the distractors before giving up on an item. */
  maxAttempts: z.number().int().min(1).max(1000).default(20),
  /**
   * "paper": the paper's three distractor schemes (a), (b), (c). "balanced" (beyond the paper): the options are a
   * symmetric 2 × 2 product of partners built first, the key then drawn uniformly among its corners
   * (lib/generate/distractors.ts `buildSymmetricOptionSet`), so no option-text or option-pose rule beats chance
   * (bench:shortcuts measures it).
   */
  distractors: z.enum(["paper", "balanced"]).default("paper"),
};

export const TranslationRotationGeneratorParamsSchema = z
  .object({
    /** Translation axes; scheme (c) switches to another of them, so at least two. */
    translationAxes: z.array(AxisXYZSchema).min(2).default(["x", "y"]),
    /** Translation magnitudes, whole Å (T1's range by default). */
    minTranslationA: z.number().int().min(1).max(50).default(1),
    maxTranslationA: z.number().int().min(1).max(50).default(4),
    /** A distractor's changed translation magnitude differs from the true one by at least this. */
    minTranslationChangeA: z.number().min(0).max(50).default(2),
    rollAxes: z.array(AxisXYZSchema).min(1).default(["x", "y", "z"]),
    ...angleKnobs,
  })
  .refine((p) => p.minTranslationA <= p.maxTranslationA && p.minAngleDeg <= p.maxAngleDeg, {
    message: "a minimum exceeds its maximum",
  });
export type TranslationRotationGeneratorParams = z.infer<typeof TranslationRotationGeneratorParamsSchema>;

export const RotationRotationGeneratorParamsSchema = z
  .object({
    /** Axes of the two rotations (different from each other); scheme (c) needs a third one. */
    axes: z.array(AxisXYZSchema).min(3).default(["x", "y", "z"]),
    ...angleKnobs,
  })
  .refine((p) => p.minAngleDeg <= p.maxAngleDeg, { message: "minAngleDeg exceeds maxAngleDeg" });
export type RotationRotationGeneratorParams = z.infer<typeof RotationRotationGeneratorParamsSchema>;

function signed(rng: Rng, magnitude: number): number {
  return rng.next() < 0.5 ? -magnitude : magnitude;
}

/**
 * Draws distractors until the four option poses are pairwise at least `minRmsdA` apart (two
 * different command pairs can give the same pose, e.g. some 90° combinations in T6).
 */
function drawDistinctOptions(
  rng: Rng,
  truth: OptionCandidate,
  build: (rng: Rng, truth: readonly [ViewCommand, ViewCommand]) => OptionCandidate[],
  poseOf: (commands: readonly ViewCommand[]) => Vec3[],
  minRmsdA: number,
  maxAttempts: number,
  answerSlot: number | undefined,
): LetteredOptions {
  let best = { rmsd: -1, distractors: [] as OptionCandidate[] };
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    // A redraw depends only on the option set (its closest pair), so it keeps balanced options balanced.
    const distractors = build(rng, [truth.commands[0]!, truth.commands[1]!]);
    const rmsd = computeMinPairwiseRmsd([truth, ...distractors].map((o) => poseOf(o.commands)));
    if (rmsd > best.rmsd) best = { rmsd, distractors };
    if (rmsd >= minRmsdA) return assignLetters(rng, truth, distractors, answerSlot);
  }
  throw new Error(
    `after ${maxAttempts} draws the most alike option images still differ by only ${best.rmsd.toFixed(2)} Å RMSD (< ${minRmsdA} Å)`,
  );
}

/**
 * Balanced options: the symmetric set around `anchor` first, redrawn until its option poses are pairwise at least
 * `minRmsdA` apart whichever corner is the key (`poseOf` may depend on the key, as T6's options start from the key's
 * pose), then the key drawn uniformly among its corners: the redraw depends on the set alone, so it keeps the key uniform.
 */
function drawBalancedOptions(
  rng: Rng,
  anchor: readonly [ViewCommand, ViewCommand],
  specs: readonly [BalancedCommandSpec, BalancedCommandSpec],
  poseOf: (key: readonly ViewCommand[], commands: readonly ViewCommand[]) => Vec3[],
  minRmsdA: number,
  maxAttempts: number,
  answerSlot: number | undefined,
): { truth: OptionCandidate; lettered: LetteredOptions } {
  let best = -1;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const set = buildSymmetricOptionSet(rng, anchor, specs[0], specs[1]);
    const rmsd = Math.min(
      ...set.corners.map((key) => computeMinPairwiseRmsd(set.corners.map((c) => poseOf(key.commands, c.commands)))),
    );
    best = Math.max(best, rmsd);
    if (rmsd < minRmsdA) continue;
    const { truth, distractors } = pickKeyAmong(rng, set);
    return { truth, lettered: assignLetters(rng, truth, distractors, answerSlot) };
  }
  throw new Error(
    `after ${maxAttempts} draws the most alike option images still differ by only ${best.toFixed(2)} Å RMSD (< ${minRmsdA} Å)`,
  );
}

function withTruth(
  truth: OptionCandidate,
  draw: (truth: OptionCandidate) => LetteredOptions,
): { truth: OptionCandidate; lettered: LetteredOptions } {
  return { truth, lettered: draw(truth) };
}

function optionViews(
  base: Parameters<typeof makeView>[0],
  lettered: LetteredOptions,
  prefix: readonly ViewCommand[],
  firstImage: number,
): ItemView[] {
  return lettered.options.map((o, i) =>
    makeView(
      { ...base, modelCommands: [...prefix, ...o.commands] },
      "front",
      `Image ${firstImage + i}: option ${"ABCD"[i]}`,
    ),
  );
}

function frontPositions(complex: GeneratorComplex, viewCentre: Vec3): Vec3[] {
  return toFrontFrame([...complex.ligandAtoms, ...complex.pocketAtoms], viewCentre);
}

/** T5: reference complex c1 and target c2 must be different complexes (different PDB ids). */
export const translationRotationGenerator = defineGenerator({
  taskId: "translation_rotation",
  paramsSchema: TranslationRotationGeneratorParamsSchema,
  checkComplex: () => null,
  optionsInForce: (params) => (params.distractors === "balanced" ? ["balanced-distractors"] : []),
  plan(eligible, count, rng): PlanResult {
    const ids = new Set(eligible.map((c) => c.pdbId));
    if (ids.size < 2) return { items: [], notes: ["needs two complexes with different PDB ids"] };
    const order = rng.shuffle(eligible);
    const items = Array.from({ length: count }, (_, i) => {
      const reference = order[i % order.length]!;
      const target = rng.pick(order.filter((c) => c.pdbId !== reference.pdbId));
      return { complexes: [reference, target] };
    });
    return { items, notes: [] };
  },
  generate(item, params, rng, context) {
    const reference = requireComplex(item, 0);
    const target = requireComplex(item, 1);
    const translationMagnitudes = listGridValues(params.minTranslationA, params.maxTranslationA, 1, false);
    const angleMagnitudes = listGridValues(params.minAngleDeg, params.maxAngleDeg, params.angleStepDeg, false);
    const move: ViewCommand = {
      kind: "move",
      axis: rng.pick(params.translationAxes),
      value: signed(rng, pickValue(rng, translationMagnitudes, "translation magnitude")),
    };
    const roll: ViewCommand = {
      kind: "roll",
      axis: rng.pick(params.rollAxes),
      value: signed(rng, pickValue(rng, angleMagnitudes, "rotation magnitude")),
    };
    const anchor = [move, roll] as const;

    // Framing covers the largest translation, so no option image crops the moved complex.
    const framing = { extraRadiusA: params.maxTranslationA };
    const refBase = makeComplexBase(reference, context, framing, 0);
    const targetBase = makeComplexBase(target, context, framing, 1);
    const targetFront = frontPositions(target, targetBase.viewCentre);
    const poseOf = (commands: readonly ViewCommand[]) => applyCommands(targetFront, commands, [0, 0, 0]);
    const paperSpec: PairedChangeSpec = {
      firstMagnitudes: translationMagnitudes,
      firstMinChange: params.minTranslationChangeA,
      firstAxes: params.translationAxes as Axis[],
      secondMagnitudes: angleMagnitudes,
      secondMinChange: params.minAngleChangeDeg,
    };
    const { truth, lettered } =
      params.distractors === "balanced"
        ? drawBalancedOptions(
            rng,
            anchor,
            [
              {
                magnitudes: translationMagnitudes,
                minChange: params.minTranslationChangeA,
                kinds: ["sign", "magnitude", "axis"],
                axes: params.translationAxes as Axis[],
              },
              { magnitudes: angleMagnitudes, minChange: params.minAngleChangeDeg, kinds: ["sign", "magnitude"] },
            ],
            (_key, commands) => poseOf(commands),
            params.minOptionRmsdA,
            params.maxAttempts,
            item.answerSlot,
          )
        : withTruth({ scheme: "truth", commands: [...anchor] }, (t) =>
            drawDistinctOptions(
              rng,
              t,
              (r, c) => buildPairedDistractors(r, c, paperSpec),
              poseOf,
              params.minOptionRmsdA,
              params.maxAttempts,
              item.answerSlot,
            ),
          );
    const views = [
      ...makeCanonicalViews(refBase, THREE_VIEWS, 1),
      makeView({ ...refBase, modelCommands: truth.commands }, "front", "Image 4: front view after the transformation"),
      ...makeCanonicalViews(targetBase, THREE_VIEWS, 5, "second complex"),
      ...optionViews(targetBase, lettered, [], 8),
    ];
    return {
      fields: { referencePdbId: reference.pdbId, targetPdbId: target.pdbId },
      gold: { letter: lettered.letter, options: lettered.options.map((o) => formatOption(o.commands)) },
      views,
      distractors: lettered.records,
    };
  },
});

/** T6: two rotations about different axes; options apply two rotations to image 4's pose. */
export const rotationRotationGenerator = defineGenerator({
  taskId: "rotation_rotation",
  paramsSchema: RotationRotationGeneratorParamsSchema,
  checkComplex: () => null,
  optionsInForce: (params) => (params.distractors === "balanced" ? ["balanced-distractors"] : []),
  generate(item, params, rng, context) {
    const complex = requireComplex(item);
    const angleMagnitudes = listGridValues(params.minAngleDeg, params.maxAngleDeg, params.angleStepDeg, false);
    const [axis1, axis2] = rng.shuffle(params.axes) as [Axis, Axis, ...Axis[]];
    const first: ViewCommand = {
      kind: "roll",
      axis: axis1,
      value: signed(rng, pickValue(rng, angleMagnitudes, "rotation magnitude")),
    };
    const second: ViewCommand = {
      kind: "roll",
      axis: axis2,
      value: signed(rng, pickValue(rng, angleMagnitudes, "rotation magnitude")),
    };
    const anchor = [first, second] as const;

    const base = makeComplexBase(complex, context);
    const front = frontPositions(complex, base.viewCentre);
    const paperSpec: PairedChangeSpec = {
      firstMagnitudes: angleMagnitudes,
      firstMinChange: params.minAngleChangeDeg,
      firstAxes: params.axes as Axis[],
      firstAxisExcluded: [axis2],
      secondMagnitudes: angleMagnitudes,
      secondMinChange: params.minAngleChangeDeg,
    };
    // Balanced: no axis partners, so the two rotations' axes stay different in every option.
    const rollSpec: BalancedCommandSpec = {
      magnitudes: angleMagnitudes,
      minChange: params.minAngleChangeDeg,
      kinds: ["sign", "magnitude"],
    };
    // Options start from image 4's pose, the key's.
    const poseOf = (key: readonly ViewCommand[], commands: readonly ViewCommand[]) =>
      applyCommands(applyCommands(front, key, [0, 0, 0]), commands, [0, 0, 0]);
    const { truth, lettered } =
      params.distractors === "balanced"
        ? drawBalancedOptions(
            rng,
            anchor,
            [rollSpec, rollSpec],
            poseOf,
            params.minOptionRmsdA,
            params.maxAttempts,
            item.answerSlot,
          )
        : withTruth({ scheme: "truth", commands: [...anchor] }, (t) => {
            const after = applyCommands(front, t.commands, [0, 0, 0]);
            return drawDistinctOptions(
              rng,
              t,
              (r, c) => buildPairedDistractors(r, c, paperSpec),
              (commands) => applyCommands(after, commands, [0, 0, 0]),
              params.minOptionRmsdA,
              params.maxAttempts,
              item.answerSlot,
            );
          });
    const views = [
      ...makeCanonicalViews(base, THREE_VIEWS, 1),
      makeView({ ...base, modelCommands: truth.commands }, "front", "Image 4: front view after the two rotations"),
      ...optionViews(base, lettered, truth.commands, 5),
    ];
    return {
      fields: { pdbId: complex.pdbId },
      gold: { letter: lettered.letter, options: lettered.options.map((o) => formatOption(o.commands)) },
      views,
      distractors: lettered.records,
    };
  },
});
