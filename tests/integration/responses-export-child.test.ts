import fs from "node:fs";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { databaseUrl } from "@/lib/server/env";
import { createTableStream } from "@/lib/server/export/table-stream";
import { iterateResponseRows } from "@/lib/server/export/iterate-response-rows";
import { createResponsesChildStream, exportChildSlots } from "@/lib/server/export/responses-child-stream";
import { resolveResultsScope } from "@/lib/server/dal/results/resolve-results-scope";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** Command lines of this process's live children (Linux /proc). */
function childCommands(): string[] {
  const pids = fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, "utf8").trim().split(/\s+/))
    .filter(Boolean);
  return pids.flatMap((pid) => {
    try {
      return [fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")];
    } catch {
      return [];
    }
  });
}

let fixture: ResultsStudyFixture;

beforeAll(async () => {
  fixture = await createResultsStudy("export-child");
});

afterAll(async () => {
  await disconnectDb();
});

describe("responses export in a child process", () => {
  it("writes exactly the bytes of the in-process export, across several pages", async () => {
    const inProcess = await readAll(createTableStream(RESPONSES_TABLE, iterateResponseRows([fixture.studyId], 7)));
    const child = await readAll(
      createResponsesChildStream({ databaseUrl, studyId: fixture.studyId, scope: "study", pageRows: 7 }),
    );
    // The fixture has T4 Pos. and Neg. items, a participant without cohort, practice rows and a timed-out answer.
    expect(inProcess.split("\n").length).toBeGreaterThan(20);
    expect(inProcess).toMatch(/,residue_ligand_pos,/);
    expect(inProcess).toMatch(/,residue_ligand_neg,/);
    expect(inProcess).toMatch(/,unspecified,/);
    expect(child).toBe(inProcess);
  });

  it("resolves the pool scope as the results pages do", async () => {
    const scope = await resolveResultsScope(fixture.studyId, "pool");
    const inProcess = await readAll(createTableStream(RESPONSES_TABLE, iterateResponseRows(scope.studyIds, 11)));
    expect(
      await readAll(createResponsesChildStream({ databaseUrl, studyId: fixture.studyId, scope: "pool", pageRows: 11 })),
    ).toBe(inProcess);
  });

  it("kills the child when the reader goes away, and reports a database failure as a stream error", async () => {
    const stream = createResponsesChildStream({ databaseUrl, studyId: fixture.studyId, scope: "study", pageRows: 5 });
    const first = await new Promise<Buffer>((resolve) => stream.once("data", resolve));
    expect(first.toString("utf8")).toMatch(/^response_id,/);
    expect(childCommands().some((c) => c.includes("misi-responses-export-"))).toBe(true);
    stream.destroy();
    await new Promise((resolve) => stream.once("close", resolve));
    await expect
      .poll(() => childCommands().some((c) => c.includes("misi-responses-export-")), { timeout: 5_000 })
      .toBe(false);

    const bad = createResponsesChildStream({
      databaseUrl: databaseUrl.replace(/\/[^/?]+(\?|$)/, "/misi_no_such_db$1"),
      studyId: "x",
      scope: "study",
    });
    await expect(readAll(bad)).rejects.toThrow(/responses export failed: .*misi_no_such_db/);
    await expect(
      readAll(createResponsesChildStream({ databaseUrl, studyId: "no-such-study", scope: "study" })),
    ).rejects.toThrow("No study with id no-such-study.");
  });
});

describe("export CLI --what responses --out (a wrong study id leaves an existing file alone)", () => {
  it("a failed export leaves an existing file of that name untouched; a good one replaces it whole", async () => {
    const { spawnSync } = await import("node:child_process");
    const os = await import("node:os");
    const path = await import("node:path");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-export-cli-"));
    const out = path.join(dir, "keep.csv");
    fs.writeFileSync(out, "earlier export\n");
    const run = (study: string) =>
      spawnSync(
        "node_modules/.bin/tsx",
        ["--conditions=react-server", "scripts/export.mts", "--study", study, "--what", "responses", "--out", out],
        {
          env: { ...process.env, DATABASE_URL: databaseUrl },
          encoding: "utf8",
        },
      );
    try {
      const bad = run("no-such-study");
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain("no-such-study");
      expect(fs.readFileSync(out, "utf8")).toBe("earlier export\n");
      expect(fs.readdirSync(dir)).toEqual(["keep.csv"]);
      const good = run(fixture.studyId);
      expect(good.status, good.stderr).toBe(0);
      expect(fs.readFileSync(out, "utf8")).toBe(
        await readAll(createTableStream(RESPONSES_TABLE, iterateResponseRows([fixture.studyId]))),
      );
      expect(fs.readdirSync(dir)).toEqual(["keep.csv"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("runs at most EXPORT_MAX_CHILDREN (2) export children at once; the others wait and then finish", async () => {
    const exportChildren = () => childCommands().filter((c) => c.includes("misi-responses-export-")).length;
    let most = 0;
    let mostQueued = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, exportChildren(), exportChildSlots.running);
      mostQueued = Math.max(mostQueued, exportChildSlots.queued);
    }, 5);
    const outputs = await Promise.all(
      Array.from({ length: 6 }, () =>
        readAll(createResponsesChildStream({ databaseUrl, studyId: fixture.studyId, scope: "study", pageRows: 7 })),
      ),
    );
    clearInterval(sampler);
    expect(most).toBe(2);
    expect(mostQueued).toBeGreaterThan(0);
    expect(new Set(outputs).size).toBe(1);
    expect(exportChildSlots.running).toBe(0);
  });
});
