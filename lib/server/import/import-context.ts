import "server-only";
import { Transform, type Readable } from "node:stream";
import type { FileIndex } from "@/lib/import/image-refs";
import type { ImportPhase, ImportProgress, ImportReportBuilder } from "@/lib/import/report";
import type { ItemWriter } from "./item-writer";
import type { SourceTree } from "./source-tree";

/** Fatal for the whole import: raised inside an importer to roll the batch back. */
export class FatalImportError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}:${line}: ${field}: ${problem}`);
  }
}

/** Minimum time between two progress notifications. */
const PROGRESS_INTERVAL_MS = 1000;

export class ProgressTracker {
  private phase: ImportPhase = "opening";
  private currentFile: string | null = null;
  private bytesRead = 0;
  private bytesTotal = 0;
  private lastSent = 0;

  constructor(
    private readonly report: ImportReportBuilder,
    private readonly listener?: (progress: ImportProgress) => void,
  ) {}

  setPhase(phase: ImportPhase, currentFile: string | null = this.currentFile): void {
    this.phase = phase;
    this.currentFile = currentFile;
    this.notify(true);
  }

  setTotal(bytes: number): void {
    this.bytesTotal = bytes;
  }

  /** Counts bytes flowing through a record file's stream. */
  meter(stream: Readable, file: string): Readable {
    this.currentFile = file;
    const counter = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.bytesRead += chunk.length;
        this.notify(false);
        done(null, chunk);
      },
    });
    stream.on("error", (e) => counter.destroy(e));
    return stream.pipe(counter);
  }

  tick(): void {
    this.notify(false);
  }

  current(): ImportProgress {
    const r = this.report.snapshotCounts();
    return {
      phase: this.phase,
      currentFile: this.currentFile,
      recordsRead: r.recordsRead,
      imported: r.imported,
      duplicates: r.duplicates,
      skipped: r.skipped,
      bytesRead: this.bytesRead,
      bytesTotal: this.bytesTotal,
      updatedAt: new Date().toISOString(),
    };
  }

  private notify(force: boolean): void {
    if (!this.listener) return;
    const now = Date.now();
    if (!force && now - this.lastSent < PROGRESS_INTERVAL_MS) return;
    this.lastSent = now;
    this.listener(this.current());
  }
}

export interface ImportContext {
  tree: SourceTree;
  index: FileIndex;
  report: ImportReportBuilder;
  writer: ItemWriter;
  progress: ProgressTracker;
  /** SVG images come from the app's own renderer in this process (RunImportOptions.ownSvg): kept as SVG. */
  ownSvg: boolean;
}
