import { PAPER_TABLE_CSV_COLUMNS } from "./paper-table-csv";
import { defineExportTable, type ExportColumn } from "./columns";
import {
  ANALYSIS_SETTINGS_TABLE,
  PSYCHDS_ITEMS_TABLE,
  PSYCHDS_PARTICIPANTS_TABLE,
  PSYCHDS_TRIALS_TABLE,
  PSYCHDS_USAGE3D_TABLE,
} from "./psych-ds";
import { RESPONSES_TABLE } from "./response-table";
import { ITEM_SUMMARY_TABLE, PARTICIPANTS_TABLE, TASK_SUMMARY_TABLE } from "./summary-tables";
import { THREE_D_USAGE_TABLE } from "./three-d-usage-table";
import { VLMEVALKIT_TSV_TABLE } from "./vlmevalkit-table";

/** A file as the codebook describes it: a table's id, title, description and columns (without their getters). */
export interface DocumentedTable {
  id: string;
  title: string;
  description: string;
  columns: readonly Omit<ExportColumn<never>, "get">[];
}

/**
 * The paper-style tables as CSV (npm run export -- --what paper-table --format csv): its header is not snake_case (the
 * paper's column labels), so it is documented from PAPER_TABLE_CSV_COLUMNS, which also writes that header.
 */
export const PAPER_TABLE_CSV_DOC: DocumentedTable = {
  id: "paper_table",
  title: "Paper-style tables (CSV)",
  description:
    "One row per table row of the paper's Table 1 (partial credit) and/or Table 2 (exact match): this study's human row, one row per imported model run (item-matched), then the paper's published rows as reported. Numbers are percent as printed on the results page.",
  columns: PAPER_TABLE_CSV_COLUMNS,
};

/** Every exported file, in the order the codebook lists them. */
export const EXPORT_TABLES: readonly DocumentedTable[] = [
  RESPONSES_TABLE,
  TASK_SUMMARY_TABLE,
  ITEM_SUMMARY_TABLE,
  PARTICIPANTS_TABLE,
  THREE_D_USAGE_TABLE,
  VLMEVALKIT_TSV_TABLE,
  PAPER_TABLE_CSV_DOC,
  PSYCHDS_TRIALS_TABLE,
  PSYCHDS_PARTICIPANTS_TABLE,
  PSYCHDS_ITEMS_TABLE,
  PSYCHDS_USAGE3D_TABLE,
  ANALYSIS_SETTINGS_TABLE,
] as unknown as readonly DocumentedTable[];

/** One codebook line: a column of an exported file. */
export interface CodebookEntry {
  table: string;
  tableTitle: string;
  tableDescription: string;
  column: string;
  position: number;
  type: string;
  unit: string | null;
  values: string | null;
  description: string;
}

/** The codebook, generated from the column definitions themselves (so it cannot drift from the files). */
export function buildCodebook(tables: readonly DocumentedTable[] = EXPORT_TABLES): CodebookEntry[] {
  return tables.flatMap((t) =>
    t.columns.map((c, i) => ({
      table: t.id,
      tableTitle: t.title,
      tableDescription: t.description,
      column: c.key,
      position: i + 1,
      type: c.type,
      unit: c.unit ?? null,
      values: c.values ? c.values.join(" | ") : null,
      description: c.description,
    })),
  );
}

export const CODEBOOK_TABLE = defineExportTable<CodebookEntry>({
  id: "codebook",
  title: "Codebook",
  description: "One row per column of every exported file.",
  columns: [
    {
      key: "table",
      type: "string",
      description: "Exported file (table id, also the file-name stem).",
      get: (r) => r.table,
    },
    { key: "table_title", type: "string", description: "The file's title.", get: (r) => r.tableTitle },
    {
      key: "table_description",
      type: "string",
      description: "What one row of the file is.",
      get: (r) => r.tableDescription,
    },
    { key: "column", type: "string", description: "Column header.", get: (r) => r.column },
    {
      key: "position",
      type: "integer",
      description: "1-based position of the column in the file.",
      get: (r) => r.position,
    },
    {
      key: "type",
      type: "string",
      values: ["string", "integer", "number", "boolean", "datetime", "json"],
      description: "How to read the value.",
      get: (r) => r.type,
    },
    { key: "unit", type: "string", description: "Unit of a numeric column.", get: (r) => r.unit },
    {
      key: "values",
      type: "string",
      description: "Allowed values of a categorical column, separated by ' | '.",
      get: (r) => r.values,
    },
    { key: "description", type: "string", description: "What the value means.", get: (r) => r.description },
  ],
});

/** The codebook as Markdown (one section per file), for a README or a data paper's supplement. */
export function formatCodebookMarkdown(tables: readonly DocumentedTable[] = EXPORT_TABLES): string {
  const escape = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const sections = tables.map((t) => {
    const lines = [
      `## ${t.title} (\`${t.id}\`)`,
      "",
      t.description,
      "",
      "| column | type | unit | values | description |",
      "|---|---|---|---|---|",
    ];
    for (const c of t.columns) {
      lines.push(
        `| \`${c.key}\` | ${c.type} | ${escape(c.unit ?? "")} | ${escape(c.values?.join(", ") ?? "")} | ${escape(c.description)} |`,
      );
    }
    return lines.join("\n");
  });
  return `# Codebook\n\n${sections.join("\n\n")}\n`;
}
