import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as tar from "tar-stream";
import type { ExportTable } from "@/lib/export/columns";
import {
  ANALYSIS_SETTINGS_TABLE,
  analysisSettingRows,
  buildDatasetDescription,
  PSYCHDS_ITEMS_TABLE,
  PSYCHDS_PARTICIPANTS_TABLE,
  PSYCHDS_TRIALS_TABLE,
  PSYCHDS_USAGE3D_TABLE,
  psychDsDataFileName,
  type AnalysisSettings,
  type PsychDsTrialRow,
} from "@/lib/export/psych-ds";
import { DEFAULT_BOOTSTRAP_REPLICATES } from "@/lib/stats/bootstrap";
import { CONDITION_EFFECT_DEFAULT_SEED } from "@/lib/stats/crossed-bootstrap";
import { analyzeScopeRecords } from "@/lib/server/dal/results/get-item-analysis";
import { listExcludedParticipantIds, readExclusionPolicy } from "@/lib/server/dal/results/get-integrity";
import { iterateThreeDUsageRows } from "@/lib/server/dal/results/get-three-d-usage";
import { defaultResultsSeed } from "@/lib/server/dal/results/get-study-results";
import { loadScopeRecords } from "@/lib/server/dal/results/results-cache";
import { resolveResultsScope, type ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { AppError } from "@/lib/server/errors";
import { iterateParticipantRows } from "./iterate-participant-rows";
import { iterateResponseRows } from "./iterate-response-rows";
import { createTableStream } from "./table-stream";

/** The analysis scripts as shipped in the package (read from the app's source tree; `next start` and the CLI run from it). */
export const ANALYSIS_SCRIPT_DIR = path.join(process.cwd(), "lib", "export", "psych-ds");
export const ANALYSIS_SCRIPTS = ["analysis.R", "analysis.py"] as const;

const APP_VERSION = "misi-baseline 0.1.0";

export interface PsychDsExportResult {
  dir: string;
  files: string[];
  nTrials: number;
  nParticipants: number;
  nItems: number;
}

async function writeTable<Row>(
  file: string,
  table: ExportTable<Row>,
  rows: AsyncIterable<Row> | Iterable<Row>,
): Promise<void> {
  // Read by R and pandas, not by a spreadsheet: no apostrophes before formula-like text (canonical answers such as
  // "-" stay as they are); the package leaves out the free-text and recruitment-id columns that could carry them.
  await pipeline(createTableStream(table, rows, { neutralizeFormulas: false }), fs.createWriteStream(file));
}

/** `dir` with data/ and analysis/ in it, or a clear error when it is a file, not empty, or cannot be made. */
function prepareOutputFolder(dir: string): void {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir, { throwIfNoEntry: false });
  } catch (err) {
    // ENOTDIR: a parent of `dir` is a file.
    throw new AppError(
      "UNPROCESSABLE",
      `cannot create the output folder ${dir} (${(err as NodeJS.ErrnoException).code ?? String(err)}): a parent is a file or not readable; give a new or empty folder`,
    );
  }
  if (stat && !stat.isDirectory())
    throw new AppError("UNPROCESSABLE", `output ${dir} is a file, not a folder; give a new or empty folder`);
  if (stat && fs.readdirSync(dir).length > 0)
    throw new AppError("UNPROCESSABLE", `output folder ${dir} is not empty; give a new or empty folder`);
  try {
    fs.mkdirSync(path.join(dir, "data"), { recursive: true });
    fs.mkdirSync(path.join(dir, "analysis"), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOTDIR / EEXIST: a file where a parent folder should be; EACCES / EROFS: no permission to create it.
    throw new AppError(
      "UNPROCESSABLE",
      `cannot create the output folder ${dir} (${code ?? String(err)}): a parent is a file or not writable; give a new or empty folder`,
    );
  }
}

/**
 * Writes the analysis package of a study (or of every study on its pool version) into `dir`, which must not exist or
 * be empty: dataset_description.json, data/ (trials, participants, items, 3D usage), analysis/ (settings.csv, analysis.R,
 * analysis.py). Trials are the responses export's rows of the main phase, in_results marking the ones the results
 * page counts (the record list it summarises, read once: answers stored after that read are not in the package), with
 * the fair score the page computed for each.
 */
export async function writePsychDsDataset(options: {
  studyId: string;
  scope?: ResultsScope;
  dir: string;
  now?: Date;
}): Promise<PsychDsExportResult> {
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const dir = path.resolve(options.dir);
  prepareOutputFolder(dir);

  const loaded = await loadScopeRecords(scope.studyIds);
  const leftOut = new Set(loaded.skipped.map((s) => s.responseId));
  const files = {
    trials: psychDsDataFileName(scope.study.id, "trials"),
    participants: psychDsDataFileName(scope.study.id, "participants"),
    items: psychDsDataFileName(scope.study.id, "items"),
    usage3d: psychDsDataFileName(scope.study.id, "usage3d"),
  };
  // The results page's integrity section applies the viewed study's policy to every participant of the scope.
  const policy = await readExclusionPolicy(scope.study.id);
  const excluded = new Set(await listExcludedParticipantIds(scope, loaded));

  // The records the page summarises, by (participant, item): one main-phase answer each (Assignment is unique on them).
  const recordOf = new Map(loaded.records.map((r) => [`${r.participantId}\u0000${r.itemId}`, r]));
  let nTrials = 0;
  const participants = new Set<string>();
  const items = new Set<string>();
  async function* trials(): AsyncGenerator<PsychDsTrialRow> {
    for await (const row of iterateResponseRows(scope.studyIds)) {
      if (row.phase !== "main") continue;
      if (leftOut.has(row.responseId)) {
        yield { ...row, inResults: false, excluded: excluded.has(row.participantId) };
        continue;
      }
      const record = recordOf.get(`${row.participantId}\u0000${row.itemId}`);
      // Stored after the records were read: not in this snapshot of the results, so not in the package either.
      if (!record) continue;
      nTrials++;
      participants.add(row.participantId);
      items.add(row.itemId);
      yield {
        ...row,
        inResults: true,
        excluded: excluded.has(row.participantId),
        fairExact: record.fairExact,
        fairPartial: record.fairPartial,
        fairF1: record.fairF1,
      };
    }
  }
  await writeTable(path.join(dir, "data", files.trials), PSYCHDS_TRIALS_TABLE, trials());
  await writeTable(
    path.join(dir, "data", files.participants),
    PSYCHDS_PARTICIPANTS_TABLE,
    iterateParticipantRows(scope.studyIds, { policy }),
  );
  const analysis = await analyzeScopeRecords(loaded.records);
  if (analysis.problems.length > 0)
    throw new AppError("UNPROCESSABLE", "The responses failed validation; see the results page.", {
      problems: analysis.problems,
    });
  await writeTable(
    path.join(dir, "data", files.items),
    PSYCHDS_ITEMS_TABLE,
    analysis.items.map((i) => ({ stats: i, externalId: i.externalId, status: i.status, goldAnswer: i.goldAnswer })),
  );

  await writeTable(
    path.join(dir, "data", files.usage3d),
    PSYCHDS_USAGE3D_TABLE,
    iterateThreeDUsageRows(scope.studyIds),
  );

  const settings: AnalysisSettings = {
    studyId: scope.study.id,
    scope: scope.scope,
    resultsSeed: defaultResultsSeed(scope.study.id, scope.scope),
    resultsReplicates: DEFAULT_BOOTSTRAP_REPLICATES,
    confidence: 0.95,
    // As the page: the contract's fixed seed, the page's replicate count (lib/results/summarize.ts conditionEffect).
    conditionSeed: CONDITION_EFFECT_DEFAULT_SEED,
    conditionReplicates: DEFAULT_BOOTSTRAP_REPLICATES,
    exclusionPolicy: policy,
    files,
  };
  await writeTable(path.join(dir, "analysis", "settings.csv"), ANALYSIS_SETTINGS_TABLE, analysisSettingRows(settings));
  for (const script of ANALYSIS_SCRIPTS)
    fs.copyFileSync(path.join(ANALYSIS_SCRIPT_DIR, script), path.join(dir, "analysis", script));

  const description = buildDatasetDescription({
    study: scope.study,
    scope: scope.scope,
    poolName: scope.poolVersion.poolName,
    poolVersion: scope.poolVersion.version,
    createdAt: (options.now ?? new Date()).toISOString(),
    nTrials,
    nParticipants: participants.size,
    nItems: items.size,
    appVersion: APP_VERSION,
  });
  fs.writeFileSync(path.join(dir, "dataset_description.json"), `${JSON.stringify(description, null, 2)}\n`);
  return {
    dir,
    files: [
      "dataset_description.json",
      ...Object.values(files).map((f) => `data/${f}`),
      "analysis/settings.csv",
      ...ANALYSIS_SCRIPTS.map((s) => `analysis/${s}`),
    ],
    nTrials,
    nParticipants: participants.size,
    nItems: items.size,
  };
}

/** Every file under `dir`, relative, in a stable order. */
function listFiles(dir: string, prefix = ""): string[] {
  return fs
    .readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) =>
      e.isDirectory() ? listFiles(dir, path.posix.join(prefix, e.name)) : [path.posix.join(prefix, e.name)],
    );
}

/**
 * The package as a .tar.gz under one top folder `root` (the results page's download): written to a temporary folder
 * first (the data files are streamed from the database), packed, and the folder removed when the stream ends.
 */
export async function openPsychDsArchive(options: {
  studyId: string;
  scope?: ResultsScope;
  root: string;
}): Promise<Readable> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "misi-psychds-"));
  const cleanup = () => fs.rmSync(temp, { recursive: true, force: true });
  try {
    await writePsychDsDataset({ studyId: options.studyId, scope: options.scope, dir: temp });
  } catch (err) {
    cleanup();
    throw err;
  }
  const pack = tar.pack();
  const gzip = createGzip();
  (async () => {
    // File by file from disk: a large study's trial file is never held in memory whole.
    for (const rel of listFiles(temp)) {
      const file = path.join(temp, rel);
      const entry = pack.entry({
        name: `${options.root}/${rel}`,
        size: fs.statSync(file).size,
        mode: rel.startsWith("analysis/analysis.") ? 0o755 : 0o644,
        mtime: new Date(),
      });
      await pipeline(fs.createReadStream(file), entry);
    }
    pack.finalize();
  })().catch((err: unknown) => pack.destroy(err as Error));
  const out = pack.pipe(gzip);
  out.once("close", cleanup);
  out.once("end", cleanup);
  out.once("error", cleanup);
  return out;
}
