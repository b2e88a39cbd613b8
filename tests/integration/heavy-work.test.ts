import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formatReportLines } from "@/lib/import/report";
import { disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { closeHeavyPool, heavyJobsRunning } from "@/lib/server/heavy/pool";
import { runImport } from "@/lib/server/import/run-import";
import { writeBundle } from "../fixtures/import/build-fixtures";
import { createTranslationStudy, joinStudy } from "../helpers/study-fixtures";

/**
 * SVG bombs run in the heavy-work pool (lib/server/heavy/pool.ts) under their budgets, while this process (the
 * server) keeps answering participants. Budgets are lowered for the test through the same environment variables an
 * operator would set.
 */
vi.hoisted(() => {
  process.env.HEAVY_SVG_BUDGET_MS = "5000";
  process.env.HEAVY_JOB_RSS_MB = "768";
});

const SVG_NS = "http://www.w3.org/2000/svg";
/** 64 k nested groups: the XML check's cost is quadratic in the depth (83 s on the main thread before). */
const NESTED_SVG = `<svg xmlns="${SVG_NS}" width="10" height="10">${"<g>".repeat(65_536)}<rect width="10" height="10"/>${"</g>".repeat(65_536)}</svg>`;
/** A few hundred bytes, four page-sized blurs: 110 s of resvg before. */
const BLUR_SVG = `<svg xmlns="${SVG_NS}" width="4096" height="4096"><filter id="f"><feGaussianBlur stdDeviation="1500"/></filter>${'<rect width="4096" height="4096" fill="red" filter="url(#f)"/>'.repeat(4)}</svg>`;

let work: string;
let participantId: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-heavy-test-"));
  const { study } = await createTranslationStudy({ itemCount: 2 });
  participantId = await joinStudy(study.slug, `heavy-${randomBytes(4).toString("hex")}`);
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await closeHeavyPool();
  await disconnectDb();
});

/** Waits (by polling the event loop, which must stay free) until a heavy job is running in a worker. */
async function untilHeavyJobRuns(): Promise<void> {
  for (let i = 0; i < 3_000 && heavyJobsRunning() === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(heavyJobsRunning()).toBeGreaterThan(0);
}

/** A four-item bundle whose first image (the first one the import reads) is `svg`. */
function bundleWithFirstImage(svg: string): string {
  const dir = path.join(work, `bundle-${randomBytes(3).toString("hex")}`);
  const tag = `-heavy-${randomBytes(3).toString("hex")}`;
  writeBundle(dir, { tag });
  const first = (
    JSON.parse(fs.readFileSync(path.join(dir, "items.jsonl"), "utf8").split("\n")[0]!) as {
      images: Array<{ file: string }>;
    }
  ).images[0]!.file;
  fs.writeFileSync(path.join(dir, first), svg);
  return dir;
}

describe("SVG bombs are checked and rasterised in the pool, within their budget", () => {
  for (const [name, svg] of [
    ["a 64 k-deep nested SVG", NESTED_SVG],
    ["a four-blur SVG", BLUR_SVG],
  ] as const) {
    it(
      `${name}: the participant's session is answered while the job runs; the record is refused naming the budget`,
      { timeout: 120_000 },
      async () => {
        const dir = bundleWithFirstImage(svg);
        let importDone = false;
        const importing = runImport({ inputPath: dir, sourceName: name }).finally(() => {
          importDone = true;
        });
        await untilHeavyJobRuns();
        const session = await getParticipantSession(participantId);
        expect(session).not.toBeNull();
        // Answered while the bomb was still being worked on: the import had not finished, its job still ran.
        expect(heavyJobsRunning()).toBe(1);
        expect(importDone).toBe(false);

        const result = await importing;
        const lines = formatReportLines(result.report).join("\n");
        expect(lines).toMatch(
          /SVG refused: SVG check and rasterisation was stopped: it ran over its time budget of 5 s \(HEAVY_SVG_BUDGET_MS\)/,
        );
        // Only the record with the bomb is refused; the import goes on with the rest.
        expect(result.report.imported).toBe(3);
      },
    );
  }
});
