import "server-only";
import { db } from "@/lib/server/db";

/** What a participant's browser may receive about an item. Never the gold answer or distractor provenance. */
export interface PublicItemDto {
  id: string;
  taskId: string;
  taskVersion: number;
  question: string;
  payload: unknown;
  /** `url`: a signed address added by the participant routes (lib/server/image-url.ts); absent, the browser uses /api/images/<id>. */
  images: Array<{ id: string; position: number; caption: string; url?: string }>;
}

// An explicit allow-list: adding a column to Item never leaks it by accident.
const PUBLIC_ITEM_SELECT = {
  id: true,
  taskId: true,
  taskVersion: true,
  question: true,
  payload: true,
  images: { select: { id: true, position: true, caption: true }, orderBy: { position: "asc" } },
} as const;

/** The participant-facing view of one active item, or null. */
export async function findPublicItem(itemId: string): Promise<PublicItemDto | null> {
  return db.item.findFirst({ where: { id: itemId, status: "active" }, select: PUBLIC_ITEM_SELECT });
}
