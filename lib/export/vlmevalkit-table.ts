import { MC_LETTERS } from "@/lib/tasks/types";
import { defineExportTable } from "./columns";

/**
 * The pool's items as a VLMEvalKit dataset TSV, so a model can be run on exactly the items humans
 * saw. VLMEvalKit (vlmeval/dataset/image_base.py) reads `index` as text, decodes `image` as one
 * base64 string or a Python-list literal of them (toliststr → eval; a JSON array of strings is a
 * valid literal), and for a list needs `image_path` with one file name per image. `index` is the
 * app's item id, so prediction files come back keyed by it.
 */
export interface VlmevalkitExportRow {
  itemId: string;
  externalId: string | null;
  taskId: string;
  taskCode: string;
  split: string;
  pdbId: string | null;
  question: string;
  /** PNG images, base64, in the participant's order. */
  imagesBase64: string[];
  /** One file name per image (VLMEvalKit writes the decoded images under these names). */
  imageNames: string[];
  /** Option texts A–D (MC tasks), else null. */
  options: readonly [string, string, string, string] | null;
  /** Canonical gold answer. */
  answer: string;
}

/** Option columns for an MC item: T8 shows option texts; T5/T6 options are the last four images. */
export function toVlmevalkitOptions(
  taskId: string,
  payload: unknown,
  imageCount: number,
): readonly [string, string, string, string] | null {
  if (taskId === "interaction_location") {
    const options = (payload as { options?: unknown } | null)?.options;
    if (Array.isArray(options) && options.length === 4 && options.every((o) => typeof o === "string")) {
      return options as unknown as [string, string, string, string];
    }
    return null;
  }
  if (taskId === "translation_rotation" || taskId === "rotation_rotation") {
    const first = imageCount - MC_LETTERS.length + 1;
    return [`Image ${first}`, `Image ${first + 1}`, `Image ${first + 2}`, `Image ${first + 3}`];
  }
  return null;
}

export const VLMEVALKIT_TSV_TABLE = defineExportTable<VlmevalkitExportRow>({
  id: "vlmevalkit_items",
  title: "Items as a VLMEvalKit dataset (TSV)",
  description:
    "One row per active item of the study's pool version, tab-separated, with the images as base64 PNG. For programs, not spreadsheets: cells are not formula-neutralised.",
  columns: [
    {
      key: "index",
      type: "string",
      description: "Item id in this app; prediction files keyed by it import without further mapping.",
      get: (r) => r.itemId,
    },
    {
      key: "image",
      type: "string",
      description:
        "Base64 PNG: one string for a single image, else a JSON list of strings (read by VLMEvalKit's toliststr).",
      get: (r) => (r.imagesBase64.length === 1 ? r.imagesBase64[0] : JSON.stringify(r.imagesBase64)),
    },
    {
      key: "image_path",
      type: "string",
      description:
        "File name per image (a JSON list when there are several), required by VLMEvalKit for multi-image rows.",
      get: (r) => (r.imageNames.length === 1 ? r.imageNames[0] : JSON.stringify(r.imageNames)),
    },
    {
      key: "question",
      type: "string",
      description: "The question text exactly as participants saw it.",
      get: (r) => r.question,
    },
    {
      key: "A",
      type: "string",
      description: "Option A (MC tasks): T8 option text; for T5/T6 the option image's number. Empty otherwise.",
      get: (r) => r.options?.[0],
    },
    { key: "B", type: "string", description: "Option B (MC tasks).", get: (r) => r.options?.[1] },
    { key: "C", type: "string", description: "Option C (MC tasks).", get: (r) => r.options?.[2] },
    { key: "D", type: "string", description: "Option D (MC tasks).", get: (r) => r.options?.[3] },
    {
      key: "answer",
      type: "string",
      description: "Canonical correct answer (letter for MC tasks, command or bond list otherwise).",
      get: (r) => r.answer,
    },
    { key: "category", type: "string", description: "Task id (translation, rotation, …).", get: (r) => r.taskId },
    { key: "task_code", type: "string", description: "Task code (T1..T9).", get: (r) => r.taskCode },
    { key: "split", type: "string", description: "Item split (test, train).", get: (r) => r.split },
    {
      key: "external_id",
      type: "string",
      description: "Item's external id, when it has one.",
      get: (r) => r.externalId,
    },
    { key: "pdb_id", type: "string", description: "PDB id of the complex, when known.", get: (r) => r.pdbId },
  ],
});
