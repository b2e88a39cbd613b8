import { describe, expect, it } from "vitest";
import { chooseReportedInterval, describeInterval, MIN_BOOTSTRAP_PARTICIPANTS } from "@/lib/results/interval-rule";
import { buildPaperTable, formatPaperTableLatex, formatPaperTableMarkdown } from "@/lib/results/paper-table";
import { paperTableCsvRecords } from "@/lib/export/paper-table-csv";
import type { ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults, type HumanResultsSummary } from "@/lib/results/summarize";
import { bootstrapClusterMean } from "@/lib/stats/bootstrap";

const Z2 = 1.959963984540054 ** 2;

function boot(clusters: number[][]) {
  return bootstrapClusterMean(clusters, { seed: "rule", replicates: 500 });
}

function people(n: number, answers: (p: number) => number[]): number[][] {
  return Array.from({ length: n }, (_, p) => answers(p));
}

describe("chooseReportedInterval", () => {
  it("0/3: the bootstrap collapses to [0, 0]; the reported interval is Wilson 0/3 = [0, 56.1] %", () => {
    const clusters = [[0], [0], [0]];
    const b = boot(clusters);
    expect([b.low, b.high]).toEqual([0, 0]);
    const iv = chooseReportedInterval(clusters, b);
    expect(iv).toMatchObject({ method: "clustered-wilson", reason: "boundary", low: 0 });
    expect(iv.high).toBeCloseTo(0.561497, 6);
    expect(describeInterval(iv)).toBe(
      "clustered Wilson (every answer scored the same; ρ 1.00 (bound), DE 1.00, n_eff 3.0)",
    );
  });

  it("n/n with 30 participants × 4 answers: bootstrap [1, 1] → Wilson on n_eff = 30 participants, [88.6, 100] %", () => {
    const clusters = people(30, () => [1, 1, 1, 1]);
    const iv = chooseReportedInterval(clusters, boot(clusters));
    expect(iv).toMatchObject({ method: "clustered-wilson", reason: "boundary", high: 1 });
    expect(iv.clusteredWilson).toMatchObject({ designEffect: 4, effectiveN: 30 });
    expect(iv.low).toBeCloseTo(30 / (30 + Z2), 12); // 0.886487
  });

  it(`fewer than ${MIN_BOOTSTRAP_PARTICIPANTS} participants with mixed answers: clustered Wilson, reason few-participants`, () => {
    const clusters = [
      [1, 1, 1, 1, 1],
      [1, 1, 1, 1, 0],
      [1, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ];
    const iv = chooseReportedInterval(clusters, boot(clusters));
    expect(iv).toMatchObject({ method: "clustered-wilson", reason: "few-participants" });
    expect(iv.low).toBeCloseTo(0.177839, 5);
    expect(iv.high).toBeCloseTo(0.822161, 5);
  });

  it(`${MIN_BOOTSTRAP_PARTICIPANTS} or more participants with mixed answers: the participant bootstrap as computed`, () => {
    const clusters = people(MIN_BOOTSTRAP_PARTICIPANTS, (p) => [p % 2, (p + 1) % 3 === 0 ? 1 : 0, 1]);
    const b = boot(clusters);
    const iv = chooseReportedInterval(clusters, b);
    expect(iv).toEqual({
      low: b.low,
      high: b.high,
      method: "participant-bootstrap",
      reason: null,
      clusteredWilson: null,
    });
    expect(describeInterval(iv)).toBe("participant bootstrap");
  });

  it("a bootstrap narrower than 0.1 point (every participant 1 of 2 right) falls back to Wilson with ρ̂ = 0", () => {
    const clusters = people(12, () => [1, 0]);
    const b = boot(clusters);
    expect(b.high! - b.low!).toBe(0);
    const iv = chooseReportedInterval(clusters, b);
    expect(iv).toMatchObject({ method: "clustered-wilson", reason: "narrow" });
    expect(iv.clusteredWilson).toMatchObject({ icc: 0, iccSource: "estimated", effectiveN: 24 });
    expect(iv.high - iv.low).toBeGreaterThan(0.3);
  });
});

describe("the paper tables never print a zero-width human interval", () => {
  // T1 all right (the paper's human 100.00), Rot all wrong, three participants; the bootstrap gives points there.
  const records: ResponseRecord[] = ["P1", "P2", "P3"].flatMap((participantId) =>
    [0, 1].flatMap((i) => [
      {
        participantId,
        itemId: `t${i}`,
        taskId: "translation" as const,
        exact: 1 as const,
        partial: 1,
        condition: "static",
        cohort: "crowd",
      },
      {
        participantId,
        itemId: `r${i}`,
        taskId: "rotation" as const,
        exact: 0 as const,
        partial: 0,
        condition: "static",
        cohort: "crowd",
      },
    ]),
  );
  const out = summarizeHumanResults(records, { seed: "zero-width", replicates: 300 });
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  const summary: HumanResultsSummary = out.value;
  const trans = summary.overall.columns.find((c) => c.column === "translation")!;

  it("the summary keeps the collapsed bootstrap and reports the clustered Wilson beside it", () => {
    expect([trans.exact.bootstrap.low, trans.exact.bootstrap.high]).toEqual([1, 1]);
    // 3 participants × 2 answers, all right: ρ bound 1, DE 2, n_eff 3 → low = 3/(3 + z²) = 0.438503.
    expect(trans.exact.interval.low).toBeCloseTo(3 / (3 + Z2), 12);
    expect(trans.exact.interval.high).toBe(1);
  });

  it("LaTeX, Markdown (line and ±) and CSV print [43.9, 100.0] and [0.0, 56.1], and no point interval", () => {
    for (const metric of ["exact", "partial"] as const) {
      const table = buildPaperTable({ metric, human: summary.overall, comparison: null, includePaperRows: false });
      const tex = formatPaperTableLatex(table);
      expect(tex).toContain("{\\scriptsize [43.9, 100.0]} & {\\scriptsize [0.0, 56.1]}");
      expect(tex).toMatch(/Clustered Wilson interval \(not the bootstrap\) in: Trans, Rot\./);
      const md = formatPaperTableMarkdown(table);
      expect(md).toContain("100.0<br>[43.9, 100.0] | 0.0<br>[0.0, 56.1]");
      expect(formatPaperTableMarkdown(table, { intervals: "pm" })).toContain("100.0 ± 28.1 | 0.0 ± 28.1");
      const csv = paperTableCsvRecords([table]);
      const human = csv[1]!;
      const at = (label: string) => csv[0]!.indexOf(label);
      expect([human[at("Trans low")], human[at("Trans high")]]).toEqual(["43.9", "100.0"]);
      expect([human[at("Rot low")], human[at("Rot high")]]).toEqual(["0.0", "56.1"]);
      for (const text of [tex, md]) {
        for (const m of text.matchAll(/\[(\d+\.\d+), (\d+\.\d+)\]/g)) expect(m[1]).not.toBe(m[2]);
      }
    }
  });

  it("an interval narrower than the printed resolution gets more decimals, never a point", () => {
    const table = buildPaperTable({
      metric: "exact",
      human: summary.overall,
      comparison: null,
      includePaperRows: false,
    });
    const row = table.rows[0]!;
    row.cells.translation = { value: 0.9997, low: 0.9995, high: 0.9999 };
    const tex = formatPaperTableLatex(table);
    expect(tex).toContain("{\\scriptsize [99.95, 99.99]}");
    expect(formatPaperTableMarkdown(table, { intervals: "pm" })).toContain("100.0 ± 0.02");
    const csv = paperTableCsvRecords([table]);
    expect(csv[1]![csv[0]!.indexOf("Trans low")]).toBe("99.95");
  });
});
