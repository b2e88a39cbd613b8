// Counts for scripts/test-all.mts from Vitest's and Playwright's JSON reports.
import path from "node:path";

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Files that failed to load (import error, throw at module level): each counts as one failed test. */
  unloadable: string[];
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: { name: string; status: string; message?: string; assertionResults?: { status: string }[] }[];
}

interface PlaywrightReport {
  stats: { expected: number; flaky: number; unexpected: number; skipped?: number };
}

export function countVitest(report: VitestReport, root = process.cwd()): Counts {
  const unloadable: string[] = [];
  for (const file of report.testResults ?? []) {
    // A file that never loaded reports no failed test of its own, so Vitest's numFailedTests leaves it out.
    if (file.status === "failed" && !(file.assertionResults ?? []).some((a) => a.status === "failed")) {
      unloadable.push(`${path.relative(root, file.name)}: ${String(file.message ?? "").split("\n")[0]}`);
    }
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + unloadable.length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    unloadable,
  };
}

export function countPlaywright(report: PlaywrightReport): Counts {
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    skipped: report.stats.skipped ?? 0,
    unloadable: [],
  };
}
