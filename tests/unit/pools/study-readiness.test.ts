import { describe, expect, it } from "vitest";
import { checkStudyReadiness } from "@/lib/pools/study-readiness";

const base = {
  poolFrozen: true,
  tasks: ["translation", "rotation"],
  itemsPerTask: 5,
  answersPerItem: 3,
  maxParticipants: 10 as number | null,
};

describe("checkStudyReadiness", () => {
  it("passes a frozen pool whose quota covers the demand", () => {
    // supply 50 × 3 = 150 answers per task ≥ demand 10 participants × 5 = 50
    const r = checkStudyReadiness({ ...base, mainItemsPerTask: { translation: 50, rotation: 50 } });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.perTask).toEqual([
      { taskId: "translation", available: 50, required: 5, supplyAnswers: 150, demandAnswers: 50 },
      { taskId: "rotation", available: 50, required: 5, supplyAnswers: 150, demandAnswers: 50 },
    ]);
    expect(r.capacityParticipants).toBe(30); // 150 / 5
  });

  it("refuses a pool version that is not frozen", () => {
    const r = checkStudyReadiness({ ...base, poolFrozen: false, mainItemsPerTask: { translation: 50, rotation: 50 } });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/not frozen/);
  });

  it("refuses a task with fewer items than each participant needs, naming the task and the counts", () => {
    const r = checkStudyReadiness({ ...base, mainItemsPerTask: { translation: 50, rotation: 4 } });
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^T2 Rotation: the pool has 4 active item\(s\), but each participant needs 5 different ones\. Lower items per task to 4/,
      ),
    ]);
    expect(r.problems).toEqual([{ path: "config.itemsPerTask", message: r.errors[0] }]);
    // A task missing from the pool entirely: its own message, on the task list.
    const missing = checkStudyReadiness({ ...base, mainItemsPerTask: { translation: 50 } });
    expect(missing.problems).toEqual([
      {
        path: "config.tasks",
        message:
          "T2 Rotation: the pool version has no active item of this task. Remove the task or add items to the pool.",
      },
    ]);
  });

  it("warns when items × k is smaller than participants × items per task", () => {
    // 30 × 3 = 90 < 20 × 5 = 100 → only floor(90 / 5) = 18 participants can be served
    const r = checkStudyReadiness({
      ...base,
      maxParticipants: 20,
      mainItemsPerTask: { translation: 30, rotation: 40 },
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(
      /^T1 Translation: 30 items × k 3 = 90 answers, less than the expected demand of 20 participants × 5 = 100; only about 18/,
    );
    expect(r.capacityParticipants).toBe(18);
  });

  it("without a participant cap, reports how many participants the quota serves (the scarcest task decides)", () => {
    // translation 50 × 3 / 5 = 30, rotation 12 × 3 / 5 = 7.2 → 7
    const r = checkStudyReadiness({
      ...base,
      maxParticipants: null,
      mainItemsPerTask: { translation: 50, rotation: 12 },
    });
    expect(r.capacityParticipants).toBe(7);
    expect(r.perTask.every((t) => t.demandAnswers === null)).toBe(true);
    expect(r.warnings).toEqual([expect.stringMatching(/No participant cap.*about 7 participant/)]);
  });

  describe("when saving (the study form and API)", () => {
    const save = { ...base, stage: "save" as const };

    it("does not need a frozen pool, and says nothing about a missing cap", () => {
      const r = checkStudyReadiness({
        ...save,
        poolFrozen: false,
        maxParticipants: null,
        mainItemsPerTask: { translation: 50, rotation: 50 },
      });
      expect(r.problems).toEqual([]);
      expect(r.warnings).toEqual([]);
    });

    it("refuses a cap the quota cannot serve, on the cap field, with the k that would", () => {
      // 30 × 3 = 90 < 20 × 5 = 100: 18 participants; k = ⌈100 / 30⌉ = 4 would serve 20.
      const r = checkStudyReadiness({
        ...save,
        maxParticipants: 20,
        mainItemsPerTask: { translation: 30, rotation: 40 },
      });
      expect(r.warnings).toEqual([]);
      expect(r.problems).toEqual([
        {
          path: "config.maxParticipants",
          message:
            "T1 Translation: 30 items × k 3 = 90 answers, less than the expected demand of 20 participants × 5 = 100; only about 18 participants can be served. Lower the cap to 18, raise answers per item to 4, or add items.",
        },
      ]);
    });

    it("explains a shortfall caused by practice or attention items", () => {
      const r = checkStudyReadiness({
        ...save,
        mainItemsPerTask: { translation: 4, rotation: 50 },
        reservedPerTask: { translation: 2 },
      });
      expect(r.errors).toEqual([
        "T1 Translation: the pool has 4 active item(s) (2 more are practice or attention items, kept out of the main block), but each participant needs 5 different ones. Lower items per task to 4 or add items.",
      ]);
    });
  });
});
