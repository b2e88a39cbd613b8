import { describe, expect, it } from "vitest";
import { ExclusionPolicySchema, type ParticipantSignalSummary } from "@/lib/participant/integrity";
import { applyExclusionPolicy } from "@/lib/results/exclusions";
import type { ResponseRecord } from "@/lib/results/response-records";

function summary(participantId: string, s: Partial<ParticipantSignalSummary>): ParticipantSignalSummary {
  return {
    participantId,
    nAnswers: 2,
    nWithSignals: 2,
    hiddenMs: 0,
    hiddenCount: 0,
    blurCount: 0,
    pasteCount: 0,
    pasteChars: 0,
    copyCount: 0,
    webdriver: false,
    nTimed: 2,
    nUnderFloor: 0,
    maxIdenticalRun: 1,
    ...s,
  };
}

function rec(
  participantId: string,
  itemId: string,
  exact: 0 | 1,
  taskId: ResponseRecord["taskId"] = "translation",
): ResponseRecord {
  return { participantId, itemId, taskId, exact, partial: exact, condition: "static", cohort: "unspecified" };
}

// a: 2/2 correct, pasted; b: 0/2, hidden 90 s and pasted; c: 1/2 clean. Hand-computed: all 3/6 = 50 %; kept (c) 1/2.
const records = [
  rec("a", "i1", 1),
  rec("a", "i2", 1),
  rec("b", "i1", 0),
  rec("b", "i2", 0),
  rec("c", "i1", 1),
  rec("c", "i2", 0, "rotation"),
];
const summaries = [
  summary("a", { pasteCount: 1 }),
  summary("b", { pasteCount: 2, hiddenMs: 90_000 }),
  summary("c", {}),
];

describe("applyExclusionPolicy", () => {
  it("without a policy keeps everyone: both views are the same", () => {
    const r = applyExclusionPolicy(ExclusionPolicySchema.parse({}), summaries, records);
    expect(r.rules).toEqual([]);
    expect(r.nExcluded).toBe(0);
    expect(r.kept).toEqual(r.all);
    expect(r.all.exact).toBe(0.5);
  });

  it("reports accuracy with and without exclusions and what each rule removed", () => {
    const r = applyExclusionPolicy(
      ExclusionPolicySchema.parse({ anyPaste: true, hiddenSecOver: 60 }),
      summaries,
      records,
    );
    expect(r.rules.map((x) => [x.rule, x.nMatched, x.nOnlyThisRule])).toEqual([
      ["hiddenSecOver", 1, 0],
      ["anyPaste", 2, 1],
    ]);
    expect(r.nParticipants).toBe(3);
    expect(r.nExcluded).toBe(2);
    expect(r.all).toMatchObject({ nParticipants: 3, nResponses: 6, exact: 0.5 });
    expect(r.kept).toMatchObject({ nParticipants: 1, nResponses: 2, exact: 0.5 });
    // Per column: translation all = (1+1+0+0+1)/5 = 0.6, kept = 1/1; rotation 0/1 both.
    expect(r.all.columns).toEqual([
      { column: "translation", label: "Trans", nResponses: 5, exact: 0.6 },
      { column: "rotation", label: "Rot", nResponses: 1, exact: 0 },
    ]);
    expect(r.kept.columns.map((c) => [c.column, c.exact])).toEqual([
      ["translation", 1],
      ["rotation", 0],
    ]);
    expect(r.participants.find((p) => p.participantId === "b")?.excludedBy).toEqual(["hiddenSecOver", "anyPaste"]);
    expect(r.participants.find((p) => p.participantId === "c")?.excludedBy).toEqual([]);
  });

  it("keeps a participant without any signals and counts them", () => {
    const r = applyExclusionPolicy(ExclusionPolicySchema.parse({ anyPaste: true }), summaries.slice(0, 2), [
      ...records,
      rec("d", "i1", 1),
    ]);
    expect(r.nParticipants).toBe(4);
    expect(r.nWithoutBrowserSignals).toBe(2);
    expect(r.kept).toMatchObject({ nParticipants: 2, nResponses: 3 });
  });
});
