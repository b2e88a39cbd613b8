import { describe, expect, it } from "vitest";
import { ExclusionPolicySchema, type ParticipantSignalSummary } from "@/lib/participant/integrity";
import { excludedParticipantIds, withoutExcluded } from "@/lib/results/exclusions";
import { buildPaperTable } from "@/lib/results/paper-table";
import type { ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults } from "@/lib/results/summarize";
import { toTaskSummaryRows } from "@/lib/export/summary-tables";

function summary(participantId: string, s: Partial<ParticipantSignalSummary> = {}): ParticipantSignalSummary {
  return {
    participantId,
    nAnswers: 4,
    nWithSignals: 4,
    hiddenMs: 0,
    hiddenCount: 0,
    blurCount: 0,
    pasteCount: 0,
    pasteChars: 0,
    copyCount: 0,
    webdriver: false,
    nTimed: 4,
    nUnderFloor: 0,
    maxIdenticalRun: 1,
    ...s,
  };
}

/*
 * 12 static and 12 interactive participants, 4 translation items each. Static s01..s12: 2 of 4 right (items i1, i2).
 * Interactive p01..p12: 3 of 4 right (i1..i3). The planted bad participant "p99" (interactive, pasted every answer)
 * answered all 4 wrong. Hand-computed exact accuracy, interactive − static:
 *   kept:       36/48 − 24/48 = 0.75 − 0.5 = +0.25
 *   unexcluded: 36/52 − 24/48 = 0.692307… − 0.5 = +0.192307…
 */
const ITEMS = ["i1", "i2", "i3", "i4"];
function person(id: string, condition: "static" | "interactive", right: number): ResponseRecord[] {
  return ITEMS.map((itemId, k) => ({
    participantId: id,
    itemId,
    taskId: "translation",
    exact: k < right ? 1 : 0,
    partial: k < right ? 1 : 0,
    condition,
    cohort: "unspecified",
  }));
}
const pad = (n: number) => String(n).padStart(2, "0");
const records: ResponseRecord[] = [
  ...Array.from({ length: 12 }, (_, i) => person(`s${pad(i + 1)}`, "static", 2)).flat(),
  ...Array.from({ length: 12 }, (_, i) => person(`p${pad(i + 1)}`, "interactive", 3)).flat(),
  ...person("p99", "interactive", 0),
];
const signals = [...new Set(records.map((r) => r.participantId))].map((id) =>
  summary(id, id === "p99" ? { pasteCount: 4 } : {}),
);
const policy = ExclusionPolicySchema.parse({ anyPaste: true });

describe("exclusions apply to every estimate", () => {
  it("excludedParticipantIds: the policy's verdict, sorted; nobody without a policy", () => {
    expect(excludedParticipantIds(policy, signals)).toEqual(["p99"]);
    expect(excludedParticipantIds(ExclusionPolicySchema.parse({}), signals)).toEqual([]);
    expect(withoutExcluded(records, ["p99"])).toHaveLength(96);
  });

  const excluded = excludedParticipantIds(policy, signals);
  const withPolicy = summarizeHumanResults(records, { seed: "t", replicates: 200, excludedParticipantIds: excluded });
  const without = summarizeHumanResults(records, { seed: "t", replicates: 200 });
  if (!withPolicy.ok || !without.ok) throw new Error("records do not validate");

  it("the per-task accuracy and the condition effect leave the planted participant out; the unexcluded figures come beside", () => {
    const kept = withPolicy.value;
    expect(kept.overall.nParticipants).toBe(24);
    expect(kept.overall.columns[0]!.exact.mean).toBe(60 / 96);
    expect(kept.conditionEffect.overall.estimate).toBe(0.25);
    expect(kept.unexcluded).not.toBeNull();
    expect(kept.unexcluded!.nExcludedParticipants).toBe(1);
    expect(kept.unexcluded!.nExcludedResponses).toBe(4);
    expect(kept.unexcluded!.overall.columns[0]!.exact.mean).toBe(60 / 100);
    expect(kept.unexcluded!.conditionEffect.overall.estimate).toBeCloseTo(36 / 52 - 0.5, 15);
    // Without a policy nothing is excluded: the default figures are the unexcluded ones.
    expect(without.value.unexcluded).toBeNull();
    expect(without.value.conditionEffect.overall.estimate).toBeCloseTo(36 / 52 - 0.5, 15);
    expect(without.value.conditionEffect.overall.low).toBe(kept.unexcluded!.conditionEffect.overall.low);
    expect(kept.conditionEffect.overall.low).not.toBe(kept.unexcluded!.conditionEffect.overall.low);
  });

  it("the paper table's human row and effect row leave the participant out, a second row keeps them in", () => {
    const s = withPolicy.value;
    const table = buildPaperTable({
      metric: "exact",
      human: s.overall,
      comparison: null,
      includePaperRows: false,
      conditionEffect: s.conditionEffect,
      unexcluded: s.unexcluded,
    });
    const humans = table.rows.filter((r) => r.kind === "human");
    expect(humans.map((r) => [r.label, r.cells.translation!.value])).toEqual([
      ["Human (this study)", 0.625],
      ["Human, no exclusions", 0.6],
    ]);
    expect(table.rows.find((r) => r.kind === "effect")!.cells.translation!.value).toBe(0.25);
    expect(table.notes.join(" ")).toContain("(1 excluded;");
    expect(table.notes.join(" ")).toContain(
      "Interactive − static with the 1 excluded participants kept in, all tasks pooled: +19.2 pp",
    );
  });

  it("the summary CSV: condition-effect rows without and with the excluded participant, the overall rows with them too", () => {
    const rows = toTaskSummaryRows(withPolicy.value);
    const effect = rows.filter((r) => r.groupType === "condition_effect").map((r) => [r.group, r.column, r.exactMean]);
    expect(effect).toEqual([
      ["interactive_minus_static", "translation", 0.25],
      ["interactive_minus_static", "all_tasks", 0.25],
      ["interactive_minus_static_unexcluded", "translation", 36 / 52 - 0.5],
      ["interactive_minus_static_unexcluded", "all_tasks", 36 / 52 - 0.5],
    ]);
    expect(rows.find((r) => r.group === "all_unexcluded" && r.column === "translation")!.exactMean).toBe(0.6);
    expect(rows.find((r) => r.group === "all" && r.column === "translation")!.exactMean).toBe(0.625);
  });
});
