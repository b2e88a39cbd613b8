import { describe, expect, it } from "vitest";
import { progressOf } from "@/lib/participant/progress";

// The demo study: one practice question, then nine that count.
const demo = (answered: number) => ({ answered, total: 10, practiceTotal: 1 });

describe("the progress counter", () => {
  it("counts the practice question apart, then the main questions from 1", () => {
    expect(progressOf(demo(0), true, false)).toEqual({ label: "Practice 1 of 1", answered: 0, total: 9 });
    expect(progressOf(demo(1), false, false)).toEqual({ label: "1 of 9", answered: 0, total: 9 });
    expect(progressOf(demo(5), false, false)).toEqual({ label: "5 of 9", answered: 4, total: 9 });
    expect(progressOf(demo(10), false, true)).toEqual({ label: "9 of 9", answered: 9, total: 9 });
  });

  it("without practice questions counts as before", () => {
    expect(progressOf({ answered: 0, total: 3, practiceTotal: 0 }, false, false).label).toBe("1 of 3");
    expect(progressOf({ answered: 3, total: 3, practiceTotal: 0 }, false, true).label).toBe("3 of 3");
  });
});
