/**
 * Item browser MC validity: option-text-only accuracy per MC task over active items, read
 * from real PostgreSQL. The fixture's T8 items all share the same four options with the key spread
 * over the letters, so every strategy's accuracy is computable by hand from them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureOptionTextStrategies } from "@/lib/generate/mc-validity";
import { db, disconnectDb } from "@/lib/server/db";
import { getOptionTextValidity } from "@/lib/server/dal/items/get-option-text-validity";
import type { McLetter } from "@/lib/tasks/types";
import { createResultsStudy } from "./results-fixtures";

beforeAll(async () => {
  await createResultsStudy("mc-validity");
});

afterAll(async () => {
  await disconnectDb();
});

describe("getOptionTextValidity", () => {
  it("reports each MC task over its active items, equal to the pure measure on the same keys", async () => {
    const reports = await getOptionTextValidity();
    const t8 = reports.find((r) => r.taskId === "interaction_location");
    expect(t8).toBeDefined();
    const keys = await db.answerKey.findMany({
      where: { item: { taskId: "interaction_location", status: "active" } },
      select: { gold: true },
    });
    const expected = measureOptionTextStrategies(keys.map((k) => k.gold as { options: string[]; letter: McLetter }));
    expect(t8!.report).toEqual(expected);
    expect(t8!.report.items).toBeGreaterThan(0);
    expect(reports.some((r) => r.taskId === "translation")).toBe(false);
  });
});
