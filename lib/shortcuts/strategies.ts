/**
 * Shortcut audit: knowledge-free strategies that answer an item without solving it, run on a task's items to tell
 * what an accuracy means (chance, and the best a rule of thumb reaches). A strategy reads only what its `needs`
 * names: option texts (MC keys), option poses (RMSD between the option images' atoms), polar atom distances
 * (T4/T9 coordinates) or the other items' answers (most-common answer). Several of those are server-side data (the
 * key, coordinates): strategies run on the server, in benches and in the generator; only aggregates leave.
 *
 * Each strategy gives, per item, an expected exact score in [0, 1] (a strategy that narrows the options to k
 * candidates and picks one of them at random is worth 1/k when the key is among them) and an expected partial
 * score (the task's paper rule), or null when it cannot run on the item (missing data).
 */
import { MC_LETTERS, type McLetter, type TaskId } from "@/lib/tasks/types";
import type { KeyOrigin } from "@/lib/tasks/chance";
import { getTask } from "@/lib/tasks/registry";
import { optionVector } from "@/lib/generate/mc-validity";

/** One pocket–ligand pair of polar (N/O) heavy atoms and their distance, with the names an answer uses. */
export interface PolarContact {
  residueName: string;
  residueNumber: number;
  insertionCode: string;
  chainId: string;
  atomName: string;
  ligandAtomName: string;
  distanceA: number;
}

/** What a strategy may read about one item. */
export interface ShortcutItem {
  taskId: TaskId;
  /** The task's gold (server-side). */
  gold: unknown;
  /** The gold's canonical answer text. */
  canonicalAnswer: string;
  /** Where the key was drawn from, for the chance level (lib/tasks/chance.ts); omitted: the spec's range. */
  keyOrigin?: KeyOrigin;
  /** MC option-image tasks: RMSD (Å) between the atoms of option images i and j, 4 × 4 in letter order. */
  optionPoseRmsd?: readonly (readonly number[])[];
  /** T4/T9: every polar pocket–ligand atom pair within 5 Å (T4: the question's residue only). */
  polarContacts?: readonly PolarContact[];
}

export interface ItemShortcutScore {
  exact: number;
  partial: number;
}

export type ShortcutNeed = "option-text" | "option-pose" | "polar-distance" | "answers";

export interface ShortcutStrategy {
  id: string;
  label: string;
  needs: ShortcutNeed;
  /** Whether the strategy applies to a task at all. */
  appliesTo(taskId: TaskId): boolean;
  /** Per-item expected scores (same order as `items`, all of one task); null where the item lacks the data. */
  run(items: readonly ShortcutItem[]): (ItemShortcutScore | null)[];
}

const EPS = 1e-9;
const MC_TASKS: ReadonlySet<TaskId> = new Set(["translation_rotation", "rotation_rotation", "interaction_location"]);
const POSE_TASKS: ReadonlySet<TaskId> = new Set(["translation_rotation", "rotation_rotation"]);
const HBOND_TASKS: ReadonlySet<TaskId> = new Set(["residue_ligand", "pocket_ligand"]);

interface McKey {
  options: string[];
  key: number;
}

function mcKeyOf(gold: unknown): McKey | null {
  const g = gold as { letter?: unknown; options?: unknown } | null;
  if (!g || typeof g.letter !== "string" || !Array.isArray(g.options) || g.options.length !== 4) return null;
  const key = MC_LETTERS.indexOf(g.letter as McLetter);
  if (key < 0 || !g.options.every((o) => typeof o === "string")) return null;
  return { options: g.options as string[], key };
}

/** Expected accuracy of picking uniformly among `candidates`; an empty or full set is a blind guess (1/4). */
function shareOf(candidates: readonly number[], key: number, n = 4): number {
  if (candidates.length === 0 || candidates.length === n) return 1 / n;
  return candidates.includes(key) ? 1 / candidates.length : 0;
}

function argExtreme(scores: readonly number[], largest: boolean): number[] {
  const best = largest ? Math.max(...scores) : Math.min(...scores);
  return scores.flatMap((s, i) => (Math.abs(s - best) < EPS ? [i] : []));
}

/** An option text as its commands in order: [{ key: "roll y", value: -45 }, …]; null when it is not a command list. */
function commandsOf(text: string): { key: string; value: number }[] | null {
  const out: { key: string; value: number }[] = [];
  for (const part of text.split(",")) {
    const m = /^\s*(move|roll)\s+([xyz])\s+([+-]?\d+(?:\.\d+)?)\s*$/i.exec(part);
    if (!m) return null;
    out.push({ key: `${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`, value: Number(m[3]) });
  }
  return out;
}

type Candidates = (options: readonly string[]) => number[] | null;

/** Options whose whole command list has an exact sign mirror among the options (same commands, same magnitudes, some signs flipped). */
const exactMirror: Candidates = (options) => {
  const vs = options.map(optionVector);
  if (vs.some((v) => v === null)) return null;
  const vectors = vs as Map<string, number>[];
  const mirrors = (a: Map<string, number>, b: Map<string, number>) => {
    if (a.size !== b.size) return false;
    let differs = false;
    for (const [k, v] of a) {
      const w = b.get(k);
      if (w === undefined || Math.abs(Math.abs(v) - Math.abs(w)) > EPS) return false;
      if (Math.abs(v - w) > EPS) differs = true;
    }
    return differs;
  };
  return vectors.flatMap((v, i) => (vectors.some((w, j) => j !== i && mirrors(v, w)) ? [i] : []));
};

/** Options with a partner that shows one of its commands (same slot, kind and axis) with the opposite sign: T5/T6's scheme (b) flips the first command only. */
const slotMirror: Candidates = (options) => {
  const cs = options.map(commandsOf);
  if (cs.some((c) => c === null)) return null;
  const lists = cs as { key: string; value: number }[][];
  return lists.flatMap((a, i) =>
    lists.some(
      (b, j) =>
        j !== i &&
        a.some(
          (c, k) => b[k] !== undefined && b[k]!.key === c.key && c.value !== 0 && Math.abs(b[k]!.value + c.value) < EPS,
        ),
    )
      ? [i]
      : [],
  );
};

/**
 * Options with both partners of the paper's T5/T6 recipe in their first command: one with its sign flipped (scheme b)
 * and one with the same value on another axis (scheme c). Only the key has both.
 */
const signAndAxisPartners: Candidates = (options) => {
  const cs = options.map(commandsOf);
  if (cs.some((c) => c === null)) return null;
  const firsts = (cs as { key: string; value: number }[][]).map((c) => {
    const [kind, axis] = c[0]!.key.split(" ");
    return { kind: kind!, axis: axis!, value: c[0]!.value };
  });
  const has = (i: number, rel: (a: (typeof firsts)[number], b: (typeof firsts)[number]) => boolean) =>
    firsts.some((b, j) => j !== i && rel(firsts[i]!, b));
  return firsts.flatMap((_, i) =>
    has(i, (a, b) => a.kind === b.kind && a.axis === b.axis && a.value !== 0 && Math.abs(a.value + b.value) < EPS) &&
    has(i, (a, b) => a.kind === b.kind && a.axis !== b.axis && Math.abs(a.value - b.value) < EPS)
      ? [i]
      : [],
  );
};

/** Options whose rotation magnitude (their last `roll`) appears in no other option: the paper's distractors all change it. */
const uniqueAngle: Candidates = (options) => {
  const cs = options.map(commandsOf);
  if (cs.some((c) => c === null)) return null;
  const angles = (cs as { key: string; value: number }[][]).map((c) => {
    const rolls = c.filter((x) => x.key.startsWith("roll"));
    return rolls.length === 0 ? null : Math.abs(rolls[rolls.length - 1]!.value);
  });
  if (angles.some((a) => a === null)) return null;
  return angles.flatMap((a, i) => (angles.filter((b) => Math.abs(b! - a!) < EPS).length === 1 ? [i] : []));
};

/** Options closest (L1 over command values) to the per-command median of the four. */
const medianOption: Candidates = (options) => {
  const vs = options.map(optionVector);
  if (vs.some((v) => v === null)) return null;
  const vectors = vs as Map<string, number>[];
  const keys = [...new Set(vectors.flatMap((v) => [...v.keys()]))];
  const median = new Map(
    keys.map((k) => {
      const xs = vectors.map((v) => v.get(k) ?? 0).sort((a, b) => a - b);
      return [k, (xs[1]! + xs[2]!) / 2] as const;
    }),
  );
  return argExtreme(
    vectors.map((v) => keys.reduce((s, k) => s + Math.abs((v.get(k) ?? 0) - median.get(k)!), 0)),
    false,
  );
};

/** Options farthest (summed L1 over command values) from the other three. */
const oddOneOut: Candidates = (options) => {
  const vs = options.map(optionVector);
  if (vs.some((v) => v === null)) return null;
  const vectors = vs as Map<string, number>[];
  const keys = [...new Set(vectors.flatMap((v) => [...v.keys()]))];
  const l1 = (a: Map<string, number>, b: Map<string, number>) =>
    keys.reduce((s, k) => s + Math.abs((a.get(k) ?? 0) - (b.get(k) ?? 0)), 0);
  return argExtreme(
    vectors.map((v, i) => vectors.reduce((s, w, j) => (j === i ? s : s + l1(v, w)), 0)),
    true,
  );
};

/** An option's size: a norm of its command values (all commands, in order; Å and degrees alike). */
type OptionNorm = (values: readonly number[]) => number;
const NORMS: Readonly<Record<"l1" | "max" | "euclid", { label: string; norm: OptionNorm }>> = {
  l1: { label: "|dx|+|dy|", norm: (vs) => vs.reduce((s, v) => s + Math.abs(v), 0) },
  max: { label: "max(|dx|,|dy|)", norm: (vs) => Math.max(0, ...vs.map(Math.abs)) },
  euclid: { label: "Euclidean length", norm: (vs) => Math.hypot(...vs) },
};

/**
 * Options with the smallest (or largest) size: "the true move is the short one" (a distractor that only ever grows a
 * magnitude, or a zero that is never a distractor's value, gives it away).
 */
function bySize(norm: OptionNorm, largest: boolean): Candidates {
  return (options) => {
    const cs = options.map(commandsOf);
    if (cs.some((c) => c === null)) return null;
    return argExtreme(
      (cs as { key: string; value: number }[][]).map((c) => norm(c.map((x) => x.value))),
      largest,
    );
  };
}

/** Options sharing the most command values (slot by slot) with the other options: the "centre" of the paper's perturbations. */
const mostShared: Candidates = (options) => {
  const cs = options.map(commandsOf);
  if (cs.some((c) => c === null)) return null;
  const lists = cs as { key: string; value: number }[][];
  const shared = lists.map((a, i) =>
    lists.reduce(
      (s, b, j) =>
        j === i
          ? s
          : s +
            a.filter((c, k) => b[k] !== undefined && b[k]!.key === c.key).length +
            a.filter((c, k) => b[k] !== undefined && Math.abs(Math.abs(b[k]!.value) - Math.abs(c.value)) < EPS).length,
      0,
    ),
  );
  return argExtreme(shared, true);
};

/** Narrow by `first`, then by `second` within it (when that leaves someone); either alone when the other says nothing. */
function both(first: Candidates, second: Candidates): Candidates {
  return (options) => {
    const a = first(options);
    const b = second(options);
    if (a === null || b === null) return null;
    const aUseful = a.length > 0 && a.length < options.length;
    const bUseful = b.length > 0 && b.length < options.length;
    if (!aUseful) return b;
    if (!bUseful) return a;
    const inBoth = a.filter((i) => b.includes(i));
    return inBoth.length > 0 ? inBoth : a;
  };
}

function optionTextStrategy(id: string, label: string, candidates: Candidates): ShortcutStrategy {
  return {
    id,
    label,
    needs: "option-text",
    appliesTo: (taskId) => MC_TASKS.has(taskId),
    run: (items) =>
      items.map((item) => {
        const mc = mcKeyOf(item.gold);
        const c = mc && candidates(mc.options);
        if (!mc || !c) return null;
        const s = shareOf(c, mc.key);
        return { exact: s, partial: s };
      }),
  };
}

/** `pick` chooses among `allowed` option indices by their rows of the 4 × 4 RMSD matrix. */
type PosePick = (rmsd: readonly (readonly number[])[], allowed: readonly number[]) => number[];

function poseStrategy(id: string, label: string, pick: PosePick, text?: Candidates): ShortcutStrategy {
  return {
    id,
    label,
    needs: "option-pose",
    appliesTo: (taskId) => POSE_TASKS.has(taskId),
    run: (items) =>
      items.map((item) => {
        const mc = mcKeyOf(item.gold);
        const m = item.optionPoseRmsd;
        if (!mc || !m || m.length !== 4 || m.some((row) => row.length !== 4)) return null;
        // With a text rule, the pose rule chooses among the options the text rule leaves (all four when it says nothing).
        const t = text ? text(mc.options) : null;
        const allowed = t && t.length > 0 && t.length < 4 ? t : [0, 1, 2, 3];
        const s = shareOf(pick(m, allowed), mc.key);
        return { exact: s, partial: s };
      }),
  };
}

const sumsOf = (m: readonly (readonly number[])[]) =>
  m.map((row, i) => row.reduce((s, d, j) => (j === i ? s : s + d), 0));
const nearestOf = (m: readonly (readonly number[])[]) => m.map((row, i) => Math.min(...row.filter((_, j) => j !== i)));
/** The allowed options with the largest (or smallest) score. */
function extremeAmong(scores: readonly number[], allowed: readonly number[], largest: boolean): number[] {
  const picked = argExtreme(
    allowed.map((i) => scores[i]!),
    largest,
  );
  return picked.map((k) => allowed[k]!);
}

/** A task's answer scored as the task scores it; null when the text does not parse. */
function scoreText(taskId: TaskId, text: string, gold: unknown): ItemShortcutScore | null {
  const task = getTask(taskId);
  const parsed = task.parseAnswer(text);
  if (!parsed.ok) return null;
  const score = (task.score as (a: unknown, g: unknown) => { exact: number; partial: number })(parsed.value, gold);
  return { exact: score.exact, partial: score.partial };
}

/**
 * List every polar pair within `thresholdA` (T4: `Yes: RES atom, lig; …` on the one residue, T9: the full form);
 * none within it answers "No". A participant could apply it from the images with a ruler.
 */
function polarDistanceStrategy(thresholdA: number): ShortcutStrategy {
  return {
    id: `polar-${thresholdA.toFixed(1)}A`,
    label: `every N/O pair within ${thresholdA.toFixed(1)} Å`,
    needs: "polar-distance",
    appliesTo: (taskId) => HBOND_TASKS.has(taskId),
    run: (items) =>
      items.map((item) => {
        if (!item.polarContacts) return null;
        const close = item.polarContacts.filter((c) => c.distanceA <= thresholdA + EPS);
        const text =
          close.length === 0
            ? "No"
            : item.taskId === "residue_ligand"
              ? `Yes: ${close.map((c) => `${c.residueName} ${c.atomName}, ${c.ligandAtomName}`).join("; ")}`
              : close
                  .map(
                    (c) =>
                      `${c.residueName} ${c.residueNumber}${c.insertionCode} ${c.atomName} ${c.chainId}, ${c.ligandAtomName}`,
                  )
                  .join("; ");
        return scoreText(item.taskId, text, item.gold);
      }),
  };
}

/**
 * Always give the most common answer among the task's OTHER items (leave-one-out, so an item's own key never helps);
 * ties go to the first answer in canonical-text order, so the strategy gives one answer per item.
 */
const mostCommonAnswer: ShortcutStrategy = {
  id: "most-common-answer",
  label: "most common answer of the other items",
  needs: "answers",
  appliesTo: (taskId) => !MC_TASKS.has(taskId),
  run: (items) => {
    const counts = new Map<string, number>();
    for (const item of items) counts.set(item.canonicalAnswer, (counts.get(item.canonicalAnswer) ?? 0) + 1);
    const ranked = [...counts].sort(([a, ca], [b, cb]) => cb - ca || (a < b ? -1 : a > b ? 1 : 0));
    return items.map((item) => {
      // The mode without this item: the top answer, unless it is this item's own and the runner-up now ties or leads it.
      const [top, second] = ranked;
      if (!top) return null;
      let mode = top[0];
      if (top[0] === item.canonicalAnswer) {
        if (top[1] - 1 === 0 && !second) return null;
        if (second && (second[1] > top[1] - 1 || (second[1] === top[1] - 1 && second[0] < top[0]))) mode = second[0];
      }
      return scoreText(item.taskId, mode, item.gold);
    });
  },
};

export const SHORTCUT_STRATEGIES: readonly ShortcutStrategy[] = [
  optionTextStrategy("sign-mirror", "option with an exact sign mirror", exactMirror),
  optionTextStrategy("slot-mirror", "option with a one-command sign mirror", slotMirror),
  optionTextStrategy("unique-angle", "option whose angle no other option has", uniqueAngle),
  optionTextStrategy(
    "sign-and-axis-partners",
    "option with a sign-flipped and a same-value-other-axis partner",
    signAndAxisPartners,
  ),
  optionTextStrategy("median", "option closest to the options' median", medianOption),
  optionTextStrategy("odd-one-out", "option farthest from the others (text)", oddOneOut),
  optionTextStrategy("most-shared", "option sharing most values with the others", mostShared),
  ...(["l1", "max", "euclid"] as const).flatMap((k) => [
    optionTextStrategy(`smallest-${k}`, `option with the smallest ${NORMS[k].label}`, bySize(NORMS[k].norm, false)),
    optionTextStrategy(`largest-${k}`, `option with the largest ${NORMS[k].label}`, bySize(NORMS[k].norm, true)),
  ]),
  optionTextStrategy(
    "slot-mirror+unique-angle",
    "one-command mirror, then unique angle",
    both(slotMirror, uniqueAngle),
  ),
  optionTextStrategy("sign-mirror+unique-angle", "exact mirror, then unique angle", both(exactMirror, uniqueAngle)),
  optionTextStrategy("unique-angle+median", "unique angle, then median", both(uniqueAngle, medianOption)),
  optionTextStrategy("unique-angle+most-shared", "unique angle, then most shared", both(uniqueAngle, mostShared)),
  poseStrategy("farthest-pose", "option pose farthest from the other three (3D)", (m, allowed) =>
    extremeAmong(sumsOf(m), allowed, true),
  ),
  poseStrategy("closest-pose", "option pose closest to the other three (3D)", (m, allowed) =>
    extremeAmong(sumsOf(m), allowed, false),
  ),
  poseStrategy("not-farthest-pose", "any option pose but the farthest from the others (3D)", (m, allowed) => {
    const far = extremeAmong(sumsOf(m), allowed, true);
    return allowed.filter((i) => !far.includes(i));
  }),
  poseStrategy("isolated-pose", "option pose with the farthest nearest neighbour (3D)", (m, allowed) =>
    extremeAmong(nearestOf(m), allowed, true),
  ),
  poseStrategy(
    "farthest-pose+unique-angle",
    "farthest pose among unique-angle options",
    (m, allowed) => extremeAmong(sumsOf(m), allowed, true),
    uniqueAngle,
  ),
  polarDistanceStrategy(3.2),
  polarDistanceStrategy(3.5),
  mostCommonAnswer,
];
