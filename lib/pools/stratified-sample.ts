import { createRng } from "@/lib/rng";

/** MiSI-Bench(tiny) draws 50 items per task (spec §1); pools default to the same size. */
export const DEFAULT_ITEMS_PER_TASK = 50;
/** Upper bound on a per-task sample, so one request cannot ask for the whole release. */
export const MAX_ITEMS_PER_TASK = 5_000;

/** One item that may be drawn. `sortKey` must be stable across databases (e.g. the item's content hash). */
export interface SampleCandidate {
  id: string;
  taskId: string;
  sortKey: string;
}

export interface StratifiedSampleOptions {
  /** Tasks to draw from, in the order they should appear in the result. */
  tasks: readonly string[];
  perTask: number;
  seed: string;
}

export interface TaskShortfall {
  taskId: string;
  requested: number;
  available: number;
}

export interface StratifiedSample {
  /** Drawn item ids per task, in draw order. A task with fewer candidates than requested gets all of them. */
  byTask: Array<{ taskId: string; itemIds: string[]; available: number }>;
  /** Tasks with fewer candidates than `perTask` (empty when every task was filled). */
  shortfalls: TaskShortfall[];
  /** Total number of drawn items. */
  total: number;
}

/**
 * Draws `perTask` items per task, uniformly without replacement, reproducibly from `seed`.
 *
 * The result depends only on (seed, task, set of sort keys): candidates are sorted by `sortKey` first, so the
 * order rows come back from the database never matters, and each task uses its own forked stream, so adding or
 * removing a task does not change what another task draws. Draws are prefixes of one shuffle: the sample for
 * N = 60 contains the sample for N = 50 with the same seed.
 */
export function drawStratifiedSample(
  candidates: readonly SampleCandidate[],
  options: StratifiedSampleOptions,
): StratifiedSample {
  if (!Number.isInteger(options.perTask) || options.perTask < 1)
    throw new RangeError(`perTask must be a positive integer, got ${options.perTask}`);
  const byTaskCandidates = new Map<string, SampleCandidate[]>();
  for (const c of candidates) {
    const list = byTaskCandidates.get(c.taskId);
    if (list) list.push(c);
    else byTaskCandidates.set(c.taskId, [c]);
  }
  const root = createRng(options.seed);
  const byTask: StratifiedSample["byTask"] = [];
  const shortfalls: TaskShortfall[] = [];
  let total = 0;
  for (const taskId of new Set(options.tasks)) {
    const pool = (byTaskCandidates.get(taskId) ?? []).slice().sort((a, b) => compareKeys(a, b));
    const shuffled = root.fork(taskId).shuffle(pool);
    const itemIds = shuffled.slice(0, options.perTask).map((c) => c.id);
    byTask.push({ taskId, itemIds, available: pool.length });
    if (pool.length < options.perTask) shortfalls.push({ taskId, requested: options.perTask, available: pool.length });
    total += itemIds.length;
  }
  return { byTask, shortfalls, total };
}

// Ties on sortKey (duplicate hashes should not happen) fall back to the id so the order is still total.
function compareKeys(a: SampleCandidate, b: SampleCandidate): number {
  if (a.sortKey !== b.sortKey) return a.sortKey < b.sortKey ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A fresh human-typeable seed (recorded with the pool so the draw can be repeated). */
export function createSampleSeed(random: () => number = Math.random): string {
  const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
  let out = "";
  for (let i = 0; i < 10; i++) out += ALPHABET[Math.floor(random() * ALPHABET.length)] ?? "a";
  return out;
}
