import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { estimateExportSizes } from "@/lib/server/export/estimate-export-size";
import { openStudyExport } from "@/lib/server/export/open-study-export";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

async function byteLength(stream: Readable): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

let fixture: ResultsStudyFixture;

beforeAll(async () => {
  fixture = await createResultsStudy("export-estimate");
});

afterAll(async () => {
  await disconnectDb();
});

describe("export size estimates shown before a download", () => {
  it("estimate the responses export and the TSV within a factor the progress bar can use", async () => {
    const estimate = await estimateExportSizes({ studyId: fixture.studyId });
    const responses = await byteLength((await openStudyExport({ studyId: fixture.studyId, kind: "responses" })).stream);
    // Every row was sampled here (fewer than the 200-row sample), so the estimate is the file's size but for rounding.
    expect(estimate.responses.rows).toBe(6 * 15);
    expect(Math.abs(estimate.responses.bytes - responses)).toBeLessThanOrEqual(2);
    const tsv = await byteLength((await openStudyExport({ studyId: fixture.studyId, kind: "vlmevalkit-tsv" })).stream);
    expect(estimate.tsv).toMatchObject({ items: 13, imageSize: "original" });
    expect(estimate.tsv.bytes / tsv).toBeGreaterThan(0.5);
    expect(estimate.tsv.bytes / tsv).toBeLessThan(2);
  });

  it("fails for an unknown study before anything is read", async () => {
    await expect(estimateExportSizes({ studyId: "no-such-study" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
