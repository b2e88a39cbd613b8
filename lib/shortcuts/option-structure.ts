/**
 * Option-set structure: what a test-taker (or a model given the option texts) can read from how the four options
 * relate to each other, without knowing anything about the complex. Two attackers:
 *
 * - Structure rules: for every command slot, partners under the tasks' symmetries (the same command with its sign
 *   flipped, the same value on another axis, the same value, the same magnitude, the same axis, the same sign) and
 *   odd-one-out (or most common) by any field (kind, axis, sign, magnitude, value of a slot). A rule narrows the
 *   options to the ones with the most (fewest, any) partners of a kind, with partners of two kinds, or with a unique
 *   (most common) field value.
 * - A learned attacker: a conditional logit (softmax over the four options, one shared weight vector) over option-only
 *   features of each option within its set, trained on items from some complexes and tested on items from others.
 *
 * Both read only the option texts and the key of the training items; only accuracies come out.
 */
import { MC_LETTERS, type McLetter, type TaskId } from "@/lib/tasks/types";
import type { ItemShortcutScore, ShortcutItem, ShortcutStrategy } from "./strategies";

const EPS = 1e-9;
const OPTION_TASKS: ReadonlySet<TaskId> = new Set([
  "translation_rotation",
  "rotation_rotation",
  "interaction_location",
]);

/** One command of an option text: "roll y -45" → { kind: "roll", axis: "y", value: -45 }. */
export interface OptionCommand {
  kind: string;
  axis: string;
  value: number;
}

/** An option text as its commands in order; null when it is not a command list. */
export function parseOptionCommands(text: string): OptionCommand[] | null {
  const out: OptionCommand[] = [];
  for (const part of text.split(",")) {
    const m = /^\s*(move|roll)\s+([xyz])\s+([+-]?\d+(?:\.\d+)?)\s*$/i.exec(part);
    if (!m) return null;
    out.push({ kind: m[1]!.toLowerCase(), axis: m[2]!.toLowerCase(), value: Number(m[3]) });
  }
  return out;
}

/** Four parsed options with the same number of commands, and the key's index; null for any other item. */
export function optionSetOf(item: ShortcutItem): { options: OptionCommand[][]; key: number } | null {
  const g = item.gold as { letter?: unknown; options?: unknown } | null;
  if (!g || typeof g.letter !== "string" || !Array.isArray(g.options) || g.options.length !== 4) return null;
  const key = MC_LETTERS.indexOf(g.letter as McLetter);
  if (key < 0) return null;
  const options = g.options.map((o) => (typeof o === "string" ? parseOptionCommands(o) : null));
  if (options.some((o) => o === null)) return null;
  const parsed = options as OptionCommand[][];
  if (parsed.some((o) => o.length !== parsed[0]!.length)) return null;
  return { options: parsed, key };
}

type Relation = (a: OptionCommand, b: OptionCommand) => boolean;

/** Pair relations of one slot's commands: the symmetries the paper's and the balanced distractors use, and plain sharing. */
const RELATIONS: Readonly<Record<string, Relation>> = {
  "sign-flip": (a, b) => a.kind === b.kind && a.axis === b.axis && a.value !== 0 && Math.abs(a.value + b.value) < EPS,
  "other-axis": (a, b) => a.kind === b.kind && a.axis !== b.axis && Math.abs(a.value - b.value) < EPS,
  "same-value": (a, b) => Math.abs(a.value - b.value) < EPS,
  "same-magnitude": (a, b) => Math.abs(Math.abs(a.value) - Math.abs(b.value)) < EPS,
  "same-axis": (a, b) => a.axis === b.axis,
  "same-sign": (a, b) => Math.sign(a.value) === Math.sign(b.value),
};

/** Fields of one slot's command an odd-one-out rule may read. */
const FIELDS: Readonly<Record<string, (c: OptionCommand) => string>> = {
  kind: (c) => c.kind,
  axis: (c) => c.axis,
  sign: (c) => String(Math.sign(c.value)),
  magnitude: (c) => String(Math.abs(c.value)),
  value: (c) => String(c.value),
};

/** Per option: how many of the other three are its partners under `relation` in `slot`. */
function partnerCounts(options: readonly OptionCommand[][], slot: number, relation: Relation): number[] {
  return options.map((a, i) => options.reduce((n, b, j) => (j !== i && relation(a[slot]!, b[slot]!) ? n + 1 : n), 0));
}

/** Per option: how many of the four (itself included) share its value of `field` in `slot`. */
function fieldFrequency(
  options: readonly OptionCommand[][],
  slot: number,
  field: (c: OptionCommand) => string,
): number[] {
  const values = options.map((o) => field(o[slot]!));
  return values.map((v) => values.filter((w) => w === v).length);
}

type Pick = (options: readonly OptionCommand[][]) => number[];

const argExtreme = (scores: readonly number[], largest: boolean): number[] => {
  const best = largest ? Math.max(...scores) : Math.min(...scores);
  return scores.flatMap((s, i) => (Math.abs(s - best) < EPS ? [i] : []));
};

/** Expected accuracy of picking uniformly among `candidates`; none or all of them is a blind guess. */
function shareOf(candidates: readonly number[], key: number): number {
  if (candidates.length === 0 || candidates.length === 4) return 0.25;
  return candidates.includes(key) ? 1 / candidates.length : 0;
}

/** A structure rule: an option-text strategy for T5, T6 and T8 (the slots it reads must exist). */
function structureRule(id: string, label: string, pick: Pick, slotsNeeded: number): ShortcutStrategy {
  return {
    id,
    label,
    needs: "option-text",
    appliesTo: (taskId) => OPTION_TASKS.has(taskId),
    run: (items) =>
      items.map((item): ItemShortcutScore | null => {
        const set = optionSetOf(item);
        if (!set || set.options[0]!.length < slotsNeeded) return null;
        const s = shareOf(pick(set.options), set.key);
        return { exact: s, partial: s };
      }),
  };
}

const SLOTS = [0, 1] as const;
const slotName = (slot: number) => (slot === 0 ? "first" : "second");

function buildStructureRules(): ShortcutStrategy[] {
  const rules: ShortcutStrategy[] = [];
  const relationIds = SLOTS.flatMap((slot) => Object.keys(RELATIONS).map((r) => ({ slot, r })));
  for (const { slot, r } of relationIds) {
    const counts = (o: readonly OptionCommand[][]) => partnerCounts(o, slot, RELATIONS[r]!);
    const tag = `${r}@${slotName(slot)}`;
    rules.push(
      structureRule(
        `most-${tag}`,
        `option with the most ${r} partners in its ${slotName(slot)} command`,
        (o) => argExtreme(counts(o), true),
        slot + 1,
      ),
    );
    rules.push(
      structureRule(
        `fewest-${tag}`,
        `option with the fewest ${r} partners in its ${slotName(slot)} command`,
        (o) => argExtreme(counts(o), false),
        slot + 1,
      ),
    );
  }
  // Both kinds of partner (e.g. the paper's T5/T6 key: a sign-flipped partner and a same-value-other-axis partner).
  for (let a = 0; a < relationIds.length; a++) {
    for (let b = a; b < relationIds.length; b++) {
      const x = relationIds[a]!;
      const y = relationIds[b]!;
      const needs = Math.max(x.slot, y.slot) + 1;
      rules.push(
        structureRule(
          a === b ? `has-${x.r}@${slotName(x.slot)}` : `has-${x.r}@${slotName(x.slot)}+${y.r}@${slotName(y.slot)}`,
          a === b
            ? `option with a ${x.r} partner in its ${slotName(x.slot)} command`
            : `option with a ${x.r} partner (${slotName(x.slot)}) and a ${y.r} partner (${slotName(y.slot)})`,
          (o) => {
            const cx = partnerCounts(o, x.slot, RELATIONS[x.r]!);
            const cy = partnerCounts(o, y.slot, RELATIONS[y.r]!);
            return cx.flatMap((n, i) => (n > 0 && cy[i]! > 0 ? [i] : []));
          },
          needs,
        ),
      );
    }
  }
  for (const slot of SLOTS) {
    for (const [f, field] of Object.entries(FIELDS)) {
      const freq = (o: readonly OptionCommand[][]) => fieldFrequency(o, slot, field);
      rules.push(
        structureRule(
          `odd-${f}@${slotName(slot)}`,
          `option whose ${slotName(slot)} ${f} no other option has`,
          (o) => freq(o).flatMap((n, i) => (n === 1 ? [i] : [])),
          slot + 1,
        ),
      );
      rules.push(
        structureRule(
          `common-${f}@${slotName(slot)}`,
          `option whose ${slotName(slot)} ${f} is the most common`,
          (o) => argExtreme(freq(o), true),
          slot + 1,
        ),
      );
    }
  }
  return rules;
}

/** Every structure rule (about 130): pick the best on one set of complexes and measure it on another. */
export const OPTION_STRUCTURE_RULES: readonly ShortcutStrategy[] = buildStructureRules();

/** Mean exact score of `strategy` over the items it can run on (null: none). */
export function meanExact(
  strategy: ShortcutStrategy,
  items: readonly ShortcutItem[],
): { exact: number; n: number } | null {
  const scores = strategy.run(items).filter((s) => s !== null);
  if (scores.length === 0) return null;
  return { exact: scores.reduce((s, x) => s + x.exact, 0) / scores.length, n: scores.length };
}

/** The strategy with the highest mean exact score on `items` (ties: the first listed). */
export function selectBestStrategy(
  strategies: readonly ShortcutStrategy[],
  items: readonly ShortcutItem[],
): ShortcutStrategy | null {
  let best: { s: ShortcutStrategy; exact: number } | null = null;
  for (const s of strategies) {
    if (!items.some((i) => s.appliesTo(i.taskId))) continue;
    const m = meanExact(s, items);
    if (m && (best === null || m.exact > best.exact + 1e-12)) best = { s, exact: m.exact };
  }
  return best?.s ?? null;
}

// ── Learned attacker ─────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Option-only features of each option within its set (the same for any order of the options): its partner counts
 * under every relation and slot, its field frequencies, and its size (L1, max) and distances to the others, each
 * relative to the set. Equal options get equal features, so a set keyed uniformly among its members is at chance.
 */
export function optionFeatures(options: readonly OptionCommand[][]): number[][] {
  const slots = options[0]!.length;
  const perOption: number[][] = options.map(() => []);
  const push = (column: readonly number[]) => column.forEach((x, i) => perOption[i]!.push(x));
  for (let slot = 0; slot < Math.min(slots, 2); slot++) {
    for (const relation of Object.values(RELATIONS)) push(partnerCounts(options, slot, relation).map((n) => n / 3));
    for (const field of Object.values(FIELDS)) push(fieldFrequency(options, slot, field).map((n) => (n === 1 ? 1 : 0)));
    const mags = options.map((o) => Math.abs(o[slot]!.value));
    const top = Math.max(...mags, EPS);
    push(mags.map((m) => m / top));
    push(mags.map((m) => mags.filter((x) => x < m - EPS).length / 3));
  }
  const l1 = options.map((o) => o.reduce((s, c) => s + Math.abs(c.value), 0));
  const top = Math.max(...l1, EPS);
  push(l1.map((x) => x / top));
  push(l1.map((x) => l1.filter((y) => y < x - EPS).length / 3));
  const dist = options.map((a, i) =>
    options.reduce(
      (s, b, j) =>
        j === i
          ? s
          : s + a.reduce((t, c, k) => t + Math.abs(c.value - b[k]!.value) + (c.axis === b[k]!.axis ? 0 : 1), 0),
      0,
    ),
  );
  const far = Math.max(...dist, EPS);
  push(dist.map((d) => d / far));
  return perOption;
}

export interface AttackerModel {
  weights: number[];
}

interface Example {
  features: number[][];
  key: number;
}

function examplesOf(items: readonly ShortcutItem[]): Example[] {
  return items.flatMap((item) => {
    const set = optionSetOf(item);
    return set ? [{ features: optionFeatures(set.options), key: set.key }] : [];
  });
}

/** Fits the conditional logit by full-batch gradient ascent on the log-likelihood with an L2 penalty. */
export function trainAttacker(
  items: readonly ShortcutItem[],
  options: { epochs?: number; rate?: number; l2?: number } = {},
): AttackerModel | null {
  const data = examplesOf(items);
  if (data.length === 0) return null;
  const dims = data[0]!.features[0]!.length;
  const { epochs = 300, rate = 0.5, l2 = 1e-3 } = options;
  const w = new Array<number>(dims).fill(0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Array<number>(dims).fill(0);
    for (const ex of data) {
      if (ex.features[0]!.length !== dims) continue;
      const scores = ex.features.map((f) => f.reduce((s, x, d) => s + x * w[d]!, 0));
      const max = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - max));
      const z = exp.reduce((a, b) => a + b, 0);
      ex.features.forEach((f, i) => {
        const coef = (i === ex.key ? 1 : 0) - exp[i]! / z;
        f.forEach((x, d) => (grad[d]! += coef * x));
      });
    }
    for (let d = 0; d < dims; d++) w[d]! += rate * (grad[d]! / data.length - l2 * w[d]!);
  }
  return { weights: w };
}

/** Per item: the expected exact score of answering the options the model scores highest (ties: a coin). */
export function scoreAttacker(model: AttackerModel, items: readonly ShortcutItem[]): number[] {
  return examplesOf(items).map((ex) => {
    if (ex.features[0]!.length !== model.weights.length) return 0.25;
    const scores = ex.features.map((f) => f.reduce((s, x, d) => s + x * model.weights[d]!, 0));
    return shareOf(argExtreme(scores, true), ex.key);
  });
}

export interface HeldOutResult {
  /** Mean exact score over every test item of every fold. */
  exact: number;
  /** Test items scored. */
  n: number;
}

/**
 * Cross-validation over complex groups: each fold is trained on the items of the other groups and tested on its own
 * (items of one complex never fall on both sides). `fit` learns from the training items and returns a per-item scorer.
 */
export function crossValidate(
  folds: readonly (readonly ShortcutItem[])[],
  fit: (train: readonly ShortcutItem[]) => ((test: readonly ShortcutItem[]) => number[]) | null,
): HeldOutResult | null {
  let sum = 0;
  let n = 0;
  folds.forEach((test, k) => {
    const train = folds.flatMap((f, j) => (j === k ? [] : f));
    const scorer = fit(train);
    if (!scorer) return;
    const scores = scorer(test);
    sum += scores.reduce((a, b) => a + b, 0);
    n += scores.length;
  });
  return n === 0 ? null : { exact: sum / n, n };
}

/** The learned attacker, cross-validated over complex groups. */
export function crossValidateAttacker(folds: readonly (readonly ShortcutItem[])[]): HeldOutResult | null {
  return crossValidate(folds, (train) => {
    const model = trainAttacker(train);
    return model ? (test) => scoreAttacker(model, test) : null;
  });
}

/** The best of `strategies` chosen on the training folds, measured on the held-out fold. */
export function crossValidateBestRule(
  folds: readonly (readonly ShortcutItem[])[],
  strategies: readonly ShortcutStrategy[],
): HeldOutResult | null {
  return crossValidate(folds, (train) => {
    const best = selectBestStrategy(strategies, train);
    return best ? (test) => best.run(test).map((s) => s?.exact ?? 0.25) : null;
  });
}
