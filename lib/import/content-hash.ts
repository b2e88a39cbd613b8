import { createHash } from "node:crypto";
import { toStableJson } from "@/lib/stable-json";

/** JSON with keys sorted at every level (lib/stable-json.ts): the same content always gives the same text. */
export const toCanonicalJson = toStableJson;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Version of the hashed document's shape; bump if the fields below change (old hashes stay valid for old rows). */
export const ITEM_HASH_VERSION = 1;

export interface ItemHashInput {
  taskId: string;
  taskVersion: number;
  question: string;
  payload: unknown;
  gold: unknown;
  images: ReadonlyArray<{ sha256: string; caption: string }>;
}

/**
 * Item.contentHash: sha256 of the canonical JSON of what a participant sees (question, payload,
 * images by their own hashes, in order, with captions) plus the gold answer. Where an item came
 * from (source, external id, split) is left out on purpose: the same question imported from two
 * sources is one item.
 */
export function computeItemContentHash(input: ItemHashInput): string {
  return sha256Hex(
    toCanonicalJson({
      v: ITEM_HASH_VERSION,
      taskId: input.taskId,
      taskVersion: input.taskVersion,
      question: input.question,
      payload: input.payload,
      gold: input.gold,
      images: input.images.map((i) => ({ sha256: i.sha256, caption: i.caption })),
    }),
  );
}
