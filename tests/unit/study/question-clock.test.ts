import { describe, expect, it } from "vitest";
import {
  estimateServerOffsetMs,
  hasTimeLimitRunOut,
  isAnswerLate,
  LATE_ANSWER_GRACE_MS,
  questionDeadlineMs,
  secondsLeft,
  TIMEOUT_SUBMIT_MARGIN_MS,
} from "@/lib/question-clock";

describe("question clock", () => {
  it("puts the deadline at the server's stamp plus the limit", () => {
    expect(questionDeadlineMs(1_000_000, 30)).toBe(1_030_000);
    expect(questionDeadlineMs(1_000_000, null)).toBeNull();
  });

  it("accepts a time-out only once the limit has run out on the server's clock, not a millisecond earlier", () => {
    expect(hasTimeLimitRunOut(1_000_000, 30, 1_029_999)).toBe(false);
    expect(hasTimeLimitRunOut(1_000_000, 30, 1_030_000)).toBe(true);
  });

  it("reads the server's clock halfway through the request", () => {
    // Browser 5 s behind the server; 200 ms round trip; the server answered at its 10_100.
    expect(estimateServerOffsetMs(10_100, 5_000, 5_200)).toBe(5_000);
  });

  it("counts down on the server's clock whatever the browser's clock says", () => {
    const deadline = 1_030_000;
    // A browser 1 h slow sees the same seconds as one in sync.
    expect(secondsLeft(deadline, 1_010_000, 0)).toBe(20);
    expect(secondsLeft(deadline, 1_010_000 - 3_600_000, 3_600_000)).toBe(20);
    expect(secondsLeft(deadline, 1_029_001, 0)).toBe(1);
    expect(secondsLeft(deadline, 1_030_000, 0)).toBe(0);
    expect(secondsLeft(deadline, 2_000_000, 0)).toBe(0);
  });

  it("calls an answer late only past the limit plus the grace, which covers the browser's own time-out submit", () => {
    expect(isAnswerLate(1_000_000, 30, 1_030_000 + LATE_ANSWER_GRACE_MS)).toBe(false);
    expect(isAnswerLate(1_000_000, 30, 1_030_000 + LATE_ANSWER_GRACE_MS + 1)).toBe(true);
    expect(TIMEOUT_SUBMIT_MARGIN_MS).toBeLessThan(LATE_ANSWER_GRACE_MS);
  });
});
