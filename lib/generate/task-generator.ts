/**
 * The shape of a per-task generator, and the helpers they share (planning which complexes each item
 * uses, view construction, value draws).
 */
import { z } from "zod";
import { CANONICAL_VIEW_NAMES, type CanonicalViewName, type ViewCommand } from "@/lib/molecule/geometry/commands";
import type { Vec3 } from "@/lib/molecule/geometry/vec3";
import type { RenderSettings } from "@/lib/render/settings";
import type { Rng } from "@/lib/rng";
import type { TaskId } from "@/lib/tasks/types";
import type { DistractorRecord, GeneratorComplex, ItemView, ViewCamera, ViewContent } from "./types";

export interface GeneratorContext {
  settings: RenderSettings;
}

/** Which complexes one item uses, plus a task-specific variant (T4: "pos:<residue id>", T8: a bond index). */
export interface PlannedItem {
  complexes: GeneratorComplex[];
  variant?: string;
  /** MC tasks: the position (0–3 = A–D) of the right option; set by generateItems so a task's letters are balanced. */
  answerSlot?: number;
}

export interface PlanResult {
  items: PlannedItem[];
  /** Why the plan deviates from what was asked (e.g. no complex with a bond for a T4 Pos. item). */
  notes: string[];
}

/** What a generator returns; generateItems adds ids, question text, canonical gold and provenance. */
export interface ItemDraft {
  fields: Record<string, unknown>;
  gold: unknown;
  views: ItemView[];
  distractors?: DistractorRecord[];
  notes?: string[];
}

export interface TaskGenerator<P extends Record<string, unknown>> {
  taskId: TaskId;
  /** zod with defaults for every knob (so `{}` is valid). */
  paramsSchema: z.ZodType<P, unknown>;
  /** Why a complex cannot serve this task, or null. */
  checkComplex(complex: GeneratorComplex, params: P): string | null;
  /** Generator options beyond the paper's recipe that `params` switch on (recorded in every item's provenance); none by default. */
  optionsInForce?(params: P): string[];
  /** Assigns complexes to `count` items (default: one complex per item, cycling a shuffled list). */
  plan?(eligible: readonly GeneratorComplex[], count: number, rng: Rng, params: P): PlanResult;
  generate(item: PlannedItem, params: P, rng: Rng, context: GeneratorContext): ItemDraft;
}

type Params = Record<string, unknown>;

/** Type-erased generator for the registry (each one validates its own params first). */
export interface ErasedTaskGenerator {
  taskId: TaskId;
  resolveParams(raw: unknown): { ok: true; params: Params } | { ok: false; error: string };
  checkComplex(complex: GeneratorComplex, params: Params): string | null;
  optionsInForce(params: Params): string[];
  plan(eligible: readonly GeneratorComplex[], count: number, rng: Rng, params: Params): PlanResult;
  generate(item: PlannedItem, params: Params, rng: Rng, context: GeneratorContext): ItemDraft;
}

export function defineGenerator<P extends Params>(generator: TaskGenerator<P>): ErasedTaskGenerator {
  return {
    taskId: generator.taskId,
    resolveParams(raw) {
      const parsed = generator.paramsSchema.safeParse(raw ?? {});
      if (!parsed.success)
        return {
          ok: false,
          error: `invalid generator params for ${generator.taskId}: ${z.prettifyError(parsed.error)}`,
        };
      return { ok: true, params: parsed.data };
    },
    checkComplex: (complex, params) => generator.checkComplex(complex, params as P),
    optionsInForce: (params) => generator.optionsInForce?.(params as P) ?? [],
    plan: (eligible, count, rng, params) =>
      (generator.plan ?? planOneComplexPerItem)(eligible, count, rng, params as P),
    generate: (item, params, rng, context) => generator.generate(item, params as P, rng, context),
  };
}

/** Item i uses the (i mod n)-th complex of a shuffled list: every complex is used before any repeats. */
export function planOneComplexPerItem(eligible: readonly GeneratorComplex[], count: number, rng: Rng): PlanResult {
  if (eligible.length === 0) return { items: [], notes: ["no eligible complex"] };
  const order = rng.shuffle(eligible);
  return { items: Array.from({ length: count }, (_, i) => ({ complexes: [order[i % order.length]!] })), notes: [] };
}

/**
 * Spreads items over complexes and their options (T4 residues, T8 bonds): complexes in shuffled
 * order, each complex's options shuffled, one option per complex per round, until `count` items or
 * every option is used. So no (complex, option) pair repeats and every complex is used early.
 */
export function planRoundRobin(
  groups: readonly { complex: GeneratorComplex; options: readonly string[] }[],
  count: number,
  rng: Rng,
): PlannedItem[] {
  const queues = rng
    .shuffle(groups.filter((g) => g.options.length > 0))
    .map((g) => ({ complex: g.complex, options: rng.shuffle(g.options) }));
  const items: PlannedItem[] = [];
  for (let round = 0; items.length < count; round++) {
    let took = false;
    for (const q of queues) {
      if (items.length >= count) break;
      const option = q.options[round];
      if (option === undefined) continue;
      items.push({ complexes: [q.complex], variant: option });
      took = true;
    }
    if (!took) break;
  }
  return items;
}

/** A balanced, shuffled sequence of answer positions 0–3 (each used ⌊n/4⌋ or ⌈n/4⌉ times). */
export function planAnswerSlots(count: number, rng: Rng): number[] {
  const start = rng.int(0, 3);
  return rng.shuffle(Array.from({ length: count }, (_, i) => (start + i) % 4));
}

/** The planned item's complex at `index`; a missing one is a planning bug. */
export function requireComplex(item: PlannedItem, index = 0): GeneratorComplex {
  const complex = item.complexes[index];
  if (!complex) throw new Error(`planned item has no complex #${index}`);
  return complex;
}

export interface ViewBase {
  source?: number;
  content: ViewContent;
  residueId?: string;
  residueAtomLabels?: boolean;
  viewCentre: Vec3;
  camera: ViewCamera;
  ligandCommands?: readonly ViewCommand[];
  modelCommands?: readonly ViewCommand[];
}

export function makeView(base: ViewBase, view: CanonicalViewName, caption: string): ItemView {
  return {
    caption,
    source: base.source ?? 0,
    content: base.content,
    ...(base.residueId !== undefined ? { residueId: base.residueId } : {}),
    ...(base.residueAtomLabels === true ? { residueAtomLabels: true } : {}),
    view,
    viewCentre: base.viewCentre,
    ligandCommands: [...(base.ligandCommands ?? [])],
    modelCommands: [...(base.modelCommands ?? [])],
    camera: base.camera,
  };
}

/**
 * Canonical views numbered from `firstImage`: "Image 1: front view", or with a subject,
 * "Image 4: ligand, front view".
 */
export function makeCanonicalViews(
  base: ViewBase,
  views: readonly CanonicalViewName[],
  firstImage: number,
  subject?: string,
): ItemView[] {
  return views.map((v, i) => makeView(base, v, `Image ${firstImage + i}: ${subject ? `${subject}, ` : ""}${v} view`));
}

export const THREE_VIEWS: readonly CanonicalViewName[] = ["front", "left", "top"];
export const SIX_VIEWS: readonly CanonicalViewName[] = CANONICAL_VIEW_NAMES;

export { listGridValues } from "@/lib/tasks/grammar/command";

/** Picks one value, or throws with the knob names when the range is empty (bad params). */
export function pickValue(rng: Rng, values: readonly number[], what: string): number {
  if (values.length === 0) throw new Error(`no value to draw for ${what}: the configured range is empty`);
  return rng.pick(values);
}

export const AxisXYZSchema = z.enum(["x", "y", "z"]);
