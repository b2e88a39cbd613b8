/**
 * Generated items → bundle records (lib/bundle/format.ts). Public data goes to items.jsonl; the gold,
 * distractor provenance and the view specifications (whose commands ARE the answer for T1–T3 and T7)
 * go to answers.jsonl only.
 */
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, type BundleManifest } from "@/lib/bundle/format";
import type { RenderedImage } from "./index";
import { toStableJson } from "./stable-json";
import { GENERATOR_NAME, GENERATOR_VERSION, type GeneratedItem } from "./types";

/** One items.jsonl record (BundleItemSchema). */
export function toBundleItem(
  item: GeneratedItem,
  images: readonly Pick<RenderedImage, "file" | "caption">[],
): Record<string, unknown> {
  return {
    id: item.id,
    task: item.taskId,
    taskVersion: item.taskVersion,
    split: "test",
    pdbId: item.pdbId,
    question: item.question,
    fields: item.fields,
    images: images.map((img) => ({ file: img.file, caption: img.caption })),
    provenance: item.provenance,
  };
}

/** One answers.jsonl record (BundleAnswerSchema, plus the views for audits and re-rendering). */
export function toBundleAnswer(item: GeneratedItem): Record<string, unknown> {
  return {
    id: item.id,
    answer: item.canonicalAnswer,
    gold: item.gold,
    ...(item.distractors ? { distractors: item.distractors } : {}),
    views: item.views,
  };
}

export function createBundleManifest(recipe: Record<string, unknown>, items: readonly GeneratedItem[]): BundleManifest {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.taskId] = (counts[item.taskId] ?? 0) + 1;
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    generator: { name: GENERATOR_NAME, version: GENERATOR_VERSION },
    recipe,
    counts,
  };
}

/** JSON Lines with sorted keys, one record per line, final newline. */
export function toJsonLines(records: readonly unknown[]): string {
  return records.map((r) => `${toStableJson(r)}\n`).join("");
}
