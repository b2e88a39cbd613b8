/**
 * Shortcut audit over stored items (item browser, results page): read from real PostgreSQL, scoped to one pool
 * version, equal to the pure audit on the same keys; only aggregates come back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getShortcutAudit } from "@/lib/server/dal/items/get-shortcut-audit";
import { auditShortcuts, byT4Polarity } from "@/lib/shortcuts/audit";
import type { TaskId } from "@/lib/tasks/types";
import { type ResultsStudyFixture, createResultsStudy } from "./results-fixtures";

let fixture: ResultsStudyFixture;

beforeAll(async () => {
  fixture = await createResultsStudy("shortcut-audit");
});

afterAll(async () => {
  await disconnectDb();
});

describe("getShortcutAudit", () => {
  it("audits one pool version's items exactly as the pure audit does on their stored keys", async () => {
    const audits = await getShortcutAudit({ poolVersionId: fixture.poolVersionId });
    const keys = await db.answerKey.findMany({
      where: { item: { poolItems: { some: { poolVersionId: fixture.poolVersionId } } } },
      select: { gold: true, canonical: true, item: { select: { taskId: true } } },
      orderBy: { itemId: "asc" },
    });
    const order = [
      "translation",
      "rotation",
      "zooming",
      "residue_ligand",
      "translation_rotation",
      "rotation_rotation",
      "docking",
      "interaction_location",
      "pocket_ligand",
    ];
    const items = keys
      .map((k) => ({ taskId: k.item.taskId as TaskId, gold: k.gold, canonicalAnswer: k.canonical }))
      .sort((a, b) => order.indexOf(a.taskId) - order.indexOf(b.taskId));
    expect(audits).toEqual(auditShortcuts(items, { groupOf: byT4Polarity }));
    expect(audits.reduce((n, a) => n + a.items, 0)).toBe(fixture.items.length);
    // Stored items carry no coordinates: no pose or polar-distance rule runs here.
    expect(audits.flatMap((a) => a.strategies).every((s) => s.needs === "option-text" || s.needs === "answers")).toBe(
      true,
    );
    // Aggregates only: no key text in what leaves the module.
    const text = JSON.stringify(audits);
    for (const k of keys) expect(text.includes(k.canonical) && k.canonical.length > 2).toBe(false);
  });
});
