import { parse } from "csv-parse/sync";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getResultsPage } from "@/lib/server/dal/results/get-results-page";
import { openStudyExport } from "@/lib/server/export/open-study-export";
import { formatFractionAsPercent } from "@/lib/results/rounding";
import type { CrossedAnswer } from "@/lib/stats/crossed-bootstrap";
import { studentTQuantile } from "@/lib/stats/student-t";
import { referenceQuantile, referenceReplicates } from "../helpers/crossed-bootstrap-reference";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

type Row = Record<string, string>;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

async function mainRows(studyId: string): Promise<Row[]> {
  const exported = await openStudyExport({ studyId, kind: "responses" });
  return (parse(await readAll(exported.stream), { columns: true }) as Row[]).filter((r) => r.phase === "main");
}

/** docs/condition-effect.md's Welch interval written out: per participant answers and correct, V per condition, Satterthwaite df. */
function referenceWelch(answers: readonly CrossedAnswer[], estimate: number): { low: number; high: number } {
  const v = (["static", "interactive"] as const).map((c) => {
    const per = new Map<string, { m: number; k: number }>();
    for (const a of answers.filter((x) => x.condition === c)) {
      const t = per.get(a.participantId) ?? { m: 0, k: 0 };
      per.set(a.participantId, { m: t.m + 1, k: t.k + a.correct });
    }
    const people = [...per.values()];
    const total = people.reduce((s, x) => s + x.m, 0);
    const p = people.reduce((s, x) => s + x.k, 0) / total;
    const g = people.length;
    return { g, v: ((g / (g - 1)) * people.reduce((s, x) => s + (x.k - x.m * p) ** 2, 0)) / total ** 2 };
  });
  const se = Math.sqrt(v[0]!.v + v[1]!.v);
  const df = (v[0]!.v + v[1]!.v) ** 2 / (v[0]!.v ** 2 / (v[0]!.g - 1) + v[1]!.v ** 2 / (v[1]!.g - 1));
  const half = se === 0 ? 0 : studentTQuantile(0.975, df) * se;
  return { low: estimate - half, high: estimate + half };
}

/** The contract recomputed from exported rows only: pooled accuracies, the Welch interval, the reference replicates and type-7 quantiles. */
function recompute(rows: readonly Row[]) {
  const answers: CrossedAnswer[] = rows.map((r) => ({
    participantId: r.participant_id!,
    itemId: r.item_id!,
    task: r.result_column!,
    condition: r.condition as "static" | "interactive",
    correct: Number(r.exact),
  }));
  const acc = (c: string) => {
    const xs = answers.filter((a) => a.condition === c);
    return xs.reduce((t, a) => t + a.correct, 0) / xs.length;
  };
  const { values, skipped } = referenceReplicates(answers, 20261201, 2000);
  const estimate = acc("interactive") - acc("static");
  return {
    estimate,
    ...referenceWelch(answers, estimate),
    bootstrapLow: referenceQuantile(values, 0.025),
    bootstrapHigh: referenceQuantile(values, 0.975),
    skipped,
    nAnswers: {
      static: answers.filter((a) => a.condition === "static").length,
      interactive: answers.filter((a) => a.condition === "interactive").length,
    },
    nParticipants: new Set(answers.map((a) => a.participantId)).size,
    nItems: new Set(answers.map((a) => a.itemId)).size,
  };
}

let crossed: ResultsStudyFixture;
let oneCondition: ResultsStudyFixture;

beforeAll(async () => {
  crossed = await createResultsStudy("condition-effect");
  oneCondition = await createResultsStudy("condition-effect-one");
  // Only the static participants' answers remain: the comparison has nothing to compare with.
  await db.response.deleteMany({ where: { studyId: oneCondition.studyId, condition: "interactive" } });
});

afterAll(async () => {
  await disconnectDb();
});

describe("condition effect on the results page (seeded crossed study: 3 static + 3 interactive participants × 13 items)", () => {
  it("equals the contract recomputed from the responses export, overall and per result column", async () => {
    const page = await getResultsPage({ studyId: crossed.studyId });
    const effect = page.human.summary?.conditionEffect;
    expect(effect?.estimable).toBe(true);
    const rows = await mainRows(crossed.studyId);
    expect(rows).toHaveLength(6 * 13);

    const overall = recompute(rows);
    expect(effect!.overall.estimate).toBeCloseTo(overall.estimate, 12);
    expect(effect!.overall.low).toBeCloseTo(overall.low, 12);
    expect(effect!.overall.high).toBeCloseTo(overall.high, 12);
    expect(effect!.overall.bootstrapLow).toBeCloseTo(overall.bootstrapLow, 12);
    expect(effect!.overall.bootstrapHigh).toBeCloseTo(overall.bootstrapHigh, 12);
    expect(effect!.overall.skipped).toBe(overall.skipped);
    expect(effect!.overall).toMatchObject({
      replicates: 2000,
      seed: 20261201,
      nParticipants: 6,
      nItems: 13,
      nAnswers: 78,
    });
    expect(effect!.overall.byCondition.static.nAnswers).toBe(overall.nAnswers.static);
    expect(effect!.overall.byCondition.interactive.nParticipants).toBe(3);
    // A real interval around the estimate, not a collapsed one.
    expect(effect!.overall.low!).toBeLessThan(effect!.overall.estimate!);
    expect(effect!.overall.high!).toBeGreaterThan(effect!.overall.estimate!);

    const columns = [...new Set(rows.map((r) => r.result_column!))];
    expect(effect!.columns.map((c) => c.column).sort()).toEqual(columns.sort());
    for (const c of effect!.columns) {
      const mine = recompute(rows.filter((r) => r.result_column === c.column));
      expect(c.effect.estimate, c.column).toBeCloseTo(mine.estimate, 12);
      expect(c.effect.low, c.column).toBeCloseTo(mine.low, 12);
      expect(c.effect.high, c.column).toBeCloseTo(mine.high, 12);
      expect(c.effect.bootstrapLow, c.column).toBeCloseTo(mine.bootstrapLow, 12);
      expect(c.effect.bootstrapHigh, c.column).toBeCloseTo(mine.bootstrapHigh, 12);
      expect(c.effect.skipped, c.column).toBe(mine.skipped);
      expect([c.effect.nParticipants, c.effect.nItems], c.column).toEqual([mine.nParticipants, mine.nItems]);
    }
  });

  it("fills the paper-table export's effect row with the page's numbers (Table 2 only)", async () => {
    const page = await getResultsPage({ studyId: crossed.studyId });
    const effect = page.human.summary!.conditionEffect;
    const opened = await openStudyExport({
      studyId: crossed.studyId,
      kind: "paper-table",
      paperTable: { format: "csv", metric: "both" },
    });
    const rows = parse(await readAll(opened.stream), { columns: true }) as Row[];
    const effectRows = rows.filter((r) => r.row === "Human: interactive − static (pp)");
    expect(effectRows.map((r) => r.metric)).toEqual(["exact"]);
    const row = effectRows[0]!;
    for (const c of effect.columns) {
      const label = c.label;
      if (c.effect.estimate === null) {
        expect(row[label]).toBe("");
        continue;
      }
      // A zero-width interval (every participant with the same accuracy) is left out of the table, like "[no spread]".
      const spread = c.effect.low !== c.effect.high;
      expect([row[label], row[`${label} low`], row[`${label} high`]], label).toEqual([
        formatFractionAsPercent(c.effect.estimate),
        spread ? formatFractionAsPercent(c.effect.low!) : "",
        spread ? formatFractionAsPercent(c.effect.high!) : "",
      ]);
    }
  });

  it("is not estimable when the study has answers in one condition only", async () => {
    const page = await getResultsPage({ studyId: oneCondition.studyId });
    const effect = page.human.summary?.conditionEffect;
    expect(effect?.estimable).toBe(false);
    expect(effect!.overall).toMatchObject({ estimate: null, low: null, high: null, nParticipants: 3 });
    expect(effect!.overall.byCondition.interactive.nAnswers).toBe(0);
    expect(effect!.overall.byCondition.static.nAnswers).toBe(3 * 13);
  });
});
