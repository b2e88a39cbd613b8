/**
 * Chance levels from each item's own answer space (lib/tasks/chance.ts): generated T1/T2 keys skip 0 (1/8, 1/12),
 * items imported from the MiSI release may have 0 (the spec's 1/9, 1/13); pools mixing both get the weighted mean.
 * The same rule feeds the shortcut audit, the results summary and its export.
 */
import { describe, expect, it } from "vitest";
import { listHeader, toCsvRecord } from "@/lib/export/columns";
import { TASK_SUMMARY_TABLE, toTaskSummaryRows } from "@/lib/export/summary-tables";
import { generateItems } from "@/lib/generate";
import type { ResponseRecord } from "@/lib/results/response-records";
import { summarizeHumanResults } from "@/lib/results/summarize";
import { auditShortcuts } from "@/lib/shortcuts/audit";
import { toShortcutItem } from "@/lib/shortcuts/from-generated";
import {
  combineChance,
  keyAnswerSpace,
  keyOriginOfStoredItem,
  listKeyValues,
  PROJECT_GENERATOR_NAME,
  SPEC_ORIGIN,
} from "@/lib/tasks/chance";
import { itWithShared } from "../../helpers/shared-data";
import { loadTestComplexes } from "../generate/complexes";

const GENERATED = { kind: "generated" as const, params: {} };
const chanceOf = (taskId: Parameters<typeof keyAnswerSpace>[0], origin = SPEC_ORIGIN) =>
  combineChance([keyAnswerSpace(taskId, origin)]).exact;

describe("answer space of one item", () => {
  it("items from the spec's range (MiSI release): T1 9 distances, T2 13 angles, 0 included; T3 21", () => {
    expect(listKeyValues("translation", SPEC_ORIGIN)).toEqual([-4, -3, -2, -1, 0, 1, 2, 3, 4]);
    expect(listKeyValues("rotation", SPEC_ORIGIN)).toHaveLength(13);
    expect(listKeyValues("rotation", SPEC_ORIGIN)).toContain(0);
    expect(chanceOf("translation")).toBeCloseTo(1 / 9, 15);
    expect(chanceOf("rotation")).toBeCloseTo(1 / 13, 15);
    expect(chanceOf("zooming")).toBeCloseTo(1 / 21, 15);
    expect(keyAnswerSpace("translation", SPEC_ORIGIN).basis).toBe(
      "9 distances in [-4, 4] Å, 0 included, axis given (spec range)",
    );
  });
  it("generated with the default params: 0 excluded, T1 1/8, T2 1/12; T3 unchanged", () => {
    expect(listKeyValues("translation", GENERATED)).toEqual([-4, -3, -2, -1, 1, 2, 3, 4]);
    expect(chanceOf("translation", GENERATED)).toBeCloseTo(1 / 8, 15);
    expect(chanceOf("rotation", GENERATED)).toBeCloseTo(1 / 12, 15);
    expect(chanceOf("zooming", GENERATED)).toBeCloseTo(1 / 21, 15);
    expect(keyAnswerSpace("rotation", GENERATED).basis).toBe(
      "12 angles in [-90, 90]°, 0 excluded, axis given (generated)",
    );
  });
  it("generated with recorded params: the range and allowZero they name", () => {
    expect(chanceOf("translation", { kind: "generated", params: { allowZero: true } })).toBeCloseTo(1 / 9, 15);
    expect(chanceOf("translation", { kind: "generated", params: { minDistanceA: 1, maxDistanceA: 3 } })).toBeCloseTo(
      1 / 3,
      15,
    );
    expect(
      chanceOf("rotation", { kind: "generated", params: { minAngleDeg: -45, maxAngleDeg: 45, allowZero: true } }),
    ).toBeCloseTo(1 / 7, 15);
  });
  it("recorded params that no longer validate fall back to the spec's range and say so", () => {
    const s = keyAnswerSpace("translation", { kind: "generated", params: { minDistanceA: "far" } });
    expect(s.size).toBe(9);
    expect(s.basis).toMatch(/recorded generator params unreadable/);
  });
  it("MC 1/4; T4, T7, T9 open (null)", () => {
    for (const t of ["translation_rotation", "rotation_rotation", "interaction_location"] as const)
      expect(chanceOf(t, GENERATED)).toBe(0.25);
    for (const t of ["residue_ligand", "docking", "pocket_ligand"] as const) expect(chanceOf(t)).toBeNull();
  });
});

describe("key origin of a stored item", () => {
  it("generated in-app and bundles of this generator: generated, with their params; release, VLMEvalKit, foreign bundles: spec", () => {
    expect(
      keyOriginOfStoredItem("generated", { generator: PROJECT_GENERATOR_NAME, params: { allowZero: false } }),
    ).toEqual({ kind: "generated", params: { allowZero: false } });
    expect(
      keyOriginOfStoredItem("bundle", {
        importedFrom: "bundle",
        bundle: { generator: PROJECT_GENERATOR_NAME, params: { allowZero: true } },
      }),
    ).toEqual({
      kind: "generated",
      params: { allowZero: true },
    });
    expect(
      keyOriginOfStoredItem("bundle", { importedFrom: "bundle", bundle: { generator: "fixture", params: {} } }),
    ).toEqual(SPEC_ORIGIN);
    expect(keyOriginOfStoredItem("misi_release", { importedFrom: "hf" })).toEqual(SPEC_ORIGIN);
    expect(keyOriginOfStoredItem("vlmevalkit", null)).toEqual(SPEC_ORIGIN);
  });
});

describe("chance over a pool", () => {
  it("mixes generated and release items by their share, naming both spaces", () => {
    const c = combineChance([
      ...Array(3).fill(keyAnswerSpace("translation", GENERATED)),
      keyAnswerSpace("translation", SPEC_ORIGIN),
    ]);
    expect(c.exact).toBeCloseTo((3 / 8 + 1 / 9) / 4, 15);
    expect(c.basis).toBe(
      "mean over 4: 3 × 8 distances in [-4, 4] Å, 0 excluded, axis given (generated); 1 × 9 distances in [-4, 4] Å, 0 included, axis given (spec range)",
    );
  });

  itWithShared(
    "generated T1/T2 keys are drawn from exactly the listed values (never 0), and the audit reports 1/8 and 1/12",
    () => {
      const r = generateItems({
        complexes: loadTestComplexes(),
        tasks: ["translation", "rotation"],
        perTask: 120,
        seed: "chance",
        renderSettings: { widthPx: 64, heightPx: 64 },
      });
      if (!r.ok) throw new Error(r.error);
      const t1 = new Set(
        r.items.filter((i) => i.taskId === "translation").map((i) => (i.gold as { distanceA: number }).distanceA),
      );
      const t2 = new Set(
        r.items.filter((i) => i.taskId === "rotation").map((i) => (i.gold as { angleDeg: number }).angleDeg),
      );
      expect([...t1].sort((a, b) => a - b)).toEqual(listKeyValues("translation", GENERATED));
      expect([...t2].sort((a, b) => a - b)).toEqual(listKeyValues("rotation", GENERATED));
      const audit = auditShortcuts(r.items.map(toShortcutItem));
      expect(audit.find((a) => a.taskId === "translation")!.chance).toBeCloseTo(1 / 8, 15);
      expect(audit.find((a) => a.taskId === "rotation")!.chance).toBeCloseTo(1 / 12, 15);
      // The same keys without an origin (as imported from the release): the spec's 1/9 and 1/13.
      const asImported = auditShortcuts(
        r.items.map((i) => ({ taskId: i.taskId, gold: i.gold, canonicalAnswer: i.canonicalAnswer })),
      );
      expect(asImported.find((a) => a.taskId === "translation")!.chance).toBeCloseTo(1 / 9, 15);
      expect(asImported.find((a) => a.taskId === "rotation")!.chance).toBeCloseTo(1 / 13, 15);
    },
  );

  it("the results summary and its export take each response's item space (records without one: the spec's range)", () => {
    const base = { condition: "static", cohort: "stem", partial: 1 };
    const generated = keyAnswerSpace("translation", GENERATED);
    const records: ResponseRecord[] = [
      { ...base, participantId: "P1", itemId: "g1", taskId: "translation", exact: 1, keyAnswerSpace: generated },
      { ...base, participantId: "P2", itemId: "g1", taskId: "translation", exact: 0, keyAnswerSpace: generated },
      { ...base, participantId: "P1", itemId: "rel", taskId: "translation", exact: 1 },
      {
        ...base,
        participantId: "P1",
        itemId: "r1",
        taskId: "rotation",
        exact: 1,
        keyAnswerSpace: keyAnswerSpace("rotation", GENERATED),
      },
    ];
    const out = summarizeHumanResults(records, { seed: "c", replicates: 50 });
    if (!out.ok) throw new Error(JSON.stringify(out.issues));
    const t1 = out.value.overall.columns.find((c) => c.column === "translation")!;
    expect(t1.chance.exact).toBeCloseTo((2 / 8 + 1 / 9) / 3, 15);
    expect(t1.chance.basis).toMatch(/2 × 8 distances .*1 × 9 distances/);
    expect(out.value.overall.columns.find((c) => c.column === "rotation")!.chance.exact).toBeCloseTo(1 / 12, 15);
    const rows = toTaskSummaryRows(out.value);
    const row = rows.find((r) => r.groupType === "overall" && r.column === "rotation")!;
    const cell = (key: string) => toCsvRecord(TASK_SUMMARY_TABLE, row)[listHeader(TASK_SUMMARY_TABLE).indexOf(key)];
    expect(Number(cell("chance_exact"))).toBeCloseTo(1 / 12, 12);
    expect(cell("chance_basis")).toBe("12 angles in [-90, 90]°, 0 excluded, axis given (generated)");
  });
});
