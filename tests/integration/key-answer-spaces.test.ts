/**
 * Chance levels read from stored items (results page, exports, shortcut audit): a generated T1 item's key skips 0
 * (8 values), a MiSI-release item's may not (9), read from the item's source and provenance in PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { loadKeyAnswerSpaces } from "@/lib/server/dal/results/load-key-answer-spaces";
import { PROJECT_GENERATOR_NAME } from "@/lib/tasks/chance";
import { getTask } from "@/lib/tasks/registry";

afterAll(async () => {
  await disconnectDb();
});

async function createItem(
  tag: string,
  n: number,
  source: "generated" | "misi_release" | "bundle",
  taskId: "translation" | "rotation",
  provenance: object | undefined,
) {
  const gold = taskId === "translation" ? { axis: "x", distanceA: 2 } : { axis: "y", angleDeg: 30 };
  const item = await db.item.create({
    data: {
      source,
      externalId: `chance-${tag}-${n}`,
      taskId,
      taskVersion: getTask(taskId).version,
      question: `Question ${n}`,
      payload: { pdbId: "1abc" },
      contentHash: `chance-${tag}-${n}`,
      ...(provenance ? { provenance } : {}),
      answerKey: { create: { gold, canonical: getTask(taskId).canonicalizeGold(gold as never) } },
    },
    select: { id: true },
  });
  return item.id;
}

describe("loadKeyAnswerSpaces", () => {
  it("generated items (in-app or from this generator's bundle) count their params' values; release items the spec's range", async () => {
    const tag = randomBytes(4).toString("hex");
    const generated = await createItem(tag, 1, "generated", "translation", {
      generator: PROJECT_GENERATOR_NAME,
      params: { allowZero: false, minDistanceA: -4, maxDistanceA: 4 },
    });
    const bundled = await createItem(tag, 2, "bundle", "rotation", {
      importedFrom: "bundle",
      bundle: { generator: PROJECT_GENERATOR_NAME, params: {} },
    });
    const release = await createItem(tag, 3, "misi_release", "translation", { importedFrom: "misi-release" });
    const noProvenance = await createItem(tag, 4, "misi_release", "rotation", undefined);
    const spaces = await loadKeyAnswerSpaces([
      { itemId: generated, taskId: "translation" },
      { itemId: bundled, taskId: "rotation" },
      { itemId: release, taskId: "translation" },
      { itemId: noProvenance, taskId: "rotation" },
      { itemId: "not-a-value-range-task", taskId: "interaction_location" },
    ]);
    expect(spaces.get(generated)?.size).toBe(8);
    expect(spaces.get(bundled)?.size).toBe(12);
    expect(spaces.get(release)?.size).toBe(9);
    expect(spaces.get(noProvenance)?.size).toBe(13);
    expect(spaces.has("not-a-value-range-task")).toBe(false);
  });
});
