// Parallel creates with one unique value answer 409 naming the field (they answered 500: the unique index refused the
// second insert after both passed the "already used?" check); edits racing a pool-version freeze do not fork drafts.
import { afterAll, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({
  current: null as null | { user: { id: string; role: string; signedInAt: number } },
}));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getServerSession: async () => session.current,
}));

const { db, disconnectDb } = await import("@/lib/server/db");
const { errorResponse } = await import("@/lib/server/route");
const { POST: createStudyRoute } = await import("@/app/api/admin/studies/route");
const { POST: createUserRoute } = await import("@/app/api/admin/users/route");
const { freezePoolVersion } = await import("@/lib/server/dal/pools/freeze-pool-version");
const { editPoolVersion } = await import("@/lib/server/dal/pools/edit-pool-version");
const { createTaggedItems, uniqueSuffix } = await import("./admin-fixtures");

afterAll(async () => {
  await disconnectDb();
});

async function signedInAdmin() {
  const admin = await db.user.create({
    data: { email: `admin-${uniqueSuffix()}@example.org`, role: "admin", passwordHash: "x" },
  });
  session.current = { user: { id: admin.id, role: "admin", signedInAt: Date.now() } };
  return admin;
}

const post = (handler: unknown, path: string, body: unknown) =>
  (handler as (r: Request, c: { params: Promise<object> }) => Promise<Response>)(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );

async function draftPoolVersion(tag: string) {
  const ids = await createTaggedItems(tag, { translation: 3 });
  const pool = await db.pool.create({
    data: {
      name: `pool ${tag}`,
      versions: {
        create: {
          version: 1,
          recipe: { kind: "filter", filter: {}, matched: 3 },
          items: { create: ids.translation!.map((itemId) => ({ itemId, taskId: "translation" })) },
        },
      },
    },
    select: { id: true, versions: { select: { id: true } } },
  });
  return { poolId: pool.id, versionId: pool.versions[0]!.id, itemIds: ids.translation! };
}

describe("unique conflicts", () => {
  it("a unique violation from the database is a 409 naming the field", async () => {
    const admin = await signedInAdmin();
    const err = await db.user
      .create({ data: { email: admin.email, role: "researcher", passwordHash: "x" } })
      .catch((e: unknown) => e);
    const response = errorResponse(err);
    expect(response.status).toBe(409);
    const body = (await response.json()) as {
      error: { code: string; message: string; details: Array<{ path: string }> };
    };
    expect(body.error.code).toBe("CONFLICT");
    expect(body.error.details.map((d) => d.path)).toEqual(["email"]);
  });

  it("8 parallel creates of one study slug: one 201, the others 409 naming the slug (the pre-check's answer and the lost race's alike), no 500", async () => {
    await signedInAdmin();
    const { versionId } = await draftPoolVersion(`slug-${uniqueSuffix()}`);
    const slug = `race-${uniqueSuffix()}`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(createStudyRoute, "/api/admin/studies", {
          name: "Race",
          slug,
          poolVersionId: versionId,
          config: { tasks: ["translation"], itemsPerTask: 1 },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const r of responses.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      const body = (await r.json()) as { error: { code: string; details: Array<{ path: string; message: string }> } };
      expect(body.error.code).toBe("CONFLICT");
      expect(body.error.details).toEqual([{ path: "slug", message: "already used (slug must be unique)" }]);
    }
    await expect(db.study.count({ where: { slug } })).resolves.toBe(1);
  });

  it("8 parallel creates of one account email: one 201, the others 409 naming the email, no 500", async () => {
    await signedInAdmin();
    const email = `race-${uniqueSuffix()}@example.org`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(createUserRoute, "/api/admin/users", { email, role: "researcher", password: "long-enough-password" }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((x) => x.status === 409)) expect(JSON.stringify(await r.json())).toMatch(/email/);
  });
});

describe("pool-version freeze racing edits", () => {
  it("two edits of a version frozen under them make one new draft, not two sibling drafts", async () => {
    const admin = await signedInAdmin();
    const { poolId, versionId, itemIds } = await draftPoolVersion(`fz-${uniqueSuffix()}`);
    const extra = await createTaggedItems(`fz-extra-${uniqueSuffix()}`, { translation: 2 });
    await freezePoolVersion({ poolVersionId: versionId, actorId: admin.id });
    const [a, b] = await Promise.all([
      editPoolVersion({
        poolVersionId: versionId,
        edit: { addItemIds: [extra.translation![0]!], removeItemIds: [] },
        actorId: admin.id,
      }),
      editPoolVersion({
        poolVersionId: versionId,
        edit: { addItemIds: [extra.translation![1]!], removeItemIds: [itemIds[0]!] },
        actorId: admin.id,
      }),
    ]);
    expect(a.poolVersionId).toBe(b.poolVersionId);
    const versions = await db.poolVersion.findMany({
      where: { poolId },
      orderBy: { version: "asc" },
      select: { version: true, frozenAt: true, items: { select: { itemId: true } } },
    });
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[1]!.frozenAt).toBeNull();
    expect(new Set(versions[1]!.items.map((i) => i.itemId))).toEqual(
      new Set([itemIds[1], itemIds[2], ...extra.translation!]),
    );
    // The frozen version itself never changed.
    expect(new Set(versions[0]!.items.map((i) => i.itemId))).toEqual(new Set(itemIds));
  });

  it("freeze and two edits of a draft, all at once: at most one draft based on it", async () => {
    const admin = await signedInAdmin();
    for (let round = 0; round < 5; round++) {
      const { poolId, versionId } = await draftPoolVersion(`fz3-${uniqueSuffix()}`);
      const extra = await createTaggedItems(`fz3-extra-${uniqueSuffix()}`, { translation: 2 });
      await Promise.all([
        freezePoolVersion({ poolVersionId: versionId, actorId: admin.id }),
        editPoolVersion({
          poolVersionId: versionId,
          edit: { addItemIds: [extra.translation![0]!], removeItemIds: [] },
          actorId: admin.id,
        }),
        editPoolVersion({
          poolVersionId: versionId,
          edit: { addItemIds: [extra.translation![1]!], removeItemIds: [] },
          actorId: admin.id,
        }),
      ]);
      const drafts = await db.poolVersion.count({ where: { poolId, frozenAt: null, version: { gt: 1 } } });
      expect(drafts).toBeLessThanOrEqual(1);
    }
  });
});
