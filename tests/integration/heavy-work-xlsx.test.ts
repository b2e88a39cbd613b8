import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { importModelRun } from "@/lib/server/dal/models/import-model-run";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { AppError } from "@/lib/server/errors";
import { closeHeavyPool, heavyJobsRunning } from "@/lib/server/heavy/pool";
import { hasZipCommand } from "../fixtures/import/build-fixtures";
import { createTranslationStudy, joinStudy } from "../helpers/study-fixtures";

/**
 * An xlsx bomb through model import (researcher role): a workbook of under 1 MB whose worksheet exceljs inflates to
 * hundreds of MB in memory. Read in the heavy-work pool under a 256 MiB cap (set here through the variable an
 * operator would set), it fails with a problem naming the cap while this process (the server) answers a participant.
 */
vi.hoisted(() => {
  process.env.HEAVY_JOB_RSS_MB = "256";
  process.env.HEAVY_WORKBOOK_BUDGET_MS = "600000";
});

let work: string;
let participantId: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "misi-xlsx-bomb-"));
  const { study } = await createTranslationStudy({ itemCount: 2 });
  participantId = await joinStudy(study.slug, `xlsx-${randomBytes(4).toString("hex")}`);
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await closeHeavyPool();
  await disconnectDb();
});

async function untilHeavyJobRuns(): Promise<void> {
  for (let i = 0; i < 3_000 && heavyJobsRunning() === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(heavyJobsRunning()).toBeGreaterThan(0);
}

/** An xlsx workbook (a zip) whose one worksheet holds `rows` rows of `cols` inline-string cells. */
function writeXlsx(file: string, rows: number, cols: number): void {
  const dir = fs.mkdtempSync(path.join(work, "xlsx-"));
  const put = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  put(
    "[Content_Types].xml",
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  );
  put(
    "_rels/.rels",
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  put(
    "xl/workbook.xml",
    `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  put(
    "xl/_rels/workbook.xml.rels",
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  );
  fs.mkdirSync(path.join(dir, "xl/worksheets"), { recursive: true });
  const sheet = fs.openSync(path.join(dir, "xl/worksheets/sheet1.xml"), "w");
  fs.writeSync(
    sheet,
    `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`,
  );
  const cell = `<c t="inlineStr"><is><t>x</t></is></c>`.repeat(cols);
  let batch = "";
  for (let r = 1; r <= rows; r++) {
    batch += `<row r="${r}">${cell}</row>`;
    if (batch.length > 1 << 20) {
      fs.writeSync(sheet, batch);
      batch = "";
    }
  }
  fs.writeSync(sheet, `${batch}</sheetData></worksheet>`);
  fs.closeSync(sheet);
  execFileSync("zip", ["-q", "-9", "-r", file, "."], { cwd: dir });
  fs.rmSync(dir, { recursive: true });
}

describe.runIf(hasZipCommand())("an xlsx bomb through model import", () => {
  it(
    "fails with a problem naming the worker's memory cap, and this process's memory stays put",
    { timeout: 180_000 },
    async () => {
      const file = path.join(work, "bomb.xlsx");
      writeXlsx(file, 100_000, 20);
      const bytes = fs.readFileSync(file);
      expect(bytes.length).toBeLessThan(4 * 1024 ** 2);

      const rssBefore = process.memoryUsage.rss();
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
      }, 20);
      let participantAnswered = false;
      const importing = importModelRun({ fileName: "bomb.xlsx", bytes, input: { model: "bomb" }, actorId: null }).then(
        () => null,
        (e: unknown) => e,
      );
      await untilHeavyJobRuns();
      participantAnswered = (await getParticipantSession(participantId)) !== null;
      expect(heavyJobsRunning()).toBe(1);
      const failure = await importing;
      clearInterval(sampler);

      expect(participantAnswered).toBe(true);
      expect(failure).toBeInstanceOf(AppError);
      const problems = ((failure as AppError).details as { problems: Array<{ problem: string }> }).problems.map(
        (p) => p.problem,
      );
      expect(problems.join("\n")).toMatch(
        /reading the prediction file was stopped: its process used .* over its memory cap of 256 MiB \(HEAVY_JOB_RSS_MB\)/,
      );
      // The workbook never inflated here: this process grew by far less than the 256 MiB its worker was allowed (the
      // bytes themselves and the IPC copy are a few MB).
      expect(rssPeak - rssBefore).toBeLessThan(100 * 1024 ** 2);
      expect(await db.modelRun.count({ where: { model: "bomb" } })).toBe(0);
    },
  );
});
