import "server-only";
import type { ResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { openStudyExport, type StudyExportKind } from "./open-study-export";
import type { PaperTableExportOptions } from "./paper-table-export";

/**
 * The exports computed from a whole study's records (summaries with bootstrap intervals, the item analysis, the paper
 * tables, the analysis package): for a large study they are built in a heavy-work worker (open-study-export.ts), and
 * the server only passes the finished bytes on. The responses export has its own child process; the participants,
 * 3D-usage and TSV exports stream page by page and stay in the server.
 */
export const HEAVY_EXPORT_KINDS = [
  "task-summary",
  "item-summary",
  "paper-table",
  "psych-ds",
] as const satisfies readonly StudyExportKind[];

export interface HeavyExportOptions {
  studyId: string;
  kind: (typeof HEAVY_EXPORT_KINDS)[number];
  scope: ResultsScope;
  paperTable?: Omit<PaperTableExportOptions, "studyId" | "scope">;
}

export interface CollectedExport {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export function isHeavyExportKind(kind: StudyExportKind): kind is HeavyExportOptions["kind"] {
  return (HEAVY_EXPORT_KINDS as readonly string[]).includes(kind);
}

/** Builds one export in this process and returns it whole (inside a worker). */
export async function collectStudyExport(options: HeavyExportOptions): Promise<CollectedExport> {
  const opened = await openStudyExport(options);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return { fileName: opened.fileName, contentType: opened.contentType, bytes: Buffer.concat(chunks) };
}
