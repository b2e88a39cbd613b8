import bcrypt from "bcryptjs";
import { afterAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { db, disconnectDb } from "@/lib/server/db";
import { ItemListQuerySchema } from "@/lib/pools/item-filter";
import { listItems } from "@/lib/server/dal/items/list-items";
import { getItemDetail } from "@/lib/server/dal/items/get-item-detail";
import { setItemStatus } from "@/lib/server/dal/items/set-item-status";
import { listItemFacets } from "@/lib/server/dal/items/list-item-facets";
import { saveUser } from "@/lib/server/dal/users/save-user";
import { listUsers } from "@/lib/server/dal/users/list-users";
import { createStaffUser, createTaggedItems, uniqueSuffix } from "./admin-fixtures";

afterAll(async () => {
  await disconnectDb();
});

describe("item browser queries", () => {
  it("filters by tag, task and status, searches question text case-insensitively, and paginates", async () => {
    const tag = `browse-${uniqueSuffix()}`;
    const items = await createTaggedItems(tag, { translation: 5, docking: 2 });
    await createTaggedItems(tag, { translation: 1 }, "excluded");
    const query = (q: Record<string, unknown>) => listItems(ItemListQuerySchema.parse({ tag, ...q }));

    expect((await query({})).total).toBe(8);
    expect((await query({ task: "translation" })).total).toBe(6);
    expect((await query({ task: "translation", status: "active" })).total).toBe(5);
    expect((await query({ status: "excluded" })).rows.map((r) => r.taskId)).toEqual(["translation"]);
    // "QUESTION 3 OF TRANSLATION" matches "Question 3 of translation" (ILIKE).
    const search = await query({ q: "QUESTION 3 OF TRANSLATION" });
    expect(search.rows.map((r) => r.id)).toEqual([items.translation![3]]);
    expect((await query({ q: `${tag}-docking-active-1` })).rows.map((r) => r.id)).toEqual([items.docking![1]]);

    const page1 = await query({ pageSize: 3, page: 1 });
    const page3 = await query({ pageSize: 3, page: 3 });
    expect([page1.total, page1.pageCount, page1.rows.length, page3.rows.length]).toEqual([8, 3, 3, 2]);
    const all = [...page1.rows, ...(await query({ pageSize: 3, page: 2 })).rows, ...page3.rows].map((r) => r.id);
    expect(new Set(all).size).toBe(8);

    const facets = await listItemFacets();
    expect(facets.tags).toContain(tag);
    expect(facets.splits).toContain("test");
  });
});

describe("item curation", () => {
  it("excludes and flags with a required reason and writes an audit entry for each change", async () => {
    const admin = await createStaffUser();
    const tag = `curate-${uniqueSuffix()}`;
    const itemId = (await createTaggedItems(tag, { rotation: 1 })).rotation![0]!;

    await expect(
      setItemStatus({ itemId, change: { status: "excluded", reason: "" }, actorId: admin.id }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      setItemStatus({ itemId: "no-such-item", change: { status: "excluded", reason: "typo" }, actorId: admin.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.auditLog.count({ where: { entityType: "item", entityId: itemId } })).toBe(0);

    await setItemStatus({ itemId, change: { status: "flagged", reason: "label overlaps atom" }, actorId: admin.id });
    await setItemStatus({ itemId, change: { status: "excluded", reason: "ambiguous view" }, actorId: admin.id });
    const row = await db.item.findUniqueOrThrow({ where: { id: itemId } });
    expect([row.status, row.statusReason]).toEqual(["excluded", "ambiguous view"]);

    const detail = await getItemDetail(itemId, { includeGold: true });
    expect(detail.audit.map((a) => [a.action, a.actorEmail, a.details])).toEqual([
      [
        "item.exclude",
        admin.email,
        { from: "flagged", to: "excluded", reason: "ambiguous view", previousReason: "label overlaps atom" },
      ],
      [
        "item.flag",
        admin.email,
        { from: "active", to: "flagged", reason: "label overlaps atom", previousReason: null },
      ],
    ]);

    await setItemStatus({ itemId, change: { status: "active", reason: "re-rendered" }, actorId: admin.id });
    expect((await db.item.findUniqueOrThrow({ where: { id: itemId } })).statusReason).toBeNull();
    expect((await getItemDetail(itemId, { includeGold: false })).audit[0]).toMatchObject({
      action: "item.activate",
      details: { reason: "re-rendered" },
    });
  });

  it("selects the gold answer only when asked (admins), never otherwise", async () => {
    const tag = `gold-${uniqueSuffix()}`;
    const itemId = (await createTaggedItems(tag, { translation: 1 })).translation![0]!;
    const withGold = await getItemDetail(itemId, { includeGold: true });
    expect(withGold.gold?.canonical).toBe(`GOLD-${tag}-0`);
    const without = await getItemDetail(itemId, { includeGold: false });
    expect("gold" in without).toBe(false);
    expect(JSON.stringify(without)).not.toContain("GOLD-");
    await expect(getItemDetail("missing", { includeGold: false })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("staff accounts", () => {
  it("creates with a generated password, refuses duplicates unless updating, and updates role and password", async () => {
    const email = `New.User-${uniqueSuffix()}@Example.org`;
    const created = await saveUser({ input: { email, role: "researcher" }, actorId: null });
    expect(created).toMatchObject({
      email: email.toLowerCase(),
      role: "researcher",
      created: true,
      passwordChanged: true,
    });
    expect(created.generatedPassword).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const row = await db.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    expect(await bcrypt.compare(created.generatedPassword!, row.passwordHash)).toBe(true);
    expect(row.passwordHash).not.toContain(created.generatedPassword!);

    await expect(saveUser({ input: { email, role: "admin" }, actorId: null })).rejects.toMatchObject({
      code: "CONFLICT",
    });

    // --update without a password changes the role only.
    const roleOnly = await saveUser({ input: { email, role: "admin" }, update: true, actorId: null });
    expect(roleOnly).toMatchObject({ created: false, role: "admin", passwordChanged: false });
    expect(roleOnly.generatedPassword).toBeUndefined();
    expect((await db.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } })).passwordHash).toBe(
      row.passwordHash,
    );

    const withPassword = await saveUser({
      input: { email, role: "researcher", password: "a-long-enough-password" },
      update: true,
      actorId: null,
    });
    expect(withPassword.passwordChanged).toBe(true);
    const updated = await db.user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    expect(await bcrypt.compare("a-long-enough-password", updated.passwordHash)).toBe(true);
    expect(updated.role).toBe("researcher");

    await expect(
      saveUser({ input: { email: "x@example.org", role: "researcher", password: "short" }, actorId: null }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      saveUser({ input: { email: "x@example.org", role: "researcher", password: "é".repeat(40) }, actorId: null }),
    ).rejects.toThrow(/72 bytes/);
    const listed = await listUsers();
    expect(listed.find((u) => u.email === email.toLowerCase())).not.toHaveProperty("passwordHash");
  });
});
