import { describe, expect, it } from "vitest";
import { summarizeHumanResults, type ColumnSummary, type HumanResultsSummary } from "@/lib/results/summarize";
import { computePaperAverage } from "@/lib/results/task-columns";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { makeRecord, THREE_PARTICIPANTS } from "./fixtures";

function summarize(input: unknown, seed: string | number = "s1"): HumanResultsSummary {
  const out = summarizeHumanResults(input, { seed, replicates: 400 });
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  return out.value;
}

function column(summary: HumanResultsSummary["overall"], key: string): ColumnSummary {
  const c = summary.columns.find((x) => x.column === key);
  if (!c) throw new Error(`no column ${key}`);
  return c;
}

describe("summarizeHumanResults on three participants", () => {
  const s = summarize(THREE_PARTICIPANTS);

  it("translation: counts, means, Wilson on responses, participant spread", () => {
    const t = column(s.overall, "translation");
    expect(t).toMatchObject({ nItems: 2, nParticipants: 3, nResponses: 6, label: "Trans" });
    expect(t.exact.mean).toBe(0.5); // 3 of 6
    expect(t.partial.mean).toBeCloseTo(4.25 / 6, 12); // 1 + 1 + 0.5 + 0.75 + 1 + 0
    expect(t.exact.wilson).toEqual(wilsonInterval(3, 6));
    // Participant exact means P1 0.5, P2 1, P3 0; partial means 0.875, 1, 0.25.
    expect(t.exact.participantSpread).toEqual({ n: 3, min: 0, median: 0.5, max: 1 });
    expect(t.partial.participantSpread).toEqual({ n: 3, min: 0.25, median: 0.875, max: 1 });
    expect(t.chance.exact).toBeCloseTo(1 / 9, 12);
  });

  it("bootstrap intervals contain the mean, stay within participant means, and record their seed", () => {
    const t = column(s.overall, "translation");
    expect(t.exact.bootstrap.seed).toBe("s1|all|translation|exact");
    expect(t.partial.bootstrap.seed).toBe("s1|all|translation|partial");
    expect(t.exact.bootstrap.nClusters).toBe(3);
    expect(t.exact.bootstrap.low!).toBeLessThanOrEqual(0.5);
    expect(t.exact.bootstrap.high!).toBeGreaterThanOrEqual(0.5);
    // Every participant answered 2 items, so a replicate mean is the mean of 3 drawn participant means.
    expect(t.exact.bootstrap.low!).toBeGreaterThanOrEqual(0);
    expect(t.exact.bootstrap.high!).toBeLessThanOrEqual(1);
  });

  it("splits T4 into Pos. and Neg. columns", () => {
    const pos = column(s.overall, "residue_ligand_pos");
    const neg = column(s.overall, "residue_ligand_neg");
    expect(pos).toMatchObject({
      taskId: "residue_ligand",
      t4Polarity: "pos",
      nItems: 1,
      nParticipants: 2,
      nResponses: 2,
      label: "ResLig+",
    });
    expect(pos.exact.mean).toBe(0.5);
    expect(pos.partial.mean).toBe(0.75);
    expect(neg).toMatchObject({ t4Polarity: "neg", nResponses: 2 });
    expect(neg.exact.mean).toBe(1);
    expect(neg.exact.bootstrap).toMatchObject({ low: 1, high: 1 });
    expect(s.overall.columns.map((c) => c.column)).toEqual([
      "translation",
      "residue_ligand_pos",
      "residue_ligand_neg",
      "interaction_location",
    ]);
  });

  it("averages are null while columns are missing, and say which", () => {
    expect(s.overall.paperAverage.exact).toBeNull();
    expect(s.overall.paperAverage.missing).toEqual(["rotation", "zooming", "docking", "pocket_ligand"]);
    expect(s.overall.allTaskAverage.missing).toEqual([
      "rotation",
      "zooming",
      "translation_rotation",
      "rotation_rotation",
      "docking",
      "pocket_ligand",
    ]);
    expect(s.overall).toMatchObject({ nParticipants: 3, nResponses: 13 });
  });

  it("groups by condition and by cohort", () => {
    expect(Object.keys(s.byCondition)).toEqual(["interactive", "static"]);
    // Static = P1 + P2: translation 1, 0, 1, 1.
    expect(column(s.byCondition.static!, "translation").exact.mean).toBe(0.75);
    expect(column(s.byCondition.interactive!, "translation").exact.mean).toBe(0);
    expect(s.byCondition.static!.nParticipants).toBe(2);
    expect(Object.keys(s.byCohort)).toEqual(["bio", "stem"]);
    expect(column(s.byCohort.bio!, "translation").nParticipants).toBe(1);
    expect(column(s.byCohort.stem!, "interaction_location").exact.mean).toBe(0.5);
    expect(column(s.byCohort.stem!, "translation").exact.bootstrap.seed).toBe("s1|cohort=stem|translation|exact");
  });

  it("is deterministic for a seed and independent of record order", () => {
    expect(summarize(THREE_PARTICIPANTS)).toEqual(s);
    expect(summarize([...THREE_PARTICIPANTS].reverse())).toEqual(s);
  });
});

describe("summarizeHumanResults averages", () => {
  it("computes the paper's Avg (8 columns) and the all-task average (10) by hand", () => {
    // One participant, one item per column. exact / partial per column:
    // Trans 1/1, Rot 0/0.5, Zoom 1/1, ResLig+ 1/1, ResLig− 1/1, TransRot 0/0, RotRot 0/0, Dock 0/0.25, InterLoc 1/1, PocLig 0/0.5
    const rows: [string, "pos" | "neg" | undefined, 0 | 1, number][] = [
      ["translation", undefined, 1, 1],
      ["rotation", undefined, 0, 0.5],
      ["zooming", undefined, 1, 1],
      ["residue_ligand", "pos", 1, 1],
      ["residue_ligand", "neg", 1, 1],
      ["translation_rotation", undefined, 0, 0],
      ["rotation_rotation", undefined, 0, 0],
      ["docking", undefined, 0, 0.25],
      ["interaction_location", undefined, 1, 1],
      ["pocket_ligand", undefined, 0, 0.5],
    ];
    const records = rows.map(([taskId, t4Polarity, exact, partial], i) =>
      makeRecord({ itemId: `i${i}`, taskId: taskId as never, exact, partial, ...(t4Polarity ? { t4Polarity } : {}) }),
    );
    const s = summarize(records);
    expect(s.overall.paperAverage).toEqual({ exact: 5 / 8, partial: 6.25 / 8, missing: [] });
    expect(s.overall.allTaskAverage).toEqual({ exact: 5 / 10, partial: 6.25 / 10, missing: [] });
  });

  it("the same average function reproduces the paper's human Avg from its cells", () => {
    const partial = {
      translation: 100,
      rotation: 70.18,
      zooming: 30,
      residue_ligand_pos: 100,
      residue_ligand_neg: 100,
      docking: 74.54,
      interaction_location: 92,
      pocket_ligand: 82.78,
    };
    const exact = {
      translation: 100,
      rotation: 58,
      zooming: 30,
      residue_ligand_pos: 100,
      residue_ligand_neg: 100,
      docking: 60,
      interaction_location: 92,
      pocket_ligand: 70,
    };
    expect(Math.abs(computePaperAverage(partial).value! - 81.18)).toBeLessThanOrEqual(0.01);
    expect(computePaperAverage(exact).value).toBeCloseTo(76.25, 10);
  });
});

describe("summarizeHumanResults rejects bad records with their position", () => {
  it.each([
    ["T4 without polarity", [makeRecord({ taskId: "residue_ligand" })], { index: 0, field: "t4Polarity" }],
    ["polarity on another task", [makeRecord({ t4Polarity: "pos" })], { index: 0, field: "t4Polarity" }],
    ["exact without full partial", [makeRecord({ exact: 1, partial: 0.5 })], { index: 0, field: "partial" }],
    [
      "MC partial credit",
      [makeRecord({ taskId: "interaction_location", exact: 0, partial: 0.5 })],
      { index: 0, field: "partial" },
    ],
    [
      "MC letter out of range",
      [makeRecord({ taskId: "rotation_rotation", answer: "E" })],
      { index: 0, field: "answer" },
    ],
    ["unknown task", [makeRecord({ taskId: "folding" as never })], { index: 0, field: "taskId" }],
    ["partial above 1", [makeRecord({ exact: 0, partial: 1.5 })], { index: 0, field: "partial" }],
    ["duplicate answer", [makeRecord(), makeRecord()], { index: 1, field: "itemId" }],
    [
      "item changes task",
      [makeRecord(), makeRecord({ participantId: "P2", taskId: "rotation" })],
      { index: 1, field: "taskId" },
    ],
  ])("%s", (_name, input, expected) => {
    const out = summarizeHumanResults(input, { seed: 1 });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.issues[0]).toMatchObject({ source: "human", ...expected });
  });

  it("a non-array input is an issue, not a crash", () => {
    const out = summarizeHumanResults({ rows: [] }, { seed: 1 });
    expect(out).toMatchObject({
      ok: false,
      issues: [{ index: -1, reason: expect.stringMatching(/expected an array/) }],
    });
  });

  it("caps a flood of issues", () => {
    const out = summarizeHumanResults(
      Array.from({ length: 80 }, () => ({})),
      { seed: 1 },
    );
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.issues).toHaveLength(51);
      expect(out.issues[50]!.reason).toMatch(/more issues not shown/);
    }
  });
});

describe("fair score beside the paper score", () => {
  const base = { condition: "static", cohort: "c" };
  const records = [
    {
      ...base,
      participantId: "p1",
      itemId: "t9a",
      taskId: "pocket_ligand",
      exact: 0,
      partial: 0,
      fairExact: 1,
      fairPartial: 1,
      fairF1: 1,
    },
    {
      ...base,
      participantId: "p2",
      itemId: "t9a",
      taskId: "pocket_ligand",
      exact: 0,
      partial: 1,
      fairExact: 0,
      fairPartial: 1,
      fairF1: 0.2,
    },
    { ...base, participantId: "p1", itemId: "t1a", taskId: "translation", exact: 1, partial: 1 },
    { ...base, participantId: "p2", itemId: "t1a", taskId: "translation", exact: 0, partial: 0.5 },
  ];
  const out = summarizeHumanResults(records, { seed: 1, replicates: 50 });
  if (!out.ok) throw new Error(JSON.stringify(out.issues));
  const t9 = out.value.overall.columns.find((c) => c.column === "pocket_ligand")!;
  const t1 = out.value.overall.columns.find((c) => c.column === "translation")!;
  it("paper score unchanged, fair score from the fair fields", () => {
    expect(t9.exact.mean).toBe(0);
    expect(t9.partial.mean).toBe(0.5);
    expect(t9.fair.exact.mean).toBe(0.5);
    expect(t9.fair.partial.mean).toBe(1);
    expect(t9.fair.f1?.mean).toBeCloseTo(0.6, 10);
  });
  it("tasks without fair fields: fair = paper (intervals too), no F1", () => {
    expect(t1.fair.exact.mean).toBe(t1.exact.mean);
    expect(t1.fair.partial.mean).toBe(t1.partial.mean);
    expect(t1.fair.exact.bootstrap).toEqual(t1.exact.bootstrap);
    expect(t1.fair.f1).toBeNull();
  });
  it("the fair score gets its own participant bootstrap: p1 fair 1, p2 fair 0 → the interval spans 0 to 1", () => {
    // Resampling two participants: means 0, 0.5 or 1 — the paper exact (0 for both) has the degenerate interval [0, 0].
    expect([t9.exact.bootstrap.low, t9.exact.bootstrap.high]).toEqual([0, 0]);
    expect(t9.fair.exact.bootstrap.low).toBe(0);
    expect(t9.fair.exact.bootstrap.high).toBe(1);
    expect([t9.fair.partial.bootstrap.low, t9.fair.partial.bootstrap.high]).toEqual([1, 1]);
    expect(t9.fair.exact.participantSpread).toMatchObject({ min: 0, median: 0.5, max: 1 });
  });
});
