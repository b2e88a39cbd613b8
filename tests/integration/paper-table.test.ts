import { parse } from "csv-parse/sync";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPercent } from "@/components/results/format";
import { PAPER_ROWS } from "@/lib/results/paper-reference";
import { RESULT_COLUMNS } from "@/lib/results/task-columns";
import { db, disconnectDb } from "@/lib/server/db";
import { importModelRun } from "@/lib/server/dal/models/import-model-run";
import { getResultsPage, type ResultsPageDto } from "@/lib/server/dal/results/get-results-page";
import { openStudyExport } from "@/lib/server/export/open-study-export";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

let fixture: ResultsStudyFixture;
let page: ResultsPageDto;
let runId: string;

beforeAll(async () => {
  fixture = await createResultsStudy("paper-table");
  const user = await db.user.create({
    data: { email: `paper-${fixture.tag}@test.local`, passwordHash: "x", role: "researcher" },
    select: { id: true },
  });
  // A model that answers the first option / a fixed command everywhere: right on some items, wrong on others.
  const answers: Record<string, string> = {
    translation: "move x 3",
    zooming: "move z 45",
    residue_ligand: "No",
    interaction_location: "B",
  };
  const csv = ["item_id,prediction", ...fixture.items.map((it) => `${it.id},${answers[it.taskId]}`)].join("\n");
  const run = await importModelRun({
    fileName: "fixed.csv",
    bytes: new TextEncoder().encode(csv),
    input: { model: "Fixed-answer model", name: "Fixed & Co" },
    actorId: user.id,
  });
  runId = run.runId;
  page = await getResultsPage({ studyId: fixture.studyId });
});

afterAll(async () => {
  await disconnectDb();
});

describe("paper-style tables of a study", () => {
  it("CSV: every human and model cell equals the results page's number", async () => {
    const opened = await openStudyExport({
      studyId: fixture.studyId,
      kind: "paper-table",
      paperTable: { format: "csv", metric: "both" },
    });
    expect(opened.fileName).toBe(`${fixture.slug}-paper-tables.csv`);
    expect(opened.contentType).toBe("text/csv; charset=utf-8");
    const rows = parse(await readAll(opened.stream), { columns: true }) as Record<string, string>[];
    const summary = page.human.summary!;
    const comparison = page.models.comparison!;
    expect(summary.overall.columns.length).toBe(5);
    for (const metric of ["partial", "exact"] as const) {
      const human = rows.find((r) => r.metric === metric && r.row === "Human (this study)")!;
      for (const c of summary.overall.columns) {
        const label = RESULT_COLUMNS[c.column].label;
        expect(human[label]).toBe(formatPercent(c[metric].mean));
        expect(human[`${label} low`]).toBe(formatPercent(c[metric].interval.low));
        expect(human[`${label} high`]).toBe(formatPercent(c[metric].interval.high));
      }
      // The study has 4 of the 8 Avg columns: no Avg, as on the page.
      expect(human.Avg).toBe("");
      expect(summary.overall.paperAverage[metric]).toBeNull();
      const model = rows.find((r) => r.metric === metric && r.row === "Fixed & Co")!;
      expect(model.provenance).toBe("imported run");
      for (const col of comparison.columns) {
        const m = col.models.find((x) => x.modelId === runId)!;
        expect(model[RESULT_COLUMNS[col.column].label]).toBe(
          formatPercent(metric === "exact" ? m.model.mean : m.model.partialMean),
        );
      }
      const paper = rows.filter((r) => r.metric === metric && (r.provenance ?? "").startsWith("as reported"));
      expect(paper).toHaveLength(PAPER_ROWS.filter((r) => r.metric === metric).length);
    }
  });

  it("LaTeX and Markdown carry the same human numbers; unknown studies fail before any byte", async () => {
    const tex = await readAll(
      (
        await openStudyExport({
          studyId: fixture.studyId,
          kind: "paper-table",
          paperTable: { format: "latex", metric: "exact" },
        })
      ).stream,
    );
    const humanLine = tex.split("\n").find((l) => l.startsWith("Human (this study) &"))!;
    const trans = page.human.summary!.overall.columns.find((c) => c.column === "translation")!;
    expect(humanLine.split(" & ")[1]).toBe(formatPercent(trans.exact.mean));
    expect(tex).toContain("Fixed \\& Co (imported run)");
    const md = await readAll(
      (
        await openStudyExport({
          studyId: fixture.studyId,
          kind: "paper-table",
          paperTable: { format: "md", metric: "partial", intervals: "pm" },
        })
      ).stream,
    );
    expect(md).toContain(`| Human (this study) | ${formatPercent(trans.partial.mean)} ± `);
    await expect(openStudyExport({ studyId: "nope", kind: "paper-table" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
