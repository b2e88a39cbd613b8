import { z } from "zod";
import { TaskIdSchema } from "@/lib/tasks/types";

/**
 * The item bundle: the app's own exchange format (written by `npm run generate`, read by `npm run import`).
 * A folder (or a zip of it) with
 *   manifest.json   BundleManifest
 *   items.jsonl     one BundleItem per line (public: what participants and models see)
 *   answers.jsonl   one BundleAnswer per line (the gold, kept apart)
 *   images/         image files named by opaque ids (never derived from the answer)
 */
export const BUNDLE_FORMAT = "misi-baseline-bundle";
export const BUNDLE_FORMAT_VERSION = 1;

export const BundleManifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  formatVersion: z.literal(BUNDLE_FORMAT_VERSION),
  generator: z.object({ name: z.string(), version: z.string() }).optional(),
  /** Command-line arguments or recipe that produced the bundle. */
  recipe: z.record(z.string(), z.unknown()).optional(),
  counts: z.record(z.string(), z.number().int().nonnegative()),
});
export type BundleManifest = z.infer<typeof BundleManifestSchema>;

export const BundleImageSchema = z.object({
  /** Path relative to the bundle root, e.g. `images/6f1c2e0a9b.png`. */
  file: z.string().regex(/^images\/[A-Za-z0-9._-]+\.(png|svg|jpg|jpeg)$/, "must be images/<name>.png|svg|jpg"),
  /** Participant-visible caption, e.g. "Image 1: front view". Must not reveal the answer. */
  caption: z.string().max(200),
});

export const ProvenanceSchema = z
  .object({
    generator: z.string(),
    generatorVersion: z.string(),
    seed: z.string(),
    renderSettings: z.record(z.string(), z.unknown()),
    structure: z
      .object({ file: z.string(), sha256: z.string(), ligand: z.string().optional(), pdbId: z.string().optional() })
      .optional(),
  })
  .passthrough();

export const BundleItemSchema = z.object({
  id: z.string().min(1).max(200),
  task: TaskIdSchema,
  taskVersion: z.number().int().positive(),
  split: z.string().min(1).max(32).default("test"),
  pdbId: z.string().max(16).optional(),
  question: z.string().min(1),
  /** Task fields (the task's fieldsSchema): options for MC tasks, residue names, etc. */
  fields: z.record(z.string(), z.unknown()),
  images: z.array(BundleImageSchema).min(1),
  provenance: ProvenanceSchema.optional(),
});
export type BundleItem = z.infer<typeof BundleItemSchema>;

export const BundleAnswerSchema = z.object({
  id: z.string().min(1).max(200),
  /** Canonical answer text (the task grammar's canonical form). */
  answer: z.string().min(1),
  /** Task gold JSON (the task's goldSchema). */
  gold: z.unknown(),
  /** How MC distractors were built (admin-only). */
  distractors: z.unknown().optional(),
});
export type BundleAnswer = z.infer<typeof BundleAnswerSchema>;
