import { describe, expect, it } from "vitest";
import { countPlaywright, countVitest } from "@/scripts/test-report.mts";

describe("test-all counting", () => {
  it("counts a test file that failed to load as failed, never as gone", () => {
    const counts = countVitest(
      {
        numPassedTests: 10,
        numFailedTests: 1,
        numPendingTests: 2,
        numTodoTests: 1,
        testResults: [
          { name: "/r/tests/unit/a.test.ts", status: "passed", assertionResults: [{ status: "passed" }] },
          {
            name: "/r/tests/unit/b.test.ts",
            status: "failed",
            assertionResults: [{ status: "passed" }, { status: "failed" }],
          },
          {
            name: "/r/tests/unit/c.test.ts",
            status: "failed",
            message: "ENOENT: no such file\nstack",
            assertionResults: [],
          },
        ],
      },
      "/r",
    );
    expect(counts).toEqual({
      passed: 10,
      failed: 2,
      skipped: 3,
      unloadable: ["tests/unit/c.test.ts: ENOENT: no such file"],
    });
  });

  it("reads Playwright's stats, flaky as passed", () => {
    expect(countPlaywright({ stats: { expected: 5, flaky: 1, unexpected: 2, skipped: 3 } })).toEqual({
      passed: 6,
      failed: 2,
      skipped: 3,
      unloadable: [],
    });
  });
});
