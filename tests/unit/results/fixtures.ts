import type { ResponseRecord } from "@/lib/results/response-records";

type Row = [
  participantId: string,
  itemId: string,
  taskId: ResponseRecord["taskId"],
  exact: 0 | 1,
  partial: number,
  extra?: Partial<ResponseRecord>,
];

const PEOPLE: Record<string, { condition: string; cohort: string }> = {
  P1: { condition: "static", cohort: "bio" },
  P2: { condition: "static", cohort: "stem" },
  P3: { condition: "interactive", cohort: "stem" },
};

/**
 * Three participants, hand-checkable:
 * translation t1: P1 1, P2 1, P3 0 (partial 1, 1, 0.5); t2: P1 0 (0.75), P2 1, P3 0 (0)
 * residue_ligand r1 (pos): P1 0 (0.5), P2 1; r2 (neg): P1 1, P3 1
 * interaction_location m1: P1 A ✓, P2 A ✓, P3 B ✗
 */
export const THREE_PARTICIPANTS: ResponseRecord[] = (
  [
    ["P1", "t1", "translation", 1, 1, { answer: "move x 2" }],
    ["P2", "t1", "translation", 1, 1, { answer: "move x 2" }],
    ["P3", "t1", "translation", 0, 0.5, { answer: "move x 3" }],
    ["P1", "t2", "translation", 0, 0.75, { answer: "move y -1" }],
    ["P2", "t2", "translation", 1, 1, { answer: "move y -2" }],
    ["P3", "t2", "translation", 0, 0],
    ["P1", "r1", "residue_ligand", 0, 0.5, { t4Polarity: "pos" }],
    ["P2", "r1", "residue_ligand", 1, 1, { t4Polarity: "pos" }],
    ["P1", "r2", "residue_ligand", 1, 1, { t4Polarity: "neg", answer: "No" }],
    ["P3", "r2", "residue_ligand", 1, 1, { t4Polarity: "neg", answer: "No" }],
    ["P1", "m1", "interaction_location", 1, 1, { answer: "A" }],
    ["P2", "m1", "interaction_location", 1, 1, { answer: "A" }],
    ["P3", "m1", "interaction_location", 0, 0, { answer: "B" }],
  ] as Row[]
).map(([participantId, itemId, taskId, exact, partial, extra]) => ({
  participantId,
  itemId,
  taskId,
  exact,
  partial,
  ...(PEOPLE[participantId] as { condition: string; cohort: string }),
  ...extra,
}));

export function makeRecord(overrides: Partial<ResponseRecord> = {}): ResponseRecord {
  return {
    participantId: "P1",
    itemId: "x1",
    taskId: "translation",
    exact: 1,
    partial: 1,
    condition: "static",
    cohort: "bio",
    ...overrides,
  };
}
