import { parse } from "csv-parse/sync";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSES_TABLE } from "@/lib/export/response-table";
import { bootstrapClusterMean } from "@/lib/stats/bootstrap";
import { summarizeSpread } from "@/lib/stats/descriptive";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { db, disconnectDb } from "@/lib/server/db";
import { getResultsPage } from "@/lib/server/dal/results/get-results-page";
import { getItemAnalysis } from "@/lib/server/dal/results/get-item-analysis";
import { getStudyResults } from "@/lib/server/dal/results/get-study-results";
import { listResponseRecords } from "@/lib/server/dal/results/list-response-records";
import { iterateResponseRows } from "@/lib/server/export/iterate-response-rows";
import { openStudyExport } from "@/lib/server/export/open-study-export";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

type Row = Record<string, string>;

let fixture: ResultsStudyFixture;
let responses: Row[];
let header: string[];

beforeAll(async () => {
  fixture = await createResultsStudy("results-e2e");
  const exported = await openStudyExport({ studyId: fixture.studyId, kind: "responses" });
  expect(exported.contentType).toBe("text/csv; charset=utf-8");
  expect(exported.fileName).toBe(`${fixture.slug}-responses.csv`);
  const text = await readAll(exported.stream);
  // Parsed independently of the app's code: csv-parse with the header row as column names.
  header = (parse(text, { to_line: 1 }) as string[][])[0]!;
  responses = parse(text, { columns: true }) as Row[];
});

afterAll(async () => {
  await disconnectDb();
});

/** Per-column numbers recomputed from the CSV alone. */
function recompute(rows: Row[]) {
  const byColumn = new Map<string, Row[]>();
  for (const r of rows) {
    const list = byColumn.get(r.result_column!) ?? [];
    list.push(r);
    byColumn.set(r.result_column!, list);
  }
  return new Map(
    [...byColumn].map(([column, list]) => {
      const participants = [...new Set(list.map((r) => r.participant_id!))].sort();
      const perParticipant = participants.map((p) => list.filter((r) => r.participant_id === p));
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      return [
        column,
        {
          nResponses: list.length,
          nItems: new Set(list.map((r) => r.item_id)).size,
          nParticipants: participants.length,
          nCorrect: list.filter((r) => r.exact === "1").length,
          exactMean: mean(list.map((r) => Number(r.exact))),
          partialMean: mean(list.map((r) => Number(r.partial))),
          exactClusters: perParticipant.map((rs) => rs.map((r) => Number(r.exact))),
          participantExactMeans: perParticipant.map((rs) => mean(rs.map((r) => Number(r.exact)))),
          participantPartialMeans: perParticipant.map((rs) => mean(rs.map((r) => Number(r.partial)))),
        },
      ] as const;
    }),
  );
}

describe("results end to end: responses export vs the results page", () => {
  it("exports every stored response, all phases, with the declared header", async () => {
    expect(header).toEqual(RESPONSES_TABLE.columns.map((c) => c.key));
    const stored = await db.response.count({ where: { studyId: fixture.studyId } });
    expect(responses).toHaveLength(stored);
    // 6 participants × (2 practice + 13 main).
    expect(stored).toBe(6 * 15);
    expect(responses.filter((r) => r.phase === "practice")).toHaveLength(12);
    // Submission order, as the keyset pages read it.
    const times = responses.map((r) => r.submitted_at!);
    expect([...times].sort()).toEqual(times);
  });

  it("recomputes, from the CSV alone, the per-task numbers the page shows", async () => {
    const page = await getResultsPage({ studyId: fixture.studyId });
    const direct = await getStudyResults({ studyId: fixture.studyId });
    expect(page.human.summary).toEqual(direct.summary);
    const summary = page.human.summary!;
    const main = responses.filter((r) => r.phase === "main");
    const mine = recompute(main);
    expect(summary.overall.columns.map((c) => c.column)).toEqual([
      "translation",
      "zooming",
      "residue_ligand_pos",
      "residue_ligand_neg",
      "interaction_location",
    ]);
    expect(summary.overall.nResponses).toBe(main.length);
    for (const c of summary.overall.columns) {
      const m = mine.get(c.column)!;
      expect({ n: c.nResponses, items: c.nItems, people: c.nParticipants }).toEqual({
        n: m.nResponses,
        items: m.nItems,
        people: m.nParticipants,
      });
      expect(c.exact.mean).toBeCloseTo(m.exactMean, 12);
      expect(c.partial.mean).toBeCloseTo(m.partialMean, 12);
      expect(c.exact.wilson).toEqual(wilsonInterval(m.nCorrect, m.nResponses));
      expect(c.exact.participantSpread).toEqual(summarizeSpread(m.participantExactMeans));
      expect(c.partial.participantSpread.median).toBeCloseTo(summarizeSpread(m.participantPartialMeans)!.median, 12);
      // The recorded seed reproduces the page's interval from the CSV's clusters.
      const boot = bootstrapClusterMean(m.exactClusters, {
        seed: `${page.human.seed}|all|${c.column}|exact`,
        replicates: page.human.replicates,
      });
      expect([c.exact.bootstrap.low, c.exact.bootstrap.high]).toEqual([boot.low, boot.high]);
    }
    const allCells = [...mine.values()];
    expect(summary.overall.paperAverage.exact).toBeNull();
    expect(allCells.length).toBe(5);
  });

  it("splits by condition and by cohort the same way the CSV does, with untagged participants as 'unspecified'", async () => {
    const { summary } = await getStudyResults({ studyId: fixture.studyId });
    const main = responses.filter((r) => r.phase === "main");
    for (const [groups, field] of [
      [summary!.byCondition, "condition"],
      [summary!.byCohort, "cohort"],
    ] as const) {
      expect(Object.keys(groups).sort()).toEqual([...new Set(main.map((r) => r[field]!))].sort());
      for (const [key, group] of Object.entries(groups)) {
        const mine = recompute(main.filter((r) => r[field] === key));
        for (const c of group.columns) {
          expect(c.nResponses).toBe(mine.get(c.column)!.nResponses);
          expect(c.exact.mean).toBeCloseTo(mine.get(c.column)!.exactMean, 12);
          expect(c.partial.mean).toBeCloseTo(mine.get(c.column)!.partialMean, 12);
        }
      }
    }
    expect(Object.keys(summary!.byCohort).sort()).toEqual(["crowd", "expert", "unspecified"]);
  });

  it("neutralises formula cells but keeps numbers numeric", () => {
    const hostile = responses.find((r) => r.participant_external_id!.includes("HYPERLINK"))!;
    expect(hostile.participant_external_id!.startsWith("'=HYPERLINK(")).toBe(true);
    const dashed = responses.find((r) => r.participant_external_id!.includes("-p5-"))!;
    expect(dashed.participant_external_id!.startsWith("'-p5-")).toBe(true);
    const negative = responses.find((r) => r.raw_answer === "move y -2");
    expect(negative?.canonical_answer).toBe("move y -2");
    for (const r of responses) {
      expect(r.exact).toMatch(/^[01]$/);
      expect(Number.isFinite(Number(r.partial))).toBe(true);
      expect(r.rt_ms).toMatch(/^\d+$/);
    }
  });

  it("writes T4 result columns from the gold, rt_ms from the client time with the server's as fallback, and times as UTC YYYY-MM-DD HH:MM:SS.mmm", () => {
    const t4 = responses.filter((r) => r.task_id === "residue_ligand");
    expect(new Set(t4.map((r) => r.result_column))).toEqual(new Set(["residue_ligand_pos", "residue_ligand_neg"]));
    for (const r of t4) expect(r.result_column === "residue_ligand_neg").toBe(r.gold_answer === "No");
    for (const r of responses) expect(r.rt_ms).toBe(r.rt_browser_ms !== "" ? r.rt_browser_ms : r.rt_server_ms);
    expect(responses.some((r) => r.rt_browser_ms === "")).toBe(true);
    expect(responses[0]!.submitted_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    const timedOut = responses.filter((r) => r.raw_answer === "" && r.phase === "main");
    expect(timedOut).toHaveLength(1);
    expect(timedOut[0]).toMatchObject({ canonical_answer: "", exact: "0", partial: "0" });
  });

  it("exports the per-task summary with the page's numbers", async () => {
    const { summary } = await getStudyResults({ studyId: fixture.studyId });
    const text = await readAll((await openStudyExport({ studyId: fixture.studyId, kind: "task-summary" })).stream);
    const rows = parse(text, { columns: true }) as Row[];
    const overall = rows.filter(
      (r) =>
        r.group_type === "overall" && r.result_column !== "paper_average" && r.result_column !== "all_task_average",
    );
    expect(overall.map((r) => r.result_column)).toEqual(summary!.overall.columns.map((c) => c.column));
    for (const [i, c] of summary!.overall.columns.entries()) {
      expect(Number(overall[i]!.exact_mean)).toBe(c.exact.mean);
      expect(Number(overall[i]!.exact_bootstrap_low)).toBe(c.exact.bootstrap.low);
      expect(Number(overall[i]!.n_participants)).toBe(c.nParticipants);
    }
  });

  it("exports items and participants", async () => {
    const items = parse(
      await readAll((await openStudyExport({ studyId: fixture.studyId, kind: "item-summary" })).stream),
      { columns: true },
    ) as Row[];
    expect(items).toHaveLength(13);
    const main = responses.filter((r) => r.phase === "main");
    for (const item of items) {
      const rs = main.filter((r) => r.item_id === item.item_id);
      expect(Number(item.n_responses)).toBe(rs.length);
      expect(Number(item.n_correct)).toBe(rs.filter((r) => r.exact === "1").length);
      expect(item.gold_answer).toBe(rs[0]!.gold_answer);
    }
    // A browser in UTC−5 reports its offset with the device information; the export states it in minutes east of UTC.
    const reporter = await db.participant.findFirstOrThrow({
      where: { studyId: fixture.studyId },
      orderBy: { id: "asc" },
      select: { id: true, deviceInfo: true },
    });
    await db.participant.update({
      where: { id: reporter.id },
      data: { deviceInfo: { ...((reporter.deviceInfo as object | null) ?? {}), utcOffsetMin: -300 } },
    });
    const people = parse(
      await readAll((await openStudyExport({ studyId: fixture.studyId, kind: "participants" })).stream),
      { columns: true },
    ) as Row[];
    expect(people).toHaveLength(6);
    expect(people.map((p) => [p.participant_id === reporter.id, p.utc_offset_min])).toEqual(
      people.map((p) => [p.participant_id === reporter.id, p.participant_id === reporter.id ? "-300" : ""]),
    );
    for (const p of people) {
      const rs = main.filter((r) => r.participant_id === p.participant_id);
      expect(Number(p.n_main_responses)).toBe(rs.length);
      expect(Number(p.n_practice_responses)).toBe(2);
      expect(Number(p.exact_mean)).toBeCloseTo(rs.filter((r) => r.exact === "1").length / rs.length, 12);
      // The server's clock, not the browser's (a client reported 1 ms against 3,222 ms measured); the client's in its own column.
      expect(Number(p.median_rt_server_ms)).toBeCloseTo(median(rs.map((r) => Number(r.rt_server_ms))), 6);
      const clientTimes = rs.filter((r) => r.rt_browser_ms !== "").map((r) => Number(r.rt_browser_ms));
      expect(Number(p.median_rt_browser_ms)).toBeCloseTo(median(clientTimes), 6);
    }
    expect(
      people.find((p) => p.participant_external_id!.includes("HYPERLINK"))!.participant_external_id!.startsWith("'="),
    ).toBe(true);
  });

  it("exports the pool as a VLMEvalKit TSV with PNG images", async () => {
    const exported = await openStudyExport({ studyId: fixture.studyId, kind: "vlmevalkit-tsv" });
    expect(exported.contentType).toMatch(/^text\/tab-separated-values/);
    const rows = parse(await readAll(exported.stream), { columns: true, delimiter: "\t" }) as Row[];
    expect(rows).toHaveLength(13);
    expect(rows.map((r) => r.category)).toEqual([
      "translation",
      "translation",
      "translation",
      "translation",
      "zooming",
      "zooming",
      "residue_ligand",
      "residue_ligand",
      "residue_ligand",
      "residue_ligand",
      "interaction_location",
      "interaction_location",
      "interaction_location",
    ]);
    for (const r of rows) {
      const images = JSON.parse(r.image!) as string[];
      const names = JSON.parse(r.image_path!) as string[];
      expect(images.length).toBe(names.length);
      const png = Buffer.from(images[0]!, "base64");
      expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
      const item = fixture.items.find((it) => it.id === r.index)!;
      expect(r.answer).toBe((await db.answerKey.findUniqueOrThrow({ where: { itemId: item.id } })).canonical);
    }
    const t8 = rows.find((r) => r.category === "interaction_location")!;
    expect([t8.A, t8.B, t8.C, t8.D]).toEqual([
      "move x 3, move y -2",
      "move x -3, move y 2",
      "move x 3, move y 2",
      "move x -3, move y -2",
    ]);
  });

  it("pages with the (submittedAt, id) keyset without losing or repeating rows, ties included", async () => {
    // Make ties: every response of the first participant gets the same submission time.
    await db.response.updateMany({
      where: { participantId: fixture.participantIds[0] },
      data: { submittedAt: new Date(Date.UTC(2025, 5, 1, 9, 30)) },
    });
    const collect = async (pageRows: number) => {
      const ids: string[] = [];
      for await (const row of iterateResponseRows([fixture.studyId], pageRows)) ids.push(row.responseId);
      return ids;
    };
    const whole = await collect(1_000);
    expect(whole).toHaveLength(90);
    expect(await collect(4)).toEqual(whole);
    expect(await collect(15)).toEqual(whole);
    const paged = await listResponseRecords([fixture.studyId], 7);
    const single = await listResponseRecords([fixture.studyId], 1_000);
    expect(paged.records).toHaveLength(78);
    expect(paged.records).toEqual(single.records);
  });

  it("pools the studies that share a pool version when asked, and lists the items most humans miss", async () => {
    const other = await db.study.create({
      data: {
        slug: `results-other-${fixture.tag}`,
        name: "Other",
        status: "open",
        poolVersionId: fixture.poolVersionId,
        config: {},
      },
      select: { id: true },
    });
    const person = await db.participant.create({
      data: {
        studyId: other.id,
        externalId: "other-1",
        condition: "static",
        cohort: "crowd",
        status: "completed",
        orderSeed: "x",
      },
      select: { id: true },
    });
    const item = fixture.items[0]!;
    const assignment = await db.assignment.create({
      data: { participantId: person.id, itemId: item.id, position: 0, status: "answered" },
      select: { id: true },
    });
    await db.response.create({
      data: {
        assignmentId: assignment.id,
        participantId: person.id,
        studyId: other.id,
        itemId: item.id,
        taskId: "translation",
        taskVersion: 1,
        phase: "main",
        condition: "static",
        rawAnswer: "move x 3",
        canonicalAnswer: "move x 3",
        exact: 1,
        partial: 1,
        idempotencyKey: `other-${fixture.tag}`,
      },
    });
    const one = await getStudyResults({ studyId: fixture.studyId });
    const pooled = await getStudyResults({ studyId: fixture.studyId, scope: "pool" });
    expect(pooled.scope.studyIds.sort()).toEqual([fixture.studyId, other.id].sort());
    expect(pooled.nResponses).toBe(one.nResponses + 1);
    expect(pooled.seed).not.toBe(one.seed);
    const translation = (r: typeof one) => r.summary!.overall.columns.find((c) => c.column === "translation")!;
    expect(translation(pooled).nParticipants).toBe(translation(one).nParticipants + 1);

    const items = await getItemAnalysis({ studyId: fixture.studyId });
    expect(items.items).toHaveLength(13);
    for (const m of items.mostMissed) {
      expect(m.exactAccuracy).toBeLessThan(0.5);
      expect(m.nResponses).toBeGreaterThanOrEqual(items.minResponses);
    }
    const missedIds = new Set(items.mostMissed.map((m) => m.itemId));
    for (const i of items.items)
      expect(missedIds.has(i.itemId)).toBe(i.exactAccuracy < 0.5 && i.nResponses >= items.minResponses);
    expect(items.multipleChoiceAgreement.map((a) => a.taskId)).toEqual(["interaction_location"]);
    expect(items.answerAgreement.map((a) => `${a.taskId}/${a.level}`)).toEqual([
      "translation/nominal",
      "zooming/nominal",
      "zooming/interval",
      "residue_ligand/nominal",
      "interaction_location/nominal",
    ]);
  });

  it("fails an unknown study before streaming", async () => {
    await expect(openStudyExport({ studyId: "no-such-study", kind: "responses" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
