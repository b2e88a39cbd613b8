import { z } from "zod";
import { TASK_IDS, TaskIdSchema } from "@/lib/tasks/types";
import { ItemFilterSchema } from "./item-filter";
import { DEFAULT_ITEMS_PER_TASK, MAX_ITEMS_PER_TASK } from "./stratified-sample";

/** A pool built from filters takes every matching active item, up to this many (the MiSI test split has 12,917). */
export const MAX_FILTER_POOL_ITEMS = 20_000;
/** Items added or removed in one edit. */
export const MAX_EDIT_ITEMS = 5_000;

const NameSchema = z.string().trim().min(1, "give the pool a name").max(120);
const DescriptionSchema = z.string().trim().max(2_000).optional();
/** Pools only ever contain active items, so a status filter would be meaningless here. */
const PoolFilterSchema = ItemFilterSchema.omit({ status: true });

const SeedSchema = z
  .string()
  .trim()
  .max(64)
  .regex(/^[\w.:-]*$/, "seed: letters, digits and . : _ - only")
  .optional();

/** Request to create a pool (its version 1, not yet frozen). */
export const CreatePoolSchema = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("filter"),
    name: NameSchema,
    description: DescriptionSchema,
    filter: PoolFilterSchema.default({}),
  }),
  z.object({
    mode: z.literal("stratified"),
    name: NameSchema,
    description: DescriptionSchema,
    /** Only candidates matching this filter are drawn (its `task` is ignored; `tasks` chooses the strata). */
    filter: PoolFilterSchema.default({}),
    tasks: z
      .array(TaskIdSchema)
      .min(1, "choose at least one task")
      .default([...TASK_IDS]),
    perTask: z.coerce.number().int().min(1).max(MAX_ITEMS_PER_TASK).default(DEFAULT_ITEMS_PER_TASK),
    /** Empty: a fresh seed is generated and recorded. */
    seed: SeedSchema,
  }),
]);
export type CreatePoolInput = z.input<typeof CreatePoolSchema>;
export type CreatePool = z.output<typeof CreatePoolSchema>;

/** How a pool version was built, stored in PoolVersion.recipe so it can be explained and repeated. */
export const PoolRecipeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("filter"), filter: z.record(z.string(), z.unknown()), matched: z.number().int() }),
  z.object({
    kind: z.literal("stratified"),
    filter: z.record(z.string(), z.unknown()),
    tasks: z.array(z.string()),
    perTask: z.number().int(),
    seed: z.string(),
    /** Candidates are ordered by content hash before the seeded shuffle, so the draw repeats across databases. */
    sortKey: z.literal("contentHash"),
    shortfalls: z.array(z.object({ taskId: z.string(), requested: z.number().int(), available: z.number().int() })),
  }),
  z.object({
    kind: z.literal("edit"),
    basedOnVersion: z.number().int(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
  }),
]);
export type PoolRecipe = z.infer<typeof PoolRecipeSchema>;

const ItemIdListSchema = z.array(z.string().trim().min(1).max(200)).max(MAX_EDIT_ITEMS).default([]);

/** Adds and removes items. On a frozen or used version this creates the next version instead. */
export const EditPoolVersionSchema = z
  .object({ addItemIds: ItemIdListSchema, removeItemIds: ItemIdListSchema })
  .refine((e) => e.addItemIds.length + e.removeItemIds.length > 0, {
    message: "nothing to add or remove",
    path: ["addItemIds"],
  });
export type EditPoolVersion = z.output<typeof EditPoolVersionSchema>;

/** Splits pasted ids (commas, spaces or new lines) into a clean, de-duplicated list. */
export function parseIdList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** One-line human description of a recipe, for version lists. */
export function describeRecipe(recipe: unknown): string {
  const parsed = PoolRecipeSchema.safeParse(recipe);
  if (!parsed.success) return "unknown recipe";
  const r = parsed.data;
  const filterText = describeFilter(r.kind === "edit" ? {} : r.filter);
  switch (r.kind) {
    case "filter":
      return `all active items${filterText} (${r.matched} matched)`;
    case "stratified":
      return `stratified sample: ${r.perTask} per task × ${r.tasks.length} task(s), seed ${r.seed}${filterText}`;
    case "edit":
      return `edit of version ${r.basedOnVersion}: +${r.added.length} / −${r.removed.length} items`;
  }
}

function describeFilter(filter: Record<string, unknown>): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? ` where ${parts.join(", ")}` : "";
}
