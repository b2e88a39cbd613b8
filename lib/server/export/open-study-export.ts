import "server-only";
import { Readable } from "node:stream";
import { buildCodebook, CODEBOOK_TABLE, formatCodebookMarkdown } from "@/lib/export/codebook";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import {
  ITEM_SUMMARY_TABLE,
  PARTICIPANTS_TABLE,
  TASK_SUMMARY_TABLE,
  toTaskSummaryRows,
} from "@/lib/export/summary-tables";
import { THREE_D_USAGE_TABLE } from "@/lib/export/three-d-usage-table";
import { VLMEVALKIT_TSV_TABLE } from "@/lib/export/vlmevalkit-table";
import { iterateThreeDUsageRows } from "@/lib/server/dal/results/get-three-d-usage";
import { analyzeScopeRecords } from "@/lib/server/dal/results/get-item-analysis";
import { summarizeScopeRecords } from "@/lib/server/dal/results/get-study-results";
import { loadScopeRecords } from "@/lib/server/dal/results/results-cache";
import { resolveResultsScope, type ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { databaseUrl } from "@/lib/server/env";
import { AppError } from "@/lib/server/errors";
import { iterateParticipantRows } from "./iterate-participant-rows";
import { iterateResponseRows } from "./iterate-response-rows";
import { createResponsesChildStream } from "./responses-child-stream";
import { toMaxSidePx, type TsvImageSize } from "./tsv-image";
import { iterateVlmevalkitRows } from "./iterate-vlmevalkit-rows";
import { openPaperTableExport, type PaperTableExportOptions } from "./paper-table-export";
import { openPsychDsArchive } from "./psych-ds-export";
import { createTableStream } from "./table-stream";
import { heavyBudgets } from "@/lib/server/heavy/budgets";
import { insideHeavyWorker } from "@/lib/server/heavy/in-worker";
import { runHeavyJob } from "@/lib/server/heavy/pool";
import { studyRevision } from "@/lib/server/dal/results/results-cache";
import type { HeavyCaller } from "@/lib/server/heavy/pool";
import { isHeavyExportKind } from "./heavy-export";

/** What can be exported for a study; the URL segment and the CLI's --what use these names. */
export const STUDY_EXPORT_KINDS = [
  "responses",
  "task-summary",
  "item-summary",
  "participants",
  "three-d-usage",
  "vlmevalkit-tsv",
  "paper-table",
  "psych-ds",
] as const;
export type StudyExportKind = (typeof STUDY_EXPORT_KINDS)[number];

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
export const TSV_CONTENT_TYPE = "text/tab-separated-values; charset=utf-8";

export interface OpenedExport {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/**
 * Opens a streamed export of a study (or of every study on its pool version, scope "pool"). The
 * study is looked up first, so an unknown id fails before any byte is sent. Contains gold answers:
 * callers must be researchers.
 */
export async function openStudyExport(options: {
  studyId: string;
  kind: StudyExportKind;
  scope?: ResultsScope;
  /** VLMEvalKit TSV: longest image side (default: the stored size). */
  imageSize?: TsvImageSize;
  /** Options of the paper-style tables (kind "paper-table"). */
  paperTable?: Omit<PaperTableExportOptions, "studyId" | "scope">;
  /** Who asks and their request's signal: a large study's computed export is their heavy job, dropped if they leave. */
  caller?: HeavyCaller;
}): Promise<OpenedExport> {
  if (isHeavyExportKind(options.kind) && !insideHeavyWorker()) {
    // A large study's computed exports are built in the heavy-work pool: its worker reads the records itself.
    const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
    if ((await studyRevision(scope.studyIds)).nResponses >= heavyBudgets.HEAVY_RESULTS_MIN_RECORDS) {
      const built = await runHeavyJob(
        "studyExport",
        {
          studyId: options.studyId,
          kind: options.kind,
          scope: scope.scope,
          ...(options.paperTable ? { paperTable: options.paperTable } : {}),
        },
        {
          ...(options.caller?.owner ? { owner: options.caller.owner } : {}),
          ...(options.caller?.signal ? { signal: options.caller.signal } : {}),
        },
      );
      return {
        fileName: built.fileName,
        contentType: built.contentType,
        stream: Readable.from([Buffer.from(built.bytes)]),
      };
    }
  }
  if (options.kind === "paper-table") {
    const t = await openPaperTableExport(
      {
        ...options.paperTable,
        studyId: options.studyId,
        scope: options.scope ?? "study",
      },
      options.caller,
    );
    return { fileName: t.fileName, contentType: t.contentType, stream: Readable.from([t.body]) };
  }
  const scope = await resolveResultsScope(options.studyId, options.scope ?? "study");
  const stem = `${scope.study.slug}${scope.scope === "pool" ? "-pool" : ""}`;
  const csv = (name: string, stream: Readable): OpenedExport => ({
    fileName: `${stem}-${name}.csv`,
    contentType: CSV_CONTENT_TYPE,
    stream,
  });
  switch (options.kind) {
    case "responses":
      // A child process with capped heaps reads and formats the rows (responses-child-stream.ts): the rows' garbage
      // never grows this process. EXPORT_IN_PROCESS=1 streams them here instead (faster, more memory; bench/export.mts).
      if (process.env.EXPORT_IN_PROCESS === "1")
        return csv("responses", createTableStream(RESPONSES_TABLE, iterateResponseRows(scope.studyIds)));
      return csv("responses", createResponsesChildStream({ databaseUrl, studyId: scope.study.id, scope: scope.scope }));
    case "participants":
      return csv("participants", createTableStream(PARTICIPANTS_TABLE, iterateParticipantRows(scope.studyIds)));
    case "three-d-usage":
      return csv("three-d-usage", createTableStream(THREE_D_USAGE_TABLE, iterateThreeDUsageRows(scope.studyIds)));
    case "task-summary": {
      const results = await summarizeScopeRecords(scope, await loadScopeRecords(scope.studyIds), {}, options.caller);
      if (results.problems.length > 0)
        throw new AppError("UNPROCESSABLE", "The responses failed validation; see the results page.", {
          problems: results.problems,
        });
      return csv(
        "task-summary",
        createTableStream(TASK_SUMMARY_TABLE, results.summary ? toTaskSummaryRows(results.summary) : []),
      );
    }
    case "item-summary": {
      const { records } = await loadScopeRecords(scope.studyIds);
      const analysis = await analyzeScopeRecords(records);
      if (analysis.problems.length > 0)
        throw new AppError("UNPROCESSABLE", "The responses failed validation; see the results page.", {
          problems: analysis.problems,
        });
      const rows = analysis.items.map((i) => ({
        stats: i,
        externalId: i.externalId,
        status: i.status,
        goldAnswer: i.goldAnswer,
      }));
      return csv("item-summary", createTableStream(ITEM_SUMMARY_TABLE, rows));
    }
    case "psych-ds":
      // The analysis package (Psych-DS dataset + R/Python scripts) as one .tar.gz with a top folder of the same name.
      return {
        fileName: `${stem}-psych-ds.tar.gz`,
        contentType: "application/gzip",
        stream: await openPsychDsArchive({ studyId: scope.study.id, scope: scope.scope, root: `${stem}-psych-ds` }),
      };
    case "vlmevalkit-tsv":
      return {
        fileName: `${scope.study.slug}-items-vlmevalkit${options.imageSize && options.imageSize !== "original" ? `-${options.imageSize}px` : ""}.tsv`,
        contentType: TSV_CONTENT_TYPE,
        stream: createTableStream(
          VLMEVALKIT_TSV_TABLE,
          iterateVlmevalkitRows(scope.poolVersion.id, { maxSidePx: toMaxSidePx(options.imageSize) }),
          { delimiter: "\t", neutralizeFormulas: false },
        ),
      };
  }
}

/** The codebook of every exported file, as CSV (default) or Markdown. */
export function openCodebookExport(format: "csv" | "md" = "csv"): OpenedExport {
  if (format === "md") {
    return {
      fileName: "codebook.md",
      contentType: "text/markdown; charset=utf-8",
      stream: Readable.from([formatCodebookMarkdown()]),
    };
  }
  return {
    fileName: "codebook.csv",
    contentType: CSV_CONTENT_TYPE,
    stream: createTableStream(CODEBOOK_TABLE, buildCodebook()),
  };
}
