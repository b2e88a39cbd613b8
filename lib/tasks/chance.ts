/**
 * Chance level of an exact answer, from the answer space an item's key was actually drawn from. The one rule the
 * shortcut audit, the results page and the exports use.
 *
 * The spec (§4) gives T1 "about 1/9 given the axis" and T2 "about 1/13": the 9 distances in [-4, 4] Å and the 13
 * angles in [-90°, 90°] at 15°, zero included, as in the paper's generation ("a random distance in [-4, 4] Å, 1 Å
 * bins"). Items imported from the MiSI release (or any source other than this project's generator) may therefore have
 * a key of 0. This project's generator skips 0 by default (a zero move leaves image 4 identical to image 1;
 * `allowZero`), so its T1 keys take 8 values and its T2 keys 12, and the range itself is a param. A participant who
 * knows the axis (the spec's convention) and guesses uniformly among the values the key can take is right with
 * probability 1 / (number of values). MC: 1/4. T4, T7, T9 have open answer spaces (no chance level).
 */
import { listGridValues } from "./grammar/command";
import { RotationParamsSchema, ROTATION_COMMAND } from "./rotation";
import { TRANSLATION_COMMAND, TranslationParamsSchema } from "./translation";
import { MC_LETTERS, type TaskId } from "./types";
import { ZOOMING_COMMAND, ZoomingParamsSchema } from "./zooming";

/** Name this project's generator records in every item's provenance (lib/generate/types.ts GENERATOR_NAME). */
export const PROJECT_GENERATOR_NAME = "misi-baseline/lib/generate";

/** Where an item's key was drawn from. */
export type KeyOrigin =
  /** This project's generator: its recorded params (defaults fill what is missing) fix the values a key can take. */
  | { kind: "generated"; params: unknown }
  /** Imported from the MiSI release or elsewhere: any value of the spec's range. */
  | { kind: "spec" };

export const SPEC_ORIGIN: KeyOrigin = { kind: "spec" };

export interface ChanceLevel {
  /** Probability that a uniformly random answer is exactly right, or null where no finite uniform answer space exists. */
  exact: number | null;
  basis: string;
}

/** The answer space of one item's key: how many equally likely values (axis given), and what they are. */
export interface KeyAnswerSpace {
  /** Number of values; null for open answers (T4, T7, T9). */
  size: number | null;
  basis: string;
}

const MC_SPACE: KeyAnswerSpace = { size: MC_LETTERS.length, basis: "multiple choice A–D" };
const OPEN: Partial<Record<TaskId, string>> = {
  residue_ligand: "open-ended bond list",
  docking: "open-ended roll + move command",
  pocket_ligand: "open-ended bond list",
};

function gridSpace(values: readonly number[], what: string, unit: string, origin: KeyOrigin): KeyAnswerSpace {
  const range = `[${values[0]}, ${values[values.length - 1]}]${unit}`;
  const zero = values.includes(0) ? "0 included" : "0 excluded";
  const from = origin.kind === "generated" ? "generated" : "spec range";
  return { size: values.length, basis: `${values.length} ${what} in ${range}, ${zero}, axis given (${from})` };
}

/**
 * The values a key of `taskId` can take, for the value-range tasks (T1, T2, T3): the generator draws its keys from
 * exactly this list (lib/generate/tasks/unit-transform.ts). Null for the other tasks, or when recorded params do not
 * validate (the caller then falls back to the spec's range).
 */
export function listKeyValues(taskId: TaskId, origin: KeyOrigin): number[] | null {
  const params = origin.kind === "generated" ? (origin.params ?? {}) : null;
  if (taskId === "translation") {
    if (!params)
      return listGridValues(TRANSLATION_COMMAND.min, TRANSLATION_COMMAND.max, TRANSLATION_COMMAND.step, true);
    const p = TranslationParamsSchema.safeParse(params);
    return p.success
      ? listGridValues(p.data.minDistanceA, p.data.maxDistanceA, TRANSLATION_COMMAND.step, p.data.allowZero)
      : null;
  }
  if (taskId === "rotation") {
    if (!params) return listGridValues(ROTATION_COMMAND.min, ROTATION_COMMAND.max, ROTATION_COMMAND.step, true);
    const p = RotationParamsSchema.safeParse(params);
    return p.success
      ? listGridValues(p.data.minAngleDeg, p.data.maxAngleDeg, ROTATION_COMMAND.step, p.data.allowZero)
      : null;
  }
  if (taskId === "zooming") {
    if (!params) return listGridValues(ZOOMING_COMMAND.min, ZOOMING_COMMAND.max, ZOOMING_COMMAND.step, true);
    const p = ZoomingParamsSchema.safeParse(params);
    return p.success ? listGridValues(p.data.minDistanceA, p.data.maxDistanceA, ZOOMING_COMMAND.step, true) : null;
  }
  return null;
}

/** The answer space of one item's key (see the module comment). */
export function keyAnswerSpace(taskId: TaskId, origin: KeyOrigin): KeyAnswerSpace {
  if (taskId === "translation_rotation" || taskId === "rotation_rotation" || taskId === "interaction_location")
    return MC_SPACE;
  const open = OPEN[taskId];
  if (open !== undefined) return { size: null, basis: open };
  const values = listKeyValues(taskId, origin);
  if (values === null || values.length === 0) {
    // Recorded params that no longer validate: the spec's range is the honest fallback, and the basis says so.
    const spec = keyAnswerSpace(taskId, SPEC_ORIGIN);
    return { size: spec.size, basis: `${spec.basis}; recorded generator params unreadable` };
  }
  if (taskId === "translation") return gridSpace(values, "distances", " Å", origin);
  if (taskId === "rotation") return gridSpace(values, "angles", "°", origin);
  return {
    size: values.length,
    basis: `${values.length} distances in [${values[0]}, ${values[values.length - 1]}] Å (${origin.kind === "generated" ? "generated" : "spec range"})`,
  };
}

/** The key origin of a stored item: its source and provenance JSON as the importers write them. */
export function keyOriginOfStoredItem(source: string, provenance: unknown): KeyOrigin {
  const p = provenance && typeof provenance === "object" ? (provenance as Record<string, unknown>) : null;
  // Generated in-app: the generator's provenance itself. From a bundle file: the bundle's provenance, under `bundle`.
  const generator =
    source === "generated"
      ? p
      : source === "bundle" && p?.bundle && typeof p.bundle === "object"
        ? (p.bundle as Record<string, unknown>)
        : null;
  if (generator && (source === "generated" || generator.generator === PROJECT_GENERATOR_NAME))
    return { kind: "generated", params: generator.params ?? {} };
  return SPEC_ORIGIN;
}

/**
 * Chance over a set of items (or of responses, one entry each): the mean of 1/size, so a pool mixing generated and
 * imported items gets the weighted level; the basis names each answer space with its count. Null when the task's
 * answer space is open.
 */
export function combineChance(spaces: readonly KeyAnswerSpace[]): ChanceLevel {
  if (spaces.length === 0) return { exact: null, basis: "no items" };
  const open = spaces.find((s) => s.size === null);
  if (open) return { exact: null, basis: open.basis };
  const counts = new Map<string, number>();
  for (const s of spaces) counts.set(s.basis, (counts.get(s.basis) ?? 0) + 1);
  const exact = spaces.reduce((sum, s) => sum + 1 / (s.size as number), 0) / spaces.length;
  const basis =
    counts.size === 1
      ? [...counts.keys()][0]!
      : `mean over ${spaces.length}: ${[...counts].map(([b, n]) => `${n} × ${b}`).join("; ")}`;
  return { exact, basis };
}
