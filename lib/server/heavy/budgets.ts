import { z } from "zod";

/**
 * Budgets of the heavy-work pool (lib/server/heavy/pool.ts), read once from the environment. Every variable is
 * documented in docs/heavy-work.md; the defaults fit the 2-core, few-GB machines the app is run on.
 */
const BudgetEnvSchema = z.object({
  /** Heavy jobs running at once (each in its own child process); the rest wait in the queue. */
  HEAVY_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Jobs allowed to wait for a worker; one more is refused at once with "the server is busy". */
  HEAVY_QUEUE_MAX: z.coerce.number().int().min(0).max(100_000).default(1_000),
  /** Heavy jobs one signed-in user may have waiting; one more is refused at once (others' jobs still queue). */
  HEAVY_USER_QUEUE_MAX: z.coerce.number().int().min(0).max(100_000).default(4),
  /** Heavy jobs one user may run at once (default: half the workers, at least one), so others always get a turn. */
  HEAVY_USER_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Resident memory of one worker process (JS heap + native resvg/zlib/exceljs buffers), MB; over it the job is killed. */
  HEAVY_JOB_RSS_MB: z.coerce.number().int().min(64).max(65_536).default(768),
  /** Time budget of one SVG check + rasterisation, ms (a 1024² view takes about 130 ms). */
  HEAVY_SVG_BUDGET_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** Time budget of reading one prediction file (xlsx, tsv, csv, jsonl), ms. */
  HEAVY_WORKBOOK_BUDGET_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Time budget of one results computation (summary, bootstrap intervals, item analysis), ms. */
  HEAVY_RESULTS_BUDGET_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  /** Main-phase responses from which a scope's results summary is computed in the pool (below: in-process, faster). */
  HEAVY_RESULTS_MIN_RECORDS: z.coerce.number().int().min(0).default(5_000),
  /** Responses-export child processes running at once (each about 100 MB); more wait their turn. */
  EXPORT_MAX_CHILDREN: z.coerce.number().int().min(1).max(64).default(2),
  /** Bytes an uploaded tar/tar.gz may expand to on disk, and zip entries may declare in total. */
  IMPORT_MAX_INFLATED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 ** 3),
  /** Largest expansion ratio (inflated ÷ compressed bytes) of an archive once it has expanded past 64 MiB. */
  IMPORT_MAX_INFLATE_RATIO: z.coerce.number().min(2).default(200),
  /** Bytes a prediction workbook (xlsx, a zip) may declare uncompressed in total. */
  MODEL_XLSX_MAX_INFLATED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(256 * 1024 ** 2),
});

export type HeavyBudgets = z.infer<typeof BudgetEnvSchema>;

function load(): HeavyBudgets {
  const raw = Object.fromEntries(Object.entries(process.env).map(([k, v]) => [k, v === "" ? undefined : v]));
  const parsed = BudgetEnvSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `Invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  return parsed.data;
}

export const heavyBudgets: HeavyBudgets = load();

/** Inflated bytes an archive may reach before the ratio check applies (small archives of text compress well). */
export const RATIO_CHECK_AFTER_BYTES = 64 * 1024 ** 2;

/** "8 GiB", "768 MiB", "20 s": budgets as people read them in a report. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${bytes} bytes` : `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

export function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
