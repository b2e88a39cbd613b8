/**
 * O/OXT in the fair score read from the database (real PostgreSQL): a residue is C-terminal when the item's stored
 * pick lists (payload.pickers) show its OXT, so OXT answered for a gold O counts there, and only there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { listResponseRecords } from "@/lib/server/dal/results/list-response-records";
import { createResultsStudy, type ResultsStudyFixture } from "./results-fixtures";

let fixture: ResultsStudyFixture;
let terminalItem: string;
let innerItem: string;

async function makeLysineItem(itemId: string, atoms: string[]): Promise<void> {
  const item = await db.item.findUniqueOrThrow({ where: { id: itemId }, select: { payload: true } });
  const pickers = {
    residues: [{ residueName: "LYS", residueNumber: 99, insertionCode: "", chainId: "A", atoms }],
    ligandAtoms: ["N4"],
  };
  await db.item.update({ where: { id: itemId }, data: { payload: { ...(item.payload as object), pickers } } });
  await db.answerKey.update({
    where: { itemId },
    data: {
      gold: { kind: "bonds", bonds: [{ residueName: "LYS", atomName: "O", ligandAtomName: "N4" }] },
      canonical: "Yes: LYS O, N4",
    },
  });
  await db.response.updateMany({
    where: { studyId: fixture.studyId, itemId },
    data: { rawAnswer: "Yes: LYS OXT, N4", canonicalAnswer: "Yes: LYS OXT, N4", exact: 0, partial: 0, late: false },
  });
}

beforeAll(async () => {
  fixture = await createResultsStudy("fair-oxt");
  const t4 = [
    ...new Set(
      (
        await db.response.findMany({
          where: { studyId: fixture.studyId, taskId: "residue_ligand", phase: "main" },
          select: { itemId: true },
          orderBy: { itemId: "asc" },
        })
      ).map((r) => r.itemId),
    ),
  ];
  expect(t4.length).toBeGreaterThanOrEqual(2);
  [terminalItem, innerItem] = [t4[0]!, t4[1]!];
  await makeLysineItem(terminalItem, ["N", "CA", "C", "O", "CB", "NZ", "OXT"]);
  await makeLysineItem(innerItem, ["N", "CA", "C", "O", "CB", "NZ"]);
});

afterAll(async () => {
  await disconnectDb();
});

describe("fair O/OXT from stored pick lists", () => {
  it("OXT for a gold O scores fair 1 on a residue whose pick list has an OXT, 0 on one without", async () => {
    const { records, skipped } = await listResponseRecords([fixture.studyId]);
    expect(skipped).toEqual([]);
    const on = (itemId: string) => records.filter((r) => r.itemId === itemId);
    expect(on(terminalItem).length).toBeGreaterThan(0);
    expect(on(innerItem).length).toBeGreaterThan(0);
    for (const r of on(terminalItem)) expect([r.exact, r.fairExact, r.fairPartial]).toEqual([0, 1, 1]);
    for (const r of on(innerItem)) expect([r.exact, r.fairExact, r.fairPartial]).toEqual([0, 0, 0]);
  });
});
