import { describe, expect, it } from "vitest";
import {
  AnswerSignalsSchema,
  ExclusionPolicySchema,
  exclusionReasons,
  IdenticalRunTracker,
  identicalRunLengths,
  isUnderFloor,
  summarizeParticipantSignals,
  TASK_TIME_FLOORS_MS,
  type AnswerSignals,
  type SignalledAnswer,
} from "@/lib/participant/integrity";
import { TASK_IDS } from "@/lib/tasks/types";

const device = {
  viewportWidth: 1280,
  viewportHeight: 800,
  devicePixelRatio: 1,
  pointer: "fine" as const,
  touch: false,
};
const clean: AnswerSignals = {
  hiddenMs: 0,
  hiddenCount: 0,
  blurCount: 0,
  blurMs: 0,
  pasteCount: 0,
  pasteChars: 0,
  copyCount: 0,
  copyChars: 0,
  reloads: 0,
  webdriver: false,
  device,
};

function answer(
  participantId: string,
  canonicalAnswer: string,
  rtServerMs: number | null,
  signals: Partial<AnswerSignals> | null = {},
  taskId = "translation",
): SignalledAnswer {
  return {
    participantId,
    taskId,
    canonicalAnswer,
    rtServerMs,
    rtClientMs: null,
    signals: signals === null ? null : { ...clean, ...signals },
  };
}

describe("identical answers in a row", () => {
  it("counts the run up to each answer; a time-out breaks it", () => {
    expect(identicalRunLengths(["A", "A", "B", "B", "B", "", "B", "A"])).toEqual([1, 2, 1, 2, 3, 0, 1, 1]);
    expect(identicalRunLengths([])).toEqual([]);
  });

  it("the tracker gives the same runs across interleaved participants (the export's pages)", () => {
    const t = new IdenticalRunTracker();
    const seq: Array<[string, string]> = [
      ["p", "A"],
      ["q", "A"],
      ["p", "A"],
      ["q", "B"],
      ["p", "A"],
      ["p", ""],
      ["p", "A"],
    ];
    expect(seq.map(([p, a]) => t.next(p, a))).toEqual([1, 1, 2, 1, 3, 0, 1]);
  });
});

describe("time floors", () => {
  it("define a floor for every task", () => {
    for (const id of TASK_IDS) expect(TASK_TIME_FLOORS_MS[id]).toBeGreaterThan(0);
  });

  it("use the server's time, the client's only without it; time-outs and unknown times are not judged", () => {
    expect(
      isUnderFloor({ taskId: "translation", rtServerMs: 2_999, rtClientMs: 60_000, canonicalAnswer: "move x 1" }),
    ).toBe(true);
    expect(
      isUnderFloor({ taskId: "translation", rtServerMs: 3_000, rtClientMs: 100, canonicalAnswer: "move x 1" }),
    ).toBe(false);
    expect(isUnderFloor({ taskId: "pocket_ligand", rtServerMs: null, rtClientMs: 5_999, canonicalAnswer: "x" })).toBe(
      true,
    );
    expect(
      isUnderFloor({ taskId: "pocket_ligand", rtServerMs: null, rtClientMs: null, canonicalAnswer: "x" }),
    ).toBeNull();
    expect(isUnderFloor({ taskId: "translation", rtServerMs: 10, rtClientMs: 10, canonicalAnswer: "" })).toBeNull();
  });
});

describe("browser signals schema", () => {
  it("accepts a real body and refuses unknown fields, negatives and out-of-bound numbers, naming the field", () => {
    expect(AnswerSignalsSchema.parse(clean)).toEqual(clean);
    const extra = AnswerSignalsSchema.safeParse({ ...clean, pastedText: "secret" });
    expect(extra.success).toBe(false);
    const negative = AnswerSignalsSchema.safeParse({ ...clean, hiddenMs: -1 });
    expect(negative.error?.issues[0]?.path).toEqual(["hiddenMs"]);
    const huge = AnswerSignalsSchema.safeParse({ ...clean, device: { ...device, devicePixelRatio: 1e9 } });
    expect(huge.error?.issues[0]?.path).toEqual(["device", "devicePixelRatio"]);
  });
});

describe("per-participant summary and the policy", () => {
  const answers = [
    answer("p", "A", 10_000, { hiddenMs: 4_000, hiddenCount: 1, blurCount: 2 }),
    answer("p", "A", 1_000, { pasteCount: 1, pasteChars: 8 }),
    answer("p", "A", 2_000, null),
    answer("q", "B", 20_000),
    answer("q", "C", 20_000, { webdriver: true, copyCount: 1 }),
  ];
  const [p, q] = summarizeParticipantSignals(answers);

  it("sums the browser signals and derives floor and run counts", () => {
    expect(p).toMatchObject({
      participantId: "p",
      nAnswers: 3,
      nWithSignals: 2,
      hiddenMs: 4_000,
      hiddenCount: 1,
      blurCount: 2,
      pasteCount: 1,
      pasteChars: 8,
      webdriver: false,
      nTimed: 3,
      nUnderFloor: 2,
      maxIdenticalRun: 3,
    });
    expect(q).toMatchObject({
      participantId: "q",
      nAnswers: 2,
      webdriver: true,
      copyCount: 1,
      nUnderFloor: 0,
      maxIdenticalRun: 1,
    });
  });

  it("excludes nobody by default", () => {
    const none = ExclusionPolicySchema.parse({});
    expect(exclusionReasons(none, p!)).toEqual([]);
    expect(exclusionReasons(none, q!)).toEqual([]);
  });

  it("applies each threshold as documented (strictly over for hidden time and focus losses, at least for % and runs)", () => {
    const policy = (x: object) => ExclusionPolicySchema.parse(x);
    expect(exclusionReasons(policy({ hiddenSecOver: 4 }), p!)).toEqual([]); // 4.0 s is not over 4 s
    expect(exclusionReasons(policy({ hiddenSecOver: 3 }), p!)).toEqual(["hiddenSecOver"]);
    expect(exclusionReasons(policy({ focusLossesOver: 2 }), p!)).toEqual([]);
    expect(exclusionReasons(policy({ focusLossesOver: 1 }), p!)).toEqual(["focusLossesOver"]);
    expect(exclusionReasons(policy({ anyPaste: true }), p!)).toEqual(["anyPaste"]);
    expect(exclusionReasons(policy({ anyCopy: true, webdriver: true }), q!)).toEqual(["anyCopy", "webdriver"]);
    // p: 2 of 3 answers under 3 s = 66.7 %
    expect(exclusionReasons(policy({ fastPercentAtLeast: 66 }), p!)).toEqual(["fastPercentAtLeast"]);
    expect(exclusionReasons(policy({ fastPercentAtLeast: 67 }), p!)).toEqual([]);
    expect(exclusionReasons(policy({ identicalRunAtLeast: 3 }), p!)).toEqual(["identicalRunAtLeast"]);
    expect(exclusionReasons(policy({ identicalRunAtLeast: 4 }), p!)).toEqual([]);
  });

  it("refuses a policy with unknown or out-of-range rules", () => {
    expect(ExclusionPolicySchema.safeParse({ identicalRunAtLeast: 1 }).success).toBe(false);
    expect(ExclusionPolicySchema.safeParse({ fastPercentAtLeast: 101 }).success).toBe(false);
    expect(ExclusionPolicySchema.safeParse({ excludeEveryone: true }).success).toBe(false);
  });
});
