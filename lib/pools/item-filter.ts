import { z } from "zod";
import { TaskIdSchema } from "@/lib/tasks/types";

/** Item statuses and sources as stored (mirrors the Prisma enums; lib/ may not import Prisma). */
export const ITEM_STATUSES = ["active", "excluded", "flagged"] as const;
export const ItemStatusSchema = z.enum(ITEM_STATUSES);
export type ItemStatusValue = z.infer<typeof ItemStatusSchema>;

export const ITEM_SOURCES = ["generated", "bundle", "misi_release", "vlmevalkit"] as const;
export const ItemSourceSchema = z.enum(ITEM_SOURCES);

export const ITEMS_PAGE_SIZE_DEFAULT = 50;
export const ITEMS_PAGE_SIZE_MAX = 200;

// Empty form fields and `?task=` arrive as ""; treat them as "no filter" rather than as an invalid value.
const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

/** Which items to show or put in a pool. Every field narrows the set; all absent means every item. */
export const ItemFilterSchema = z.object({
  task: optional(TaskIdSchema),
  split: optional(z.string().trim().max(32)),
  source: optional(ItemSourceSchema),
  status: optional(ItemStatusSchema),
  tag: optional(z.string().trim().max(64)),
  /** Case-insensitive substring of the question text, external id, PDB id or item id. */
  q: optional(z.string().trim().max(200)),
});
export type ItemFilter = z.infer<typeof ItemFilterSchema>;

export const ItemListQuerySchema = ItemFilterSchema.extend({
  page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(1)),
  pageSize: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(ITEMS_PAGE_SIZE_MAX).default(ITEMS_PAGE_SIZE_DEFAULT),
  ),
});
export type ItemListQuery = z.infer<typeof ItemListQuerySchema>;

/** Reads a query string (or Next's searchParams object) into plain key → first value. */
export function toQueryRecord(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (params instanceof URLSearchParams) {
    for (const [k, v] of params) if (!(k in out)) out[k] = v;
    return out;
  }
  for (const [k, v] of Object.entries(params)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[k] = first;
  }
  return out;
}

/** The query string of a filter (and page), without empty fields; for links that keep the current filter. */
export function toFilterQueryString(filter: Partial<ItemListQuery>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) {
    if (v === undefined || v === null || v === "") continue;
    if (k === "page" && v === 1) continue;
    if (k === "pageSize" && v === ITEMS_PAGE_SIZE_DEFAULT) continue;
    params.set(k, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Item status changes need a reason so the audit log says why an item left (or re-entered) the pool. */
export const ItemStatusChangeSchema = z.object({
  status: ItemStatusSchema,
  reason: z
    .string({ error: "give a reason (at least 3 characters)" })
    .trim()
    .min(3, "give a reason (at least 3 characters)")
    .max(1_000),
});
export type ItemStatusChange = z.infer<typeof ItemStatusChangeSchema>;
