import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every level and `undefined` members dropped, so two objects
 * with the same content always give the same text (JSON.stringify keeps insertion order).
 * Non-finite numbers have no JSON form and are rejected rather than silently turned into null.
 */
export function toCanonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new Error(`canonical JSON: ${value} is not a finite number`);
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : toCanonicalJson(v))).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toCanonicalJson(v)}`).join(",")}}`;
    }
    default:
      throw new Error(`canonical JSON: cannot encode a ${typeof value}`);
  }
}

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
