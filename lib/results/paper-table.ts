import type { Comparison } from "./compare";
import { formatConditionEffect, hasIntervalSpread, type ConditionEffectSummary } from "./condition-effect";
import { INTERVAL_RULE_NOTE, type IntervalMethod } from "./interval-rule";
import { PAPER_ROWS, PAPER_SOURCE, type PaperMetric } from "./paper-reference";
import { formatFixed, toPercent } from "./rounding";
import type { ColumnSummary, GroupSummary, UnexcludedSummary } from "./summarize";
import { computePaperAverage, RESULT_COLUMN_KEYS, RESULT_COLUMNS, type ResultColumnKey } from "./task-columns";

/*
 * The paper's Tables 1 (partial credit) and 2 (exact match) rebuilt from a study: one row per
 * imported model run (item-matched to the humans, as on the results page), the human row with its
 * 95 % participant-bootstrap interval, and the paper's own rows marked "as reported". Numbers are
 * fractions in the table object and percent in the printed forms, rounded once with the app's one
 * rule (lib/results/rounding), so a cell reads exactly as on the results page.
 */

/**
 * Which score fills the cells. "paper" is the paper's scoring (spec §4). A second kind (the
 * "fair" score, lib/tasks/fair-score.ts) plugs in by adding its name here and its accessors in SCORE_ACCESSORS.
 */
export const PAPER_TABLE_SCORE_KINDS = ["paper", "fair"] as const;
export type PaperTableScoreKind = (typeof PAPER_TABLE_SCORE_KINDS)[number];

export const PAPER_TABLE_FORMATS = ["latex", "md", "csv"] as const;
export type PaperTableFormat = (typeof PAPER_TABLE_FORMATS)[number];

/** How the human row's interval is printed: on a second line as [low, high], or as ± half its width. */
export type IntervalStyle = "line" | "pm";

export interface PaperTableCell {
  /** Fraction in [0, 1] (study rows) — or percent as printed (paper rows, see PaperTableRow.asPrinted). */
  value: number;
  low?: number;
  high?: number;
  /** Human cells: which interval rule produced low/high (lib/results/interval-rule). */
  method?: IntervalMethod;
}

export interface PaperTableRow {
  label: string;
  /** "effect": the condition effect, interactive − static (cells are signed differences, fractions). */
  kind: "human" | "model" | "paper" | "effect";
  /** "this study", "imported run" or "as reported". */
  provenance: string;
  /** Paper rows hold the printed percentages; study rows hold fractions. */
  asPrinted: boolean;
  cells: Partial<Record<ResultColumnKey, PaperTableCell>>;
  /** The paper's Avg over its eight columns; null when a column is missing. */
  average: number | null;
  note?: string;
}

export interface PaperTable {
  metric: PaperMetric;
  scoreKind: PaperTableScoreKind;
  /** "Table 1" (partial) or "Table 2" (exact), as in the paper. */
  paperTableName: string;
  title: string;
  rows: PaperTableRow[];
  notes: string[];
}

interface ScoreAccessors {
  human: (c: ColumnSummary, metric: PaperMetric) => PaperTableCell;
  humanAverage: (g: GroupSummary, metric: PaperMetric) => number | null;
  model: (m: Comparison["columns"][number]["models"][number], metric: PaperMetric) => number;
}

const SCORE_ACCESSORS: Record<PaperTableScoreKind, ScoreAccessors> = {
  paper: {
    human: (c, metric) => {
      const s = metric === "exact" ? c.exact : c.partial;
      return { value: s.mean, low: s.interval.low, high: s.interval.high, method: s.interval.method };
    },
    humanAverage: (g, metric) => (metric === "exact" ? g.paperAverage.exact : g.paperAverage.partial),
    model: (m, metric) => (metric === "exact" ? m.model.mean : m.model.partialMean),
  },
  // Equivalent atom names count as one on T4/T9 (lib/tasks/fair-score.ts). Humans: the same interval
  // rule as the paper score. Imported model runs: their fair score too; the paper's published rows keep
  // the paper score (noted under the table).
  fair: {
    human: (c, metric) => {
      const s = metric === "exact" ? c.fair.exact : c.fair.partial;
      return { value: s.mean, low: s.interval.low, high: s.interval.high, method: s.interval.method };
    },
    humanAverage: (g, metric) => (metric === "exact" ? g.fairPaperAverage.exact : g.fairPaperAverage.partial),
    model: (m, metric) => (metric === "exact" ? m.model.fair.mean : m.model.fair.partialMean),
  },
};

export interface BuildPaperTableOptions {
  metric: PaperMetric;
  scoreKind?: PaperTableScoreKind;
  /** Human results of the study (overall group); null before the first answers. */
  human: GroupSummary | null;
  humanLabel?: string;
  /** Item-matched comparison with imported runs (from the results page); null when there is none. */
  comparison: Comparison | null;
  /** Run id → name shown in the table. */
  runNames?: Readonly<Record<string, string>>;
  /** Include the paper's published rows (default true). */
  includePaperRows?: boolean;
  /**
   * The condition effect (lib/results/condition-effect): adds a last row block, interactive − static per
   * column with its reported interval, to the exact-match table of the paper score (the effect is a
   * difference in exact accuracy). Left out when absent or not estimable.
   */
  conditionEffect?: ConditionEffectSummary | null;
  /**
   * The human figures with the participants the study's exclusion policy excludes kept in (HumanResultsSummary
   * `unexcluded`): a second human row beside the default one, which leaves them out, and the effect with them in a note.
   */
  unexcluded?: UnexcludedSummary | null;
}

/** Builds Table 1 (partial) or Table 2 (exact) from a study's results. */
export function buildPaperTable(options: BuildPaperTableOptions): PaperTable {
  const scoreKind = options.scoreKind ?? "paper";
  const acc = SCORE_ACCESSORS[scoreKind];
  const { metric } = options;
  const rows: PaperTableRow[] = [];

  if (options.human) {
    const cells: Partial<Record<ResultColumnKey, PaperTableCell>> = {};
    for (const c of options.human.columns) cells[c.column] = acc.human(c, metric);
    rows.push({
      label: options.humanLabel ?? "Human (this study)",
      kind: "human",
      provenance: "this study",
      asPrinted: false,
      cells,
      average: acc.humanAverage(options.human, metric),
    });
  }
  const unexcluded = options.unexcluded ?? null;
  if (options.human && unexcluded) {
    const cells: Partial<Record<ResultColumnKey, PaperTableCell>> = {};
    for (const c of unexcluded.overall.columns) cells[c.column] = acc.human(c, metric);
    rows.push({
      label: "Human, no exclusions",
      kind: "human",
      provenance: "this study, excluded participants kept in",
      asPrinted: false,
      cells,
      average: acc.humanAverage(unexcluded.overall, metric),
    });
  }

  const byRun = new Map<string, Partial<Record<ResultColumnKey, PaperTableCell>>>();
  for (const col of options.comparison?.columns ?? []) {
    for (const m of col.models) {
      const cells = byRun.get(m.modelId) ?? {};
      cells[col.column] = { value: acc.model(m, metric) };
      byRun.set(m.modelId, cells);
    }
  }
  const runNames = options.runNames ?? {};
  const runIds = [...byRun.keys()].sort((a, b) => {
    const na = runNames[a] ?? a;
    const nb = runNames[b] ?? b;
    return na < nb ? -1 : na > nb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
  for (const id of runIds) {
    const cells = byRun.get(id) as Partial<Record<ResultColumnKey, PaperTableCell>>;
    const avg = computePaperAverage(Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, c.value])));
    rows.push({
      label: runNames[id] ?? id,
      kind: "model",
      provenance: "imported run",
      asPrinted: false,
      cells,
      average: avg.value,
    });
  }

  if (options.includePaperRows ?? true) {
    for (const r of PAPER_ROWS.filter((p) => p.metric === metric)) {
      const cells: Partial<Record<ResultColumnKey, PaperTableCell>> = {};
      for (const k of RESULT_COLUMN_KEYS) cells[k] = { value: r.cells[k] };
      rows.push({
        label: r.model,
        kind: "paper",
        provenance: r.itemSet === "full_test" ? "as reported, full test set" : "as reported",
        asPrinted: true,
        cells,
        average: r.avgPrinted,
        ...(r.note === undefined ? {} : { note: r.note }),
      });
    }
  }

  const effect = options.conditionEffect;
  const withEffect = effect?.estimable === true && metric === "exact" && scoreKind === "paper";
  if (withEffect) {
    const cells: Partial<Record<ResultColumnKey, PaperTableCell>> = {};
    for (const c of effect.columns) {
      if (c.effect.estimate === null) continue;
      // A zero-width interval (every participant with the same accuracy) is left out, as the human row never prints one.
      cells[c.column] = {
        value: c.effect.estimate,
        ...(hasIntervalSpread(c.effect) ? { low: c.effect.low, high: c.effect.high } : {}),
      };
    }
    rows.push({
      label: "Human: interactive − static (pp)",
      kind: "effect",
      provenance: "this study, condition effect",
      asPrinted: false,
      cells,
      average: null,
      note: `All tasks pooled: ${formatConditionEffect(effect.overall)}`,
    });
  }

  const paperTableName = metric === "partial" ? "Table 1" : "Table 2";
  const title = `${metric === "partial" ? "Partial-credit" : "Exact-match"} accuracy (%) per task, the layout of the paper's ${paperTableName}`;
  const notes = [
    "Avg is the mean of Trans, Rot, Zoom, ResLig+, ResLig−, Dock, InterLoc and PocLig (TransRot and RotRot excluded); – when a column has no data.",
    `Human (this study): pooled mean of main-phase answers${unexcluded ? ` of the participants the study's exclusion policy keeps (${unexcluded.nExcludedParticipants} excluded; "Human, no exclusions" keeps them in)` : ""}. ${INTERVAL_RULE_NOTE}`,
    "Imported runs: scored with the same task graders on the items the humans answered (item-matched).",
    `Rows marked "as reported": ${PAPER_SOURCE}, printed values on the paper's own items, not item-matched; their Avg is the printed one.`,
  ];
  const humanRow = rows.find((r) => r.kind === "human");
  const fallback = humanRow ? RESULT_COLUMN_KEYS.filter((k) => humanRow.cells[k]?.method === "clustered-wilson") : [];
  if (fallback.length > 0) {
    notes.push(
      `Clustered Wilson interval (not the bootstrap) in: ${fallback.map((k) => RESULT_COLUMNS[k].label).join(", ")}.`,
    );
  }
  if (withEffect) {
    notes.push(
      `Human: interactive − static: difference in exact accuracy in percentage points (interactive minus static), 95% Welch t interval on participants, about this study's questions (docs/condition-effect.md); – where a condition has no answers, no interval where every participant had the same accuracy; its Avg cell is empty (the all-task effect, pooled over answers, is in the row's note: ${formatConditionEffect(effect.overall)}).`,
    );
    if (unexcluded)
      notes.push(
        `Interactive − static with the ${unexcluded.nExcludedParticipants} excluded participants kept in, all tasks pooled: ${formatConditionEffect(unexcluded.conditionEffect.overall)}.`,
      );
  }
  if (scoreKind === "fair") {
    notes.push(
      "Score: fair — on ResLig and PocLig, chemically equivalent atom names (ARG NH1/NH2, ASP OD1/OD2, GLU OE1/OE2, C-terminal O/OXT, PHE/TYR ring pairs) count as one; partial is precision with that equivalence (F1 is in the summary export). Human interval: the same rule as for the paper score. Imported runs are scored the same way; the paper's published rows keep the paper score.",
    );
  }
  return { metric, scoreKind, paperTableName, title, rows, notes };
}

/** Column headers in the paper's order, then Avg. */
export const PAPER_TABLE_HEADERS: readonly string[] = [
  ...RESULT_COLUMN_KEYS.map((k) => RESULT_COLUMNS[k].label),
  "Avg",
];

export interface PaperTableFormatOptions {
  /** Decimals of study rows (default 1, as on the results page). Paper rows keep their printed two. */
  digits?: number;
  intervals?: IntervalStyle;
}

const PAPER_DIGITS = 2;

export function cellText(row: PaperTableRow, cell: PaperTableCell | undefined, digits: number): string {
  if (!cell) return "–";
  return row.asPrinted ? formatFixed(cell.value, PAPER_DIGITS) : formatFixed(toPercent(cell.value), digits);
}

export function averageText(row: PaperTableRow, digits: number): string {
  if (row.average === null) return "–";
  return row.asPrinted ? formatFixed(row.average, PAPER_DIGITS) : formatFixed(toPercent(row.average), digits);
}

/** Extra decimals an interval may take so that it never prints as a point (a zero-width interval claims certainty). */
const MAX_EXTRA_INTERVAL_DIGITS = 3;

/** The decimals at which low and high print differently: `digits`, or more only when they would print alike. */
export function intervalDigits(low: number, high: number, digits: number): number {
  for (let d = digits; d < digits + MAX_EXTRA_INTERVAL_DIGITS; d++) {
    if (formatFixed(toPercent(low), d) !== formatFixed(toPercent(high), d)) return d;
  }
  return digits + MAX_EXTRA_INTERVAL_DIGITS;
}

/** The decimals at which a half-width prints as more than zero. */
function halfWidthDigits(halfWidth: number, digits: number): number {
  for (let d = digits; d < digits + MAX_EXTRA_INTERVAL_DIGITS; d++) {
    if (Number(formatFixed(toPercent(halfWidth), d)) > 0) return d;
  }
  return digits + MAX_EXTRA_INTERVAL_DIGITS;
}

function intervalText(cell: PaperTableCell | undefined, digits: number, style: IntervalStyle): string | null {
  if (!cell || cell.low === undefined || cell.high === undefined) return null;
  if (style === "pm") {
    const half = (cell.high - cell.low) / 2;
    return formatFixed(toPercent(half), halfWidthDigits(half, digits));
  }
  const d = intervalDigits(cell.low, cell.high, digits);
  return `[${formatFixed(toPercent(cell.low), d)}, ${formatFixed(toPercent(cell.high), d)}]`;
}

/** Effect rows print signed numbers ("+4.2", minus as given) in LaTeX and Markdown; CSV keeps plain numbers. */
function signNumbers(text: string, minus: string, plus: string): string {
  return text.replace(/-?\d+(?:\.\d+)?/g, (m) =>
    m.startsWith("-") ? `${minus}${m.slice(1)}` : Number(m) === 0 ? m : `${plus}${m}`,
  );
}

function rowLabel(row: PaperTableRow): string {
  return row.kind === "paper"
    ? `${row.label} (${row.provenance})`
    : row.kind === "model"
      ? `${row.label} (imported run)`
      : row.label;
}

/** LaTeX special characters in text cells (model names). */
export function escapeLatex(text: string): string {
  return text.replace(/[\\{}&%$#_~^]/g, (ch) => {
    switch (ch) {
      case "\\":
        return "\\textbackslash{}";
      case "~":
        return "\\textasciitilde{}";
      case "^":
        return "\\textasciicircum{}";
      default:
        return `\\${ch}`;
    }
  });
}

const LATEX_HEADERS: readonly string[] = PAPER_TABLE_HEADERS.map((h) => h.replace("+", "$+$").replace("−", "$-$"));

/** A booktabs table (needs \usepackage{booktabs}); human intervals on a second, smaller line or as ±. */
export function formatPaperTableLatex(table: PaperTable, options: PaperTableFormatOptions = {}): string {
  const digits = options.digits ?? 1;
  const style = options.intervals ?? "line";
  const lines: string[] = [];
  const ncols = PAPER_TABLE_HEADERS.length;
  lines.push(`% ${table.title}`);
  lines.push("% Generated by misi-baseline; needs \\usepackage{booktabs}.");
  for (const n of table.notes) lines.push(`% ${n}`);
  lines.push("\\begin{table}[t]");
  lines.push("\\centering");
  lines.push("\\small");
  lines.push(`\\caption{${escapeLatex(table.title)}}`);
  lines.push(`\\begin{tabular}{l${"r".repeat(ncols)}}`);
  lines.push("\\toprule");
  lines.push(`Model & ${LATEX_HEADERS.join(" & ")} \\\\`);
  lines.push("\\midrule");
  let lastKind: PaperTableRow["kind"] | null = null;
  for (const row of table.rows) {
    if (lastKind !== null && row.kind !== lastKind) lines.push("\\midrule");
    lastKind = row.kind;
    const sign = (t: string) => (row.kind === "effect" ? signNumbers(t, "$-$", "$+$") : t);
    const cells = RESULT_COLUMN_KEYS.map((k) => {
      const main = sign(cellText(row, row.cells[k], digits));
      const iv = style === "pm" ? intervalText(row.cells[k], digits, "pm") : null;
      return iv === null ? main : `${main}\\,$\\pm$\\,${iv}`;
    });
    // "--" (an en dash in TeX) marks a missing cell, as "–" does in the other formats.
    const printed = [...cells, averageText(row, digits)].map((c) => (c === "–" ? "--" : c));
    lines.push(`${escapeLatex(rowLabel(row)).replace("−", "$-$")} & ${printed.join(" & ")} \\\\`);
    if (style === "line" && (row.kind === "human" || row.kind === "effect")) {
      const ivs = RESULT_COLUMN_KEYS.map((k) => {
        const iv = intervalText(row.cells[k], digits, "line");
        return iv === null ? null : sign(iv);
      });
      if (ivs.some((x) => x !== null)) {
        lines.push(
          `\\quad{\\scriptsize 95\\% CI} & ${[...ivs.map((x) => (x === null ? "" : `{\\scriptsize ${x}}`)), ""].join(" & ")} \\\\`,
        );
      }
    }
  }
  lines.push("\\bottomrule");
  lines.push("\\end{tabular}");
  lines.push("\\end{table}");
  return `${lines.join("\n")}\n`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([|\\*_`])/g, "\\$1");
}

/** A GitHub-flavoured Markdown table; human intervals on a second line (<br>) or as ±. */
export function formatPaperTableMarkdown(table: PaperTable, options: PaperTableFormatOptions = {}): string {
  const digits = options.digits ?? 1;
  const style = options.intervals ?? "line";
  const lines: string[] = [`**${table.title}**`, ""];
  lines.push(`| Model | ${PAPER_TABLE_HEADERS.join(" | ")} |`);
  lines.push(`|---|${PAPER_TABLE_HEADERS.map(() => "---:").join("|")}|`);
  for (const row of table.rows) {
    const sign = (t: string) => (row.kind === "effect" ? signNumbers(t, "−", "+") : t);
    const cells = RESULT_COLUMN_KEYS.map((k) => {
      const main = sign(cellText(row, row.cells[k], digits));
      const raw = intervalText(row.cells[k], digits, style);
      const iv = raw !== null && style === "line" ? sign(raw) : raw;
      if (iv === null) return main;
      return style === "pm" ? `${main} ± ${iv}` : `${main}<br>${iv}`;
    });
    lines.push(`| ${escapeMarkdown(rowLabel(row))} | ${[...cells, averageText(row, digits)].join(" | ")} |`);
  }
  lines.push("");
  for (const n of table.notes) lines.push(`- ${n}`);
  return `${lines.join("\n")}\n`;
}
