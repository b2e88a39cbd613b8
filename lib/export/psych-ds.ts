import { activeRules, describeRule, type ExclusionPolicy } from "@/lib/participant/integrity";
import { defineExportTable, type ExportColumn, type ExportTable } from "./columns";
import { RESPONSES_TABLE, type ResponseExportRow } from "./response-table";
import { ITEM_SUMMARY_TABLE, PARTICIPANTS_TABLE, type ParticipantExportRow } from "./summary-tables";
import { THREE_D_USAGE_TABLE } from "./three-d-usage-table";

/*
 * The analysis package: a Psych-DS dataset (psych-ds.github.io; rules as documented at
 * psychds-docs.readthedocs.io, "Rules and Conventions" and the DataFile schema object):
 * - dataset_description.json at the root: JSON-LD with @context https://schema.org, @type Dataset, name,
 *   description and variableMeasured naming every column header of every data file;
 * - data/: CSV files named by keyword-value pairs ending in _data.csv
 *   (([a-z]+-[a-zA-Z0-9]+)(_[a-z]+-[a-zA-Z0-9]+)*_data\.csv);
 * - analysis/: the R and Python scripts that recompute the results page and fit the condition model.
 * Column definitions are the other exports' own (lib/export/response-table, summary-tables), so the codebook,
 * the CSV headers and variableMeasured come from one definition.
 */

/** Columns of the responses export the package leaves out: recruitment ids, free text and browser details. */
const TRIAL_COLUMNS_LEFT_OUT: ReadonlySet<string> = new Set([
  "participant_external_id",
  "raw_answer",
  "device",
  "phase",
]);
const PARTICIPANT_COLUMNS_LEFT_OUT: ReadonlySet<string> = new Set(["participant_external_id"]);

/** One main-phase answer of the trial-level file: the responses export's row plus what the results page made of it. */
export interface PsychDsTrialRow extends ResponseExportRow {
  inResults: boolean;
  /** The study's exclusion policy excludes this answer's participant (lib/results/exclusions excludedParticipantIds). */
  excluded: boolean;
  /** The fair score the results page computed for the answer (lib/tasks/fair-score.ts); absent where it uses the paper score. */
  fairExact?: 0 | 1;
  fairPartial?: number;
  fairF1?: number;
}

function without<Row>(table: ExportTable<Row>, leftOut: ReadonlySet<string>): ExportColumn<Row>[] {
  return table.columns.filter((c) => !leftOut.has(c.key));
}

/**
 * Trial level: every column of the responses export (lib/export/response-table.ts RESPONSES_TABLE) except those left
 * out above, then in_results. A per-answer column added to RESPONSES_TABLE (with its row field) appears here, in
 * variableMeasured and in the codebook without further change.
 */
export const PSYCHDS_TRIALS_TABLE = defineExportTable<PsychDsTrialRow>({
  id: "psychds_trials",
  title: "Analysis package: trials (data/study-<id>_table-trials_data.csv)",
  description:
    "One row per main-phase answer (the responses export's columns without recruitment ids, raw answer text, device and phase). The results page and analysis/ use the rows with in_results = 1.",
  columns: [
    ...without<PsychDsTrialRow>(RESPONSES_TABLE as ExportTable<PsychDsTrialRow>, TRIAL_COLUMNS_LEFT_OUT),
    {
      key: "fair_exact",
      type: "integer",
      values: ["0", "1"],
      description:
        "The fair exact score the results page shows after the paper's (lib/tasks/fair-score.ts): on ResLig (T4) and PocLig (T9) chemically equivalent atom names (ARG NH1/NH2, ASP OD1/OD2, GLU OE1/OE2, C-terminal O/OXT, PHE/TYR ring pairs) count as one. Empty where the page uses exact instead (other tasks).",
      get: (r) => r.fairExact,
    },
    {
      key: "fair_partial",
      type: "number",
      unit: "fraction in [0, 1]",
      description:
        "The fair partial credit (precision with the same equivalence); empty where the page uses partial instead.",
      get: (r) => r.fairPartial,
    },
    {
      key: "fair_f1",
      type: "number",
      unit: "fraction in [0, 1]",
      description:
        "F1 of the answered H-bond set against the gold, with the same equivalence (T4 and T9 only; empty elsewhere).",
      get: (r) => r.fairF1,
    },
    {
      key: "in_results",
      type: "integer",
      values: ["0", "1"],
      description:
        "1 when the results page counts this answer; 0 when it is left out and listed on the page as such (task unknown to the results, T4 item whose gold cannot be classified Pos./Neg., no answer key for the fair score).",
      get: (r) => (r.inResults ? 1 : 0),
    },
    {
      key: "excluded",
      type: "integer",
      values: ["0", "1"],
      description:
        "1 when the study's exclusion policy excludes this answer's participant (the participants file's excluded_by is not empty): every estimate of the results page and of analysis/ leaves these answers out by default and reports the figures with them beside.",
      get: (r) => (r.excluded ? 1 : 0),
    },
  ],
});

export const PSYCHDS_PARTICIPANTS_TABLE = defineExportTable<ParticipantExportRow>({
  id: "psychds_participants",
  title: "Analysis package: participants (data/study-<id>_table-participants_data.csv)",
  description:
    "One row per participant who entered the study (the participants export without the recruitment platform's id).",
  columns: without(PARTICIPANTS_TABLE, PARTICIPANT_COLUMNS_LEFT_OUT),
});

export const PSYCHDS_ITEMS_TABLE = defineExportTable({
  ...ITEM_SUMMARY_TABLE,
  id: "psychds_items",
  title: "Analysis package: items (data/study-<id>_table-items_data.csv)",
  description: `${ITEM_SUMMARY_TABLE.description} (the item-summary export).`,
});

export const PSYCHDS_USAGE3D_TABLE = defineExportTable({
  ...THREE_D_USAGE_TABLE,
  id: "psychds_usage3d",
  title: "Analysis package: 3D view usage (data/study-<id>_table-usage3d_data.csv)",
  description: `${THREE_D_USAGE_TABLE.description} (the 3D-usage export; the results page's "How the 3D view was used" section summarises these answers).`,
});

/** The package's data files in the order they are written, with the `table` keyword of their file name. */
export const PSYCHDS_DATA_FILES = [
  { keyword: "trials", table: PSYCHDS_TRIALS_TABLE as unknown as ExportTable<never> },
  { keyword: "participants", table: PSYCHDS_PARTICIPANTS_TABLE as unknown as ExportTable<never> },
  { keyword: "items", table: PSYCHDS_ITEMS_TABLE as unknown as ExportTable<never> },
  { keyword: "usage3d", table: PSYCHDS_USAGE3D_TABLE as unknown as ExportTable<never> },
] as const;

export type PsychDsFileKeyword = (typeof PSYCHDS_DATA_FILES)[number]["keyword"];

/** Psych-DS keyword values are [a-zA-Z0-9]+: other characters of an id are dropped. */
export function psychDsKeywordValue(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9]/g, "");
  if (cleaned === "") throw new RangeError(`'${value}' has no letters or digits to use as a Psych-DS keyword value`);
  return cleaned;
}

/** data/study-<id>_table-<kind>_data.csv (study and table are keywords; "table" is not one of the official ones). */
export function psychDsDataFileName(studyId: string, keyword: PsychDsFileKeyword): string {
  return `study-${psychDsKeywordValue(studyId)}_table-${keyword}_data.csv`;
}

/** The Psych-DS file-name rule for data files (DataFile.fileRegex in the standard's schema). */
export const PSYCHDS_DATA_FILE_PATTERN = /^([a-z]+-[a-zA-Z0-9]+)(_[a-z]+-[a-zA-Z0-9]+)*_data\.csv$/;

/** A schema.org PropertyValue describing one column (Psych-DS variableMeasured entry). */
export interface PropertyValue {
  "@type": "PropertyValue";
  name: string;
  description: string;
  /** Schema.org unitText: the unit of a numeric column. */
  unitText?: string;
  /** The closed set of values of a categorical column. */
  value?: string[];
  /** How to read the value (string, integer, number, boolean, datetime, json). */
  additionalType: string;
}

/**
 * variableMeasured from the column definitions: one entry per distinct header across the data files. A header shared
 * by several files with different descriptions gets them all, each after its file's name.
 */
export function buildVariableMeasured(
  files: readonly { keyword: string; table: ExportTable<never> }[] = PSYCHDS_DATA_FILES,
): PropertyValue[] {
  const byName = new Map<string, { column: ExportColumn<never>; uses: { keyword: string; description: string }[] }>();
  for (const f of files) {
    for (const c of f.table.columns) {
      const entry = byName.get(c.key);
      if (entry) entry.uses.push({ keyword: f.keyword, description: c.description });
      else byName.set(c.key, { column: c, uses: [{ keyword: f.keyword, description: c.description }] });
    }
  }
  return [...byName.entries()].map(([name, { column, uses }]) => {
    const distinct = [...new Set(uses.map((u) => u.description))];
    const description =
      distinct.length === 1
        ? (distinct[0] as string)
        : uses.map((u) => `${u.keyword} file: ${u.description}`).join(" ");
    return {
      "@type": "PropertyValue" as const,
      name,
      description,
      additionalType: column.type,
      ...(column.unit ? { unitText: column.unit } : {}),
      ...(column.values ? { value: [...column.values] } : {}),
    };
  });
}

/** What analysis/settings.csv holds: everything the scripts need besides the data files to reproduce the page. */
export interface AnalysisSettings {
  studyId: string;
  scope: "study" | "pool";
  /** The results page's bootstrap seed (each interval derives its own from it, the group and the column). */
  resultsSeed: string;
  resultsReplicates: number;
  confidence: number;
  /** The crossed bootstrap of the condition effect (Park–Miller seed and replicates). */
  conditionSeed: number;
  conditionReplicates: number;
  /** The active rules of the exclusion policy the results page applies (the viewed study's), in the page's order. */
  /** The exclusion policy the results page applies (its active rules and their thresholds go into settings.csv). */
  exclusionPolicy: ExclusionPolicy;
  files: Record<PsychDsFileKeyword, string>;
}

export interface AnalysisSettingRow {
  setting: string;
  value: string | number;
  description: string;
}

/** analysis/settings.csv rows (a two-column CSV both scripts read without a JSON library). */
export function analysisSettingRows(s: AnalysisSettings): AnalysisSettingRow[] {
  return [
    { setting: "studyId", value: s.studyId, description: "Study the package was exported from." },
    {
      setting: "scope",
      value: s.scope,
      description: "study: this study's answers; pool: every study on its pool version.",
    },
    {
      setting: "resultsSeed",
      value: s.resultsSeed,
      description: "The results page's bootstrap seed; each interval uses '<seed>|<group>|<column>|<metric>'.",
    },
    {
      setting: "resultsReplicates",
      value: s.resultsReplicates,
      description: "Bootstrap replicates per interval on the results page.",
    },
    { setting: "confidence", value: s.confidence, description: "Confidence level of every interval." },
    {
      setting: "conditionSeed",
      value: s.conditionSeed,
      description: "Park–Miller seed of the crossed bootstrap of the condition effect.",
    },
    {
      setting: "conditionReplicates",
      value: s.conditionReplicates,
      description: "Replicates of the crossed bootstrap of the condition effect.",
    },
    {
      setting: "exclusionRules",
      value: activeRules(s.exclusionPolicy).join(" | "),
      description:
        "Active rules of the exclusion policy the results page applies (the exported study's), separated by ' | '; empty: no policy. The participants file's excluded_by is computed with this policy.",
    },
    // One row per active rule with its threshold (true for the on/off rules), so the policy can be read without the app.
    ...activeRules(s.exclusionPolicy).map((rule) => ({
      setting: `exclusion.${rule}`,
      value:
        typeof s.exclusionPolicy[rule] === "boolean"
          ? String(s.exclusionPolicy[rule])
          : (s.exclusionPolicy[rule] as number),
      description: `Exclusion rule threshold: ${describeRule(rule, s.exclusionPolicy)}.`,
    })),
    { setting: "trialsFile", value: s.files.trials, description: "Trial-level data file under data/." },
    { setting: "participantsFile", value: s.files.participants, description: "Participants file under data/." },
    { setting: "itemsFile", value: s.files.items, description: "Items file under data/." },
    { setting: "usage3dFile", value: s.files.usage3d, description: "3D view usage file under data/." },
  ];
}

export const ANALYSIS_SETTINGS_TABLE = defineExportTable<AnalysisSettingRow>({
  id: "psychds_analysis_settings",
  title: "Analysis package: analysis/settings.csv",
  description: "One row per setting the analysis scripts read besides the data files.",
  columns: [
    { key: "setting", type: "string", description: "Setting name.", get: (r) => r.setting },
    { key: "value", type: "string", description: "Its value.", get: (r) => r.value },
    { key: "description", type: "string", description: "What it is.", get: (r) => r.description },
  ],
});

export interface DatasetDescriptionInput {
  study: { id: string; slug: string; name: string };
  scope: "study" | "pool";
  poolName: string;
  poolVersion: number;
  /** ISO 8601 time the package was made. */
  createdAt: string;
  nTrials: number;
  nParticipants: number;
  nItems: number;
  /** The app that wrote the package (schema.org version of the dataset's form). */
  appVersion: string;
}

/** The dataset_description.json object (Psych-DS required fields plus schema.org fields that describe the study). */
export function buildDatasetDescription(input: DatasetDescriptionInput): Record<string, unknown> {
  const scopeText =
    input.scope === "pool"
      ? `every study on pool ${input.poolName} v${input.poolVersion}`
      : `study ${input.study.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "Dataset",
    name: `MiSI-Bench human baseline: ${input.study.name}${input.scope === "pool" ? " (all studies on its pool version)" : ""}`,
    description:
      `Human answers to MiSI-Bench questions (microscopic spatial intelligence: spatial reasoning about protein–ligand complexes) from ${scopeText}, ` +
      `pool ${input.poolName} v${input.poolVersion}: ${input.nTrials} main-phase answers by ${input.nParticipants} participants on ${input.nItems} items, ` +
      "in a static-image and/or an interactive 3D condition. data/ holds the trial-level answers, the participants, the items and the 3D view usage of interactive answers; " +
      "analysis/analysis.R (base R + lme4) and analysis/analysis.py (pandas + statsmodels) recompute the results page's per-task accuracies, " +
      "their intervals, the interactive − static condition effect, accuracy with and without the exclusion policy and the 3D view usage, and fit the condition model.",
    identifier: `misi-baseline:${input.scope}:${input.study.id}`,
    dateCreated: input.createdAt,
    keywords: ["MiSI-Bench", "human baseline", "spatial reasoning", "protein-ligand", "Psych-DS"],
    creator: { "@type": "Organization", name: "misi-baseline" },
    isAccessibleForFree: false,
    conditionsOfAccess: "Exported by a researcher of the study; contains the items' gold answers.",
    measurementTechnique: "Online study (misi-baseline web app); answers scored by the MiSI-Bench task graders.",
    variableMeasured: buildVariableMeasured(),
    version: input.appVersion,
  };
}
