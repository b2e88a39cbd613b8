/**
 * Item generation for the nine MiSI-Bench tasks: `generateItems` draws items from prepared complexes
 * (seeded, deterministic), `renderItemImages` renders an item's views to SVG or PNG.
 */
import { createHash } from "node:crypto";
import {
  type RenderSettings,
  type RenderSettingsInput,
  RENDER_SETTINGS_VERSION,
  parseRenderSettings,
} from "@/lib/render/settings";
import {
  type LabelChances,
  type LabelCoverage,
  type LabelOffsetMemory,
  type RenderSvgStats,
  countLabelChances,
  renderSvgWithStats,
} from "@/lib/render/svg";
import type { Scene } from "@/lib/render/scene";
import { renderPng } from "@/lib/render/png";
import { createRng, hashSeed } from "@/lib/rng";
import { getTask } from "@/lib/tasks/registry";
import { MC_LETTERS, type TaskId } from "@/lib/tasks/types";
import { GENERATORS } from "./registry";
import { requireViewScene } from "./scene";
import { type TaskShortcutAudit, auditShortcuts, byT4Polarity } from "@/lib/shortcuts/audit";
import { toShortcutItem } from "@/lib/shortcuts/from-generated";
import { type OptionTextReport, measureOptionTextStrategies } from "./mc-validity";
import { toStableJson } from "./stable-json";
import { type ItemDraft, type PlannedItem, planAnswerSlots } from "./task-generator";
import {
  GENERATOR_NAME,
  GENERATOR_VERSION,
  type GeneratedItem,
  type GeneratorComplex,
  type ItemProvenance,
  type ItemView,
} from "./types";

export * from "./types";
export {
  createGeneratorComplex,
  loadGeneratorComplex,
  type CreateGeneratorComplexInput,
  type CreateGeneratorComplexResult,
  type LoadGeneratorComplexInput,
} from "./complex";
export { buildViewScene, requireViewScene, toScene3d } from "./scene";
export { GENERATORS } from "./registry";
export { toStableJson } from "./stable-json";
export {
  OPTION_TEXT_STRATEGIES,
  type OptionTextReport,
  measureOptionTextStrategies,
  scoreOptionTextStrategies,
} from "./mc-validity";

/** Redraws of an item whose content repeats an earlier item of the same task (same complex, same answer). */
export const MAX_DUPLICATE_REDRAWS = 8;

export interface GenerateItemsOptions {
  complexes: readonly GeneratorComplex[];
  tasks: readonly TaskId[];
  perTask: number;
  /** Run seed; every item's seed is derived from it, the task and the item's index. */
  seed: string;
  /** Generator params per task (see each generator's paramsSchema); missing knobs take defaults. */
  params?: Partial<Record<TaskId, unknown>>;
  renderSettings?: RenderSettingsInput;
  /** Called after each item (for progress lines). */
  onProgress?: (progress: { taskId: TaskId; done: number; total: number }) => void;
}

export interface TaskReport {
  taskId: TaskId;
  requested: number;
  generated: number;
  eligibleComplexes: number;
  /** Complexes this task could not use, and why. */
  ineligible: { file: string; reason: string }[];
  /** Items not made, and why (duplicates that could not be redrawn, generator failures). */
  failures: { index: number; reason: string }[];
  notes: string[];
  /**
   * MC tasks only: expected accuracy of option-text-only strategies (sign-mirror, median-of-options,
   * odd-one-out) over this task's generated items (lib/generate/mc-validity.ts; chance 0.25).
   */
  optionTextStrategies?: OptionTextReport;
  /**
   * Shortcut audit over this task's generated items (lib/shortcuts): chance and the knowledge-free strategies'
   * accuracies with intervals, T4 split into Pos./Neg. (aggregates only; pose and polar-distance rules need the
   * coordinates only the generator has).
   */
  shortcuts?: TaskShortcutAudit[];
}

export type GenerateItemsResult =
  | { ok: true; items: GeneratedItem[]; reports: TaskReport[]; renderSettings: RenderSettings }
  | { ok: false; error: string };

/** "seed/task/index": the per-item seed recorded in provenance. */
export function deriveItemSeed(runSeed: string, taskId: TaskId, index: number): string {
  return `${runSeed}/${taskId}/${index}`;
}

function sourceOf(c: GeneratorComplex): ItemProvenance["structure"] {
  return {
    file: c.file,
    sha256: c.sha256,
    ligand: c.ligandLabel,
    ligandReason: c.prepared.ligand.reason,
    pdbId: c.pdbId,
    ...(c.ligandFile !== undefined ? { ligandFile: c.ligandFile } : {}),
    ...(c.ligandSha256 !== undefined ? { ligandSha256: c.ligandSha256 } : {}),
    ...(c.parseNotes !== undefined ? { parseNotes: [...c.parseNotes] } : {}),
  };
}

/**
 * What makes two items of a task the same question: fields without the display helpers (scene3d,
 * pickers, shown options) and the gold reduced to the true answer (not the distractor order).
 */
function identityOf(draft: ItemDraft): string {
  const { scene3d: _s, pickers: _p, options: _o, ...fields } = draft.fields;
  let gold = draft.gold;
  if (gold && typeof gold === "object" && "letter" in gold && "options" in gold) {
    const g = gold as { letter: (typeof MC_LETTERS)[number]; options: string[] };
    gold = g.options[MC_LETTERS.indexOf(g.letter)];
  }
  return toStableJson({ fields, gold, sources: draft.views.map((v) => v.source) });
}

/** Generates `perTask` items for each task (fewer when the complexes do not allow that many distinct items). */
export function generateItems(options: GenerateItemsOptions): GenerateItemsResult {
  if (!Number.isInteger(options.perTask) || options.perTask < 0)
    return { ok: false, error: `perTask must be a whole number ≥ 0, got ${options.perTask}` };
  const settingsResult = parseRenderSettings(options.renderSettings ?? {});
  if (!settingsResult.ok) return { ok: false, error: settingsResult.reason };
  const settings = settingsResult.settings;
  const context = { settings };

  const resolved = new Map<TaskId, Record<string, unknown>>();
  for (const taskId of options.tasks) {
    const r = GENERATORS[taskId].resolveParams(options.params?.[taskId]);
    if (!r.ok) return { ok: false, error: r.error };
    resolved.set(taskId, r.params);
  }

  const items: GeneratedItem[] = [];
  const reports: TaskReport[] = [];
  for (const taskId of options.tasks) {
    const generator = GENERATORS[taskId];
    const task = getTask(taskId);
    const params = resolved.get(taskId)!;
    const ineligible: TaskReport["ineligible"] = [];
    const eligible = options.complexes.filter((c) => {
      const reason = generator.checkComplex(c, params);
      if (reason !== null) ineligible.push({ file: c.file, reason });
      return reason === null;
    });
    const planRng = createRng(`${options.seed}/${taskId}/plan`);
    const plan = generator.plan(eligible, options.perTask, planRng, params);
    if (task.format === "mc") {
      // Balanced answer letters: with 50 items a free draw can put twice the expected share on one letter.
      const slots = planAnswerSlots(plan.items.length, planRng.fork("answer-slots"));
      plan.items.forEach((item, i) => (item.answerSlot = slots[i]));
    }
    const report: TaskReport = {
      taskId,
      requested: options.perTask,
      generated: 0,
      eligibleComplexes: eligible.length,
      ineligible,
      failures: [],
      notes: [...plan.notes],
    };
    const seen = new Set<string>();
    plan.items.forEach((planned: PlannedItem, index) => {
      const made = generateOne(taskId, planned, index, params, options.seed, context, seen);
      if (made.ok) {
        const { draft, seed } = made;
        const parsed = task.itemSchema.safeParse({ fields: draft.fields, gold: draft.gold });
        if (!parsed.success) {
          report.failures.push({
            index,
            reason: `generated fields/gold do not validate: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
          });
        } else {
          const fields = parsed.data.fields as Record<string, unknown>;
          const main = planned.complexes[planned.complexes.length - 1]!;
          items.push({
            id: `${task.code.toLowerCase()}-${String(index + 1).padStart(3, "0")}-${hashSeed(seed).toString(16).padStart(8, "0")}`,
            taskId,
            taskVersion: task.version,
            pdbId: main.pdbId,
            // The task's renderQuestion takes its own field type; the erased registry type cannot express it.
            question: (task.renderQuestion as (f: unknown) => string)(fields),
            fields,
            gold: parsed.data.gold,
            canonicalAnswer: (task.canonicalizeGold as (g: unknown) => string)(parsed.data.gold),
            ...(draft.distractors ? { distractors: draft.distractors } : {}),
            views: draft.views,
            provenance: {
              generator: GENERATOR_NAME,
              generatorVersion: GENERATOR_VERSION,
              seed,
              runSeed: options.seed,
              index,
              params,
              options: generator.optionsInForce(params),
              renderSettings: settings,
              renderSettingsVersion: RENDER_SETTINGS_VERSION,
              structure: sourceOf(main),
              structures: planned.complexes.map(sourceOf),
              notes: draft.notes ?? [],
            },
            complexes: planned.complexes,
          });
          report.generated += 1;
        }
      } else {
        report.failures.push({ index, reason: made.reason });
      }
      options.onProgress?.({ taskId, done: index + 1, total: plan.items.length });
    });
    if (plan.items.length < options.perTask && plan.notes.length === 0)
      report.notes.push(`planned ${plan.items.length} of ${options.perTask} items`);
    if (task.format === "mc") {
      const mcItems = items
        .filter((i) => i.taskId === taskId)
        .map((i) => i.gold as { letter: (typeof MC_LETTERS)[number]; options: string[] });
      report.optionTextStrategies = measureOptionTextStrategies(mcItems);
    }
    const audits = auditShortcuts(items.filter((i) => i.taskId === taskId).map(toShortcutItem), {
      groupOf: byT4Polarity,
    });
    if (audits.length > 0) report.shortcuts = audits;
    reports.push(report);
  }
  return { ok: true, items, reports, renderSettings: settings };
}

type GenerateOneResult = { ok: true; draft: ItemDraft; seed: string } | { ok: false; reason: string };

/** One item; redrawn with a suffixed seed when it repeats an earlier item of the task. */
function generateOne(
  taskId: TaskId,
  planned: PlannedItem,
  index: number,
  params: Record<string, unknown>,
  runSeed: string,
  context: { settings: RenderSettings },
  seen: Set<string>,
): GenerateOneResult {
  const baseSeed = deriveItemSeed(runSeed, taskId, index);
  for (let redraw = 0; redraw <= MAX_DUPLICATE_REDRAWS; redraw++) {
    const seed = redraw === 0 ? baseSeed : `${baseSeed}#${redraw}`;
    let draft: ItemDraft;
    try {
      draft = GENERATORS[taskId].generate(planned, params, createRng(seed), context);
    } catch (e) {
      return {
        ok: false,
        reason: `${planned.complexes.map((c) => c.file).join(" + ")}: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    const identity = identityOf(draft);
    if (!seen.has(identity)) {
      seen.add(identity);
      return { ok: true, draft, seed };
    }
  }
  return {
    ok: false,
    reason: `${planned.complexes.map((c) => c.file).join(" + ")}: every redraw repeated an earlier item (the complex allows no further distinct ${taskId} item)`,
  };
}

export type ImageFormat = "png" | "svg";

export interface RenderedImage {
  /** Bundle path: images/<first 16 hex of the sha256 of the bytes>.<ext>; says nothing about the answer. */
  file: string;
  caption: string;
  mimeType: "image/png" | "image/svg+xml";
  bytes: Uint8Array;
}

/**
 * Views that show the same atoms (same complex, content and residue) share label coverage: labels the
 * earlier images could not place often enough are served first in the next. Those that also look the
 * same way (same canonical view, e.g. the front view before and after a move) share label offsets: a
 * label keeps its offset from its atom from one such image to the next wherever it stays clear.
 */
function labelGroupOf(view: ItemView): string {
  return `${view.source}\u0000${view.content}\u0000${view.residueId ?? ""}`;
}

export interface RenderedView {
  view: ItemView;
  scene: Scene;
  svg: string;
  stats: RenderSvgStats;
}

/**
 * Every view of an item as SVG, with what the renderer placed (labels, culled atoms), rendered with
 * the settings recorded in its provenance; views that show the same atoms share label offsets.
 */
export function renderItemViews(item: GeneratedItem): RenderedView[] {
  const settings = item.provenance.renderSettings;
  const coverage = new Map<string, LabelCoverage>();
  const offsets = new Map<string, LabelOffsetMemory>();
  const chances = new Map<string, LabelChances>();
  const scenes = item.views.map((view) => {
    const complex = item.complexes[view.source];
    if (!complex)
      throw new Error(
        `${item.id}: view "${view.caption}" refers to complex #${view.source}, but the item has ${item.complexes.length}`,
      );
    const scene = requireViewScene(complex, view, settings);
    const group = labelGroupOf(view);
    if (!chances.has(group)) chances.set(group, new Map());
    countLabelChances(scene, settings, chances.get(group)!);
    return scene;
  });
  return item.views.map((view, i) => {
    const group = labelGroupOf(view);
    const orientation = `${group}\u0000${view.view}`;
    if (!coverage.has(group)) coverage.set(group, new Map());
    if (!offsets.has(orientation)) offsets.set(orientation, new Map());
    const scene = scenes[i]!;
    const { svg, stats } = renderSvgWithStats(scene, settings, {
      labelOffsets: offsets.get(orientation)!,
      labelCoverage: coverage.get(group)!,
      labelChances: chances.get(group)!,
    });
    return { view, scene, svg, stats };
  });
}

/** Renders every view of an item with the render settings recorded in its provenance. */
export function renderItemImages(item: GeneratedItem, format: ImageFormat): RenderedImage[] {
  return renderItemViews(item).map(({ view, svg }) => {
    const bytes = format === "svg" ? new TextEncoder().encode(svg) : new Uint8Array(renderPng(svg).png);
    const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
    return {
      file: `images/${hash}.${format}`,
      caption: view.caption,
      mimeType: format === "svg" ? "image/svg+xml" : "image/png",
      bytes,
    };
  });
}
