import "server-only";
import { stringify } from "csv-stringify/sync";
import type { PaperMetric } from "@/lib/results/paper-reference";
import {
  buildPaperTable,
  formatPaperTableLatex,
  formatPaperTableMarkdown,
  type IntervalStyle,
  type PaperTable,
  type PaperTableFormat,
  type PaperTableScoreKind,
} from "@/lib/results/paper-table";
import { paperTableCsvRecords } from "@/lib/export/paper-table-csv";
import { compareScopeWithModels } from "@/lib/server/dal/results/compare-with-models";
import { summarizeScopeRecords } from "@/lib/server/dal/results/get-study-results";
import { loadScopeRecords } from "@/lib/server/dal/results/results-cache";
import type { HeavyCaller } from "@/lib/server/heavy/pool";
import { resolveResultsScope, type ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { AppError } from "@/lib/server/errors";

export interface PaperTableExportOptions {
  studyId: string;
  scope?: ResultsScope;
  /** One table, or both (Table 1 partial, then Table 2 exact). */
  metric?: PaperMetric | "both";
  format?: PaperTableFormat;
  scoreKind?: PaperTableScoreKind;
  intervals?: IntervalStyle;
  /** Human condition for the model rows' item matching (null: all), as the results page's selector. */
  condition?: string | null;
  digits?: number;
}

/**
 * The paper-style tables of a study: the same reads and the same summary (default seed) as the
 * results page, so every number equals the page's.
 */
export async function buildStudyPaperTables(
  options: PaperTableExportOptions,
  caller: HeavyCaller = {},
): Promise<{ tables: PaperTable[]; slug: string }> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const loaded = await loadScopeRecords(scope.studyIds);
  const { records } = loaded;
  const human = await summarizeScopeRecords(scope, loaded, {}, caller);
  if (human.problems.length > 0)
    throw new AppError("UNPROCESSABLE", "The responses failed validation; see the results page.", {
      problems: human.problems,
    });
  const models = await compareScopeWithModels({ scope, records, condition: options.condition ?? null });
  const runNames = Object.fromEntries(models.runs.map((r) => [r.id, r.name]));
  const metrics: PaperMetric[] =
    options.metric === "exact" || options.metric === "partial" ? [options.metric] : ["partial", "exact"];
  const tables = metrics.map((metric) =>
    buildPaperTable({
      metric,
      scoreKind: options.scoreKind ?? "paper",
      human: human.summary?.overall ?? null,
      comparison: models.comparison,
      runNames,
      conditionEffect: human.summary?.conditionEffect ?? null,
      unexcluded: human.summary?.unexcluded ?? null,
    }),
  );
  return { tables, slug: `${scope.study.slug}${scope.scope === "pool" ? "-pool" : ""}` };
}

const CONTENT_TYPES: Record<PaperTableFormat, string> = {
  latex: "application/x-tex; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};
const EXTENSIONS: Record<PaperTableFormat, string> = { latex: "tex", md: "md", csv: "csv" };

/** The tables as one LaTeX, Markdown or CSV document. */
export function renderPaperTables(
  tables: readonly PaperTable[],
  format: PaperTableFormat,
  options: { intervals?: IntervalStyle; digits?: number } = {},
): string {
  const fmt = {
    intervals: options.intervals ?? "line",
    ...(options.digits === undefined ? {} : { digits: options.digits }),
  };
  if (format === "latex") return tables.map((t) => formatPaperTableLatex(t, fmt)).join("\n");
  if (format === "md") return tables.map((t) => formatPaperTableMarkdown(t, fmt)).join("\n");
  return stringify(paperTableCsvRecords(tables, fmt), { record_delimiter: "unix" });
}

export async function openPaperTableExport(
  options: PaperTableExportOptions,
  caller: HeavyCaller = {},
): Promise<{ fileName: string; contentType: string; body: string }> {
  const format = options.format ?? "latex";
  const { tables, slug } = await buildStudyPaperTables(options, caller);
  const which =
    options.metric === "exact" ? "table2-exact" : options.metric === "partial" ? "table1-partial" : "tables";
  return {
    fileName: `${slug}-paper-${which}.${EXTENSIONS[format]}`,
    contentType: CONTENT_TYPES[format],
    body: renderPaperTables(tables, format, options),
  };
}
