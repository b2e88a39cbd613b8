import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { createPool } from "@/lib/server/dal/pools/create-pool";
import { editPoolVersion } from "@/lib/server/dal/pools/edit-pool-version";
import { freezePoolVersion } from "@/lib/server/dal/pools/freeze-pool-version";
import { getPool } from "@/lib/server/dal/pools/get-pool";
import { drawStratifiedSample } from "@/lib/pools/stratified-sample";
import { createStaffUser, createTaggedItems, uniqueSuffix } from "./admin-fixtures";

afterAll(async () => {
  await disconnectDb();
});

async function poolItemIds(poolVersionId: string): Promise<string[]> {
  const rows = await db.poolItem.findMany({
    where: { poolVersionId },
    select: { itemId: true },
    orderBy: { itemId: "asc" },
  });
  return rows.map((r) => r.itemId);
}

describe("stratified pools", () => {
  it("draws N per task from active items, reports short tasks, and repeats exactly with the same seed", async () => {
    const admin = await createStaffUser();
    const tag = `strat-${uniqueSuffix()}`;
    const active = await createTaggedItems(tag, { translation: 8, rotation: 3, zooming: 6 });
    const excluded = await createTaggedItems(tag, { translation: 4 }, "excluded");
    const input = {
      mode: "stratified",
      name: `tiny ${tag}`,
      tasks: ["translation", "rotation", "zooming"],
      perTask: 5,
      seed: "seed-one",
      filter: { tag },
    };

    const first = await createPool({ input, actorId: admin.id });
    expect(first.perTask).toEqual({ translation: 5, rotation: 3, zooming: 5 });
    expect(first.itemCount).toBe(13);
    expect(first.shortfalls).toEqual([{ taskId: "rotation", requested: 5, available: 3 }]);
    expect(first.seed).toBe("seed-one");
    const firstIds = await poolItemIds(first.poolVersionId);
    expect(firstIds).toHaveLength(13);
    for (const id of excluded.translation!) expect(firstIds).not.toContain(id);

    // Same seed, same candidates → the same items.
    const again = await createPool({ input, actorId: admin.id });
    expect(await poolItemIds(again.poolVersionId)).toEqual(firstIds);

    // The DAL draws exactly what the pure sampler draws on the same candidates (sorted by content hash).
    const candidates = await db.item.findMany({
      where: { tags: { has: tag }, status: "active" },
      select: { id: true, taskId: true, contentHash: true },
    });
    const reference = drawStratifiedSample(
      candidates.map((c) => ({ id: c.id, taskId: c.taskId, sortKey: c.contentHash })),
      {
        tasks: ["translation", "rotation", "zooming"],
        perTask: 5,
        seed: "seed-one",
      },
    );
    expect(reference.byTask.flatMap((t) => t.itemIds).sort()).toEqual(firstIds);
    expect(active.rotation!.slice().sort()).toEqual(reference.byTask[1]!.itemIds.slice().sort());

    // A different seed gives a different translation draw (5 of 8: 56 possible sets; checked for these two seeds).
    const other = await createPool({ input: { ...input, seed: "seed-two" }, actorId: admin.id });
    const otherTranslation = await db.poolItem.findMany({
      where: { poolVersionId: other.poolVersionId, taskId: "translation" },
      select: { itemId: true },
    });
    const firstTranslation = await db.poolItem.findMany({
      where: { poolVersionId: first.poolVersionId, taskId: "translation" },
      select: { itemId: true },
    });
    expect(otherTranslation.map((r) => r.itemId).sort()).not.toEqual(firstTranslation.map((r) => r.itemId).sort());

    // The recipe records the seed and the shortfall, and the creation is audited.
    const version = await db.poolVersion.findUniqueOrThrow({ where: { id: first.poolVersionId } });
    expect(version).toMatchObject({ version: 1, frozenAt: null });
    expect(version.recipe).toMatchObject({
      kind: "stratified",
      seed: "seed-one",
      perTask: 5,
      sortKey: "contentHash",
      shortfalls: [{ taskId: "rotation", available: 3 }],
    });
    const audit = await db.auditLog.findFirst({
      where: { entityType: "pool", entityId: first.poolId, action: "pool.create" },
    });
    expect(audit?.actorId).toBe(admin.id);
  });

  it("generates and records a seed when none is given", async () => {
    const admin = await createStaffUser();
    const tag = `seedless-${uniqueSuffix()}`;
    await createTaggedItems(tag, { docking: 4 });
    const created = await createPool({
      input: { mode: "stratified", name: "seedless", tasks: ["docking"], perTask: 2, filter: { tag } },
      actorId: admin.id,
    });
    expect(created.seed).toMatch(/^[a-z0-9]{10}$/);
    const version = await db.poolVersion.findUniqueOrThrow({ where: { id: created.poolVersionId } });
    expect(version.recipe).toMatchObject({ seed: created.seed });
  });

  it("builds a pool from filters with every matching active item, and refuses an empty one", async () => {
    const admin = await createStaffUser();
    const tag = `filter-${uniqueSuffix()}`;
    const items = await createTaggedItems(tag, { translation: 3, docking: 2 });
    await createTaggedItems(tag, { translation: 2 }, "flagged");
    const created = await createPool({
      input: { mode: "filter", name: "filtered", filter: { tag, task: "translation" } },
      actorId: admin.id,
    });
    expect(await poolItemIds(created.poolVersionId)).toEqual(items.translation!.slice().sort());
    await expect(
      createPool({ input: { mode: "filter", name: "empty", filter: { tag: `none-${tag}` } }, actorId: admin.id }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
  });
});

describe("pool version immutability", () => {
  it("edits a draft in place, but a frozen or used version only through a new version", async () => {
    const admin = await createStaffUser();
    const tag = `immut-${uniqueSuffix()}`;
    const items = await createTaggedItems(tag, { translation: 6 });
    const [a, b, c, d, e, f] = items.translation!;
    const created = await createPool({
      input: { mode: "filter", name: "immutable", filter: { tag } },
      actorId: admin.id,
    });
    const v1 = created.poolVersionId;

    // Draft, unused: edited in place.
    const inPlace = await editPoolVersion({ poolVersionId: v1, edit: { removeItemIds: [f] }, actorId: admin.id });
    expect(inPlace).toMatchObject({
      poolVersionId: v1,
      version: 1,
      createdNewVersion: false,
      removed: 1,
      itemCount: 5,
    });

    // Frozen: the edit lands in version 2 and version 1 keeps its items.
    await freezePoolVersion({ poolVersionId: v1, actorId: admin.id });
    const v1Items = await poolItemIds(v1);
    const second = await editPoolVersion({
      poolVersionId: v1,
      edit: { removeItemIds: [a], addItemIds: [f] },
      actorId: admin.id,
    });
    expect(second).toMatchObject({ version: 2, createdNewVersion: true, added: 1, removed: 1, itemCount: 5 });
    expect(second.poolVersionId).not.toBe(v1);
    expect(await poolItemIds(v1)).toEqual(v1Items);
    expect(await poolItemIds(second.poolVersionId)).toEqual([b, c, d, e, f].sort());
    const v2 = await db.poolVersion.findUniqueOrThrow({ where: { id: second.poolVersionId } });
    expect(v2.frozenAt).toBeNull();
    expect(v2.recipe).toEqual({ kind: "edit", basedOnVersion: 1, added: [f], removed: [a] });

    // Not frozen but used by a study: also immutable → version 3.
    await db.study.create({
      data: { slug: `immut-${uniqueSuffix()}`, name: "uses v2", poolVersionId: v2.id, config: {} },
    });
    const v2Items = await poolItemIds(v2.id);
    const third = await editPoolVersion({ poolVersionId: v2.id, edit: { removeItemIds: [b] }, actorId: admin.id });
    expect(third).toMatchObject({ version: 3, createdNewVersion: true });
    expect(await poolItemIds(v2.id)).toEqual(v2Items);

    // Freezing is idempotent and keeps the first freeze time.
    const again = await freezePoolVersion({ poolVersionId: v1, actorId: admin.id });
    expect(again.alreadyFrozen).toBe(true);

    const detail = await getPool(created.poolId);
    expect(detail.versions.map((v) => [v.version, v.locked, v.itemCount])).toEqual([
      [3, false, 4],
      [2, true, 5],
      [1, true, 5],
    ]);
    const actions = detail.audit.map((x) => x.action);
    expect(actions).toEqual(
      expect.arrayContaining(["pool.create", "pool.version.edit", "pool.freeze", "pool.version.create"]),
    );
  });

  it("rejects unknown, inactive or absent item ids with a message naming them", async () => {
    const admin = await createStaffUser();
    const tag = `reject-${uniqueSuffix()}`;
    const items = await createTaggedItems(tag, { rotation: 2 });
    const flagged = await createTaggedItems(tag, { rotation: 1 }, "flagged");
    const created = await createPool({
      input: { mode: "filter", name: "rejects", filter: { tag } },
      actorId: admin.id,
    });
    const attempt = editPoolVersion({
      poolVersionId: created.poolVersionId,
      edit: { addItemIds: ["nope-1", flagged.rotation![0]] },
      actorId: admin.id,
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toThrow(/unknown item id\(s\): nope-1.*excluded or flagged/);
    await expect(
      editPoolVersion({
        poolVersionId: created.poolVersionId,
        edit: { removeItemIds: ["not-there"] },
        actorId: admin.id,
      }),
    ).rejects.toThrow(/not in version 1: not-there/);
    await expect(
      editPoolVersion({
        poolVersionId: created.poolVersionId,
        edit: { removeItemIds: items.rotation! },
        actorId: admin.id,
      }),
    ).rejects.toThrow(/leave the pool version empty/);
    // Nothing changed.
    expect(await poolItemIds(created.poolVersionId)).toEqual(items.rotation!.slice().sort());
  });
});
