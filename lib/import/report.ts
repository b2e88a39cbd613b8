import { z } from "zod";

/** What an import reads: the app's own bundle, the MiSI-Bench release, a VLMEvalKit TSV, or structure files. */
export const IMPORT_KINDS = ["bundle", "misi", "vlmevalkit", "structures"] as const;
export const ImportKindSchema = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKindSchema>;

/**
 * One located problem: `file:line: field: problem`. `line` is 1-based; 0 means the whole file
 * (a missing file, an archive that cannot be opened). `file` is relative to the import's root.
 */
export const ReportEntrySchema = z.object({
  file: z.string(),
  line: z.number().int().nonnegative(),
  field: z.string(),
  problem: z.string(),
  /** Warnings only: further records of the same file with the same field and problem (listed once). */
  repeats: z.number().int().positive().optional(),
});
export type ReportEntry = z.infer<typeof ReportEntrySchema>;

/**
 * Entries kept per list. A 160k-item release with one systematic problem would otherwise store
 * 160k identical lines in ImportBatch.report; the counts stay exact, the lists are cut.
 */
export const MAX_REPORT_ENTRIES_PER_LIST = 500;

export const ImportReportSchema = z.object({
  kind: ImportKindSchema.nullable(),
  source: z.string(),
  dryRun: z.boolean(),
  /** Items (or structures, for kind "structures") written, or that would be written in a dry run. */
  imported: z.number().int().nonnegative(),
  /** Records whose content is already in the database or earlier in the same import. */
  duplicates: z.number().int().nonnegative(),
  /** Records left out with a reason; not failures: the rest of the batch is imported. */
  skipped: z.array(ReportEntrySchema),
  /** Fatal problems: when there is any, nothing of the batch is imported. */
  errors: z.array(ReportEntrySchema),
  /** Imported, but with something to act on (payload kept as-is, item flagged). */
  warnings: z.array(ReportEntrySchema),
  /** For information: how fields were mapped, which ligand was chosen, what a parser dropped. */
  notes: z.array(ReportEntrySchema).default([]),
  /** Where the duplicates were found (same list cut as `skipped`). */
  duplicateEntries: z.array(ReportEntrySchema),
  /** True length of each list before the cut at MAX_REPORT_ENTRIES_PER_LIST. */
  counts: z.object({
    skipped: z.number().int().nonnegative(),
    errors: z.number().int().nonnegative(),
    warnings: z.number().int().nonnegative(),
    notes: z.number().int().nonnegative().default(0),
    duplicates: z.number().int().nonnegative(),
  }),
  /** Items imported per task id (structures: per format). */
  byTask: z.record(z.string(), z.number().int().nonnegative()),
  /** Records read from the source (imported + duplicates + skipped, and unreadable lines). */
  recordsRead: z.number().int().nonnegative(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

/** `items.jsonl:12: answer: 'move q 3' is not a valid command`; line 0 is left out. */
export function formatReportEntry(entry: ReportEntry): string {
  const where = entry.line > 0 ? `${entry.file}:${entry.line}` : entry.file;
  const more = entry.repeats ? ` (and ${entry.repeats} more record(s) like it)` : "";
  return `${where}: ${entry.field}: ${entry.problem}${more}`;
}

/** How many occurrences a (possibly cut) list accounts for, repeats included. */
export function countListed(entries: readonly ReportEntry[]): number {
  return entries.reduce((n, e) => n + 1 + (e.repeats ?? 0), 0);
}

/** The whole report as text lines: a summary, then errors, skipped, duplicates, warnings and notes. */
export function formatReportLines(report: ImportReport): string[] {
  const lines: string[] = [];
  const verb = report.dryRun ? "would import" : "imported";
  const failed = report.counts.errors > 0;
  lines.push(
    `${report.source} (${report.kind ?? "unknown kind"}${report.dryRun ? ", dry run" : ""}): ` +
      (failed
        ? `FAILED with ${report.counts.errors} error(s); nothing was imported`
        : `${verb} ${report.imported}, duplicates ${report.duplicates}, skipped ${report.counts.skipped}, warnings ${report.counts.warnings}`),
  );
  const section = (title: string, entries: ReportEntry[], total: number) => {
    if (total === 0) return;
    lines.push(`${title} (${total}):`);
    for (const e of entries) lines.push(`  ${formatReportEntry(e)}`);
    const unlisted = total - countListed(entries);
    if (unlisted > 0) lines.push(`  … ${unlisted} more not listed`);
  };
  section("errors", report.errors, report.counts.errors);
  section("skipped", report.skipped, report.counts.skipped);
  section("duplicates", report.duplicateEntries, report.counts.duplicates);
  section("warnings", report.warnings, report.counts.warnings);
  section("notes", report.notes, report.counts.notes);
  return lines;
}

/** Collects a report while an import runs. Lists are cut at MAX_REPORT_ENTRIES_PER_LIST; counts are exact. */
export class ImportReportBuilder {
  private readonly report: ImportReport;
  /** Warnings by file + field + problem, so a problem shared by every record is listed once. */
  private readonly warningIndex = new Map<string, ReportEntry>();

  constructor(options: { kind: ImportKind | null; source: string; dryRun: boolean }) {
    this.report = {
      kind: options.kind,
      source: options.source,
      dryRun: options.dryRun,
      imported: 0,
      duplicates: 0,
      skipped: [],
      errors: [],
      warnings: [],
      notes: [],
      duplicateEntries: [],
      counts: { skipped: 0, errors: 0, warnings: 0, notes: 0, duplicates: 0 },
      byTask: {},
      recordsRead: 0,
    };
  }

  setKind(kind: ImportKind): void {
    this.report.kind = kind;
  }

  skip(entry: ReportEntry): void {
    this.report.counts.skipped += 1;
    if (this.report.skipped.length < MAX_REPORT_ENTRIES_PER_LIST) this.report.skipped.push(entry);
  }

  error(entry: ReportEntry): void {
    this.report.counts.errors += 1;
    if (this.report.errors.length < MAX_REPORT_ENTRIES_PER_LIST) this.report.errors.push(entry);
  }

  /** Counts every warning; lists the first of each file + field + problem and counts the rest as its repeats. */
  warn(entry: ReportEntry): void {
    this.report.counts.warnings += 1;
    const key = `${entry.file}\u0000${entry.field}\u0000${entry.problem}`;
    const first = this.warningIndex.get(key);
    if (first) {
      first.repeats = (first.repeats ?? 0) + 1;
      return;
    }
    if (this.report.warnings.length < MAX_REPORT_ENTRIES_PER_LIST) {
      const stored = { ...entry };
      this.report.warnings.push(stored);
      this.warningIndex.set(key, stored);
    }
  }

  note(entry: ReportEntry): void {
    this.report.counts.notes += 1;
    if (this.report.notes.length < MAX_REPORT_ENTRIES_PER_LIST) this.report.notes.push(entry);
  }

  duplicate(entry: ReportEntry): void {
    this.report.duplicates += 1;
    this.report.counts.duplicates += 1;
    if (this.report.duplicateEntries.length < MAX_REPORT_ENTRIES_PER_LIST) this.report.duplicateEntries.push(entry);
  }

  imported(group: string): void {
    this.report.imported += 1;
    this.report.byTask[group] = (this.report.byTask[group] ?? 0) + 1;
  }

  recordRead(): void {
    this.report.recordsRead += 1;
  }

  /** Running counts without copying the entry lists (progress updates are frequent). */
  snapshotCounts(): { recordsRead: number; imported: number; duplicates: number; skipped: number } {
    const r = this.report;
    return { recordsRead: r.recordsRead, imported: r.imported, duplicates: r.duplicates, skipped: r.counts.skipped };
  }

  get hasErrors(): boolean {
    return this.report.counts.errors > 0;
  }

  /** A snapshot (deep enough to be stored while the builder keeps running). */
  snapshot(): ImportReport {
    return structuredClone(this.report);
  }

  /**
   * The final report. With fatal errors nothing was written, so the success counts are zeroed:
   * the report must not claim imports that were rolled back.
   */
  finish(): ImportReport {
    const out = this.snapshot();
    if (out.counts.errors > 0) {
      out.imported = 0;
      out.byTask = {};
    }
    return out;
  }
}

export const IMPORT_PHASES = ["queued", "uploading", "opening", "extracting", "reading", "finishing"] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** What a running import shows (stored in ImportBatch.report as `{ progress }` until the report replaces it). */
export const ImportProgressSchema = z.object({
  phase: z.enum(IMPORT_PHASES),
  /** File being read, relative to the import root. */
  currentFile: z.string().nullable(),
  recordsRead: z.number().int().nonnegative(),
  imported: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Bytes of record files read so far, and their total, for a percentage. */
  bytesRead: z.number().nonnegative(),
  bytesTotal: z.number().nonnegative(),
  updatedAt: z.string(),
});
export type ImportProgress = z.infer<typeof ImportProgressSchema>;
