// Studies have owners (lib/server/study-access.ts): a researcher sees and acts on her own studies and those shared
// with her; another researcher's study answers 404 on every route that takes its id, and 200 once it is shared.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { StaffRole } from "@/types/staff-role";

const session = vi.hoisted(() => {
  process.env.NEXTAUTH_URL ??= "http://localhost:3000";
  return { current: null as null | { user: { id: string; role: string; signedInAt: number } } };
});
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getServerSession: async () => session.current,
}));

const { db, disconnectDb } = await import("@/lib/server/db");
const { createTranslationStudy } = await import("../helpers/study-fixtures");
const { uniqueSuffix } = await import("./admin-fixtures");
const studyRoute = await import("@/app/api/admin/studies/[studyId]/route");
const studiesRoute = await import("@/app/api/admin/studies/route");
const openRoute = await import("@/app/api/admin/studies/[studyId]/open/route");
const closeRoute = await import("@/app/api/admin/studies/[studyId]/close/route");
const monitorRoute = await import("@/app/api/admin/studies/[studyId]/monitor/route");
const sharesRoute = await import("@/app/api/admin/studies/[studyId]/shares/route");
const resultsRoute = await import("@/app/api/results/[studyId]/route");
const exportRoute = await import("@/app/api/export/[studyId]/[kind]/route");
const estimateRoute = await import("@/app/api/export/[studyId]/estimate/route");
const { default: StudyPage } = await import("@/app/admin/studies/[studyId]/page");
const { default: MonitorPage } = await import("@/app/admin/studies/[studyId]/monitor/page");
const { canAccessStudy } = await import("@/lib/server/study-access");

afterAll(async () => {
  await disconnectDb();
});

beforeEach(() => {
  session.current = null;
});

async function staff(role: StaffRole) {
  return db.user.create({ data: { email: `${role}-${uniqueSuffix()}@example.org`, role, passwordHash: "x" } });
}

function signIn(user: { id: string; role: string }) {
  session.current = { user: { id: user.id, role: user.role, signedInAt: Date.now() } };
}

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

function call(
  handler: unknown,
  method: string,
  path: string,
  params: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  const init: RequestInit = {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  };
  return (handler as Handler)(new Request(`http://localhost${path}`, init), { params: Promise.resolve(params) });
}

/** Every study-id route, called without side effects (PUT with an invalid body: 422 once allowed). Status per route. */
async function statuses(studyId: string): Promise<Record<string, number>> {
  const p = { studyId };
  const out: Record<string, number> = {};
  out["GET study"] = (await call(studyRoute.GET, "GET", `/api/admin/studies/${studyId}`, p)).status;
  out["PUT study"] = (await call(studyRoute.PUT, "PUT", `/api/admin/studies/${studyId}`, p, {})).status;
  out["GET monitor"] = (await call(monitorRoute.GET, "GET", `/api/admin/studies/${studyId}/monitor`, p)).status;
  out["GET shares"] = (await call(sharesRoute.GET, "GET", `/api/admin/studies/${studyId}/shares`, p)).status;
  out["GET results"] = (await call(resultsRoute.GET, "GET", `/api/results/${studyId}`, p)).status;
  out["GET estimate"] = (await call(estimateRoute.GET, "GET", `/api/export/${studyId}/estimate`, p)).status;
  for (const kind of ["responses", "participants", "task-summary", "item-summary", "paper-table"]) {
    const res = await call(exportRoute.GET, "GET", `/api/export/${studyId}/${kind}`, { studyId, kind });
    out[`GET export ${kind}`] = res.status;
    await res.arrayBuffer();
  }
  return out;
}

const all = (status: number, of: Record<string, number>) =>
  Object.fromEntries(Object.keys(of).map((k) => [k, k === "PUT study" && status === 200 ? 422 : status]));

describe("study ownership", () => {
  it("a researcher gets 404 on another's study (API and page), 200 once it is shared, 404 again once unshared", async () => {
    const owner = await staff("researcher");
    const other = await staff("researcher");
    const { study } = await createTranslationStudy({ itemCount: 2, status: "draft" });
    await db.study.update({ where: { id: study.id }, data: { createdById: owner.id } });

    signIn(owner);
    const asOwner = await statuses(study.id);
    expect(asOwner).toEqual(all(200, asOwner));

    signIn(other);
    const before = await statuses(study.id);
    expect(before).toEqual(all(404, before));
    // Open and close change state: refused before anything happens.
    expect(
      (await call(openRoute.POST, "POST", `/api/admin/studies/${study.id}/open`, { studyId: study.id })).status,
    ).toBe(404);
    expect(
      (await call(closeRoute.POST, "POST", `/api/admin/studies/${study.id}/close`, { studyId: study.id })).status,
    ).toBe(404);
    await expect(db.study.findUnique({ where: { id: study.id }, select: { status: true } })).resolves.toEqual({
      status: "draft",
    });
    // The 404 says no more than an unknown id does.
    const unknown = await call(studyRoute.GET, "GET", "/api/admin/studies/no-such-study", { studyId: "no-such-study" });
    expect(unknown.status).toBe(404);
    const listed = (await (await call(studiesRoute.GET, "GET", "/api/admin/studies", {})).json()) as {
      studies: Array<{ id: string }>;
    };
    expect(listed.studies.map((s) => s.id)).not.toContain(study.id);
    await expect(StudyPage({ params: Promise.resolve({ studyId: study.id }) })).rejects.toMatchObject({
      digest: expect.stringMatching(/404/),
    });
    await expect(MonitorPage({ params: Promise.resolve({ studyId: study.id }) })).rejects.toMatchObject({
      digest: expect.stringMatching(/404/),
    });
    // Nor can she share it with herself.
    expect(
      (
        await call(
          sharesRoute.POST,
          "POST",
          `/api/admin/studies/${study.id}/shares`,
          { studyId: study.id },
          { email: other.email },
        )
      ).status,
    ).toBe(404);

    signIn(owner);
    const shared = await call(
      sharesRoute.POST,
      "POST",
      `/api/admin/studies/${study.id}/shares`,
      { studyId: study.id },
      { email: other.email.toUpperCase() },
    );
    expect(shared.status).toBe(200);
    expect(((await shared.json()) as { shares: Array<{ email: string }> }).shares.map((s) => s.email)).toEqual([
      other.email,
    ]);

    signIn(other);
    const after = await statuses(study.id);
    expect(after).toEqual(all(200, after));
    await expect(StudyPage({ params: Promise.resolve({ studyId: study.id }) })).resolves.toBeTruthy();
    const relisted = (await (await call(studiesRoute.GET, "GET", "/api/admin/studies", {})).json()) as {
      studies: Array<{ id: string }>;
    };
    expect(relisted.studies.map((s) => s.id)).toContain(study.id);
    expect(
      (
        await call(
          sharesRoute.POST,
          "POST",
          `/api/admin/studies/${study.id}/shares`,
          { studyId: study.id },
          { email: owner.email },
        )
      ).status,
    ).toBe(403);

    signIn(owner);
    expect(
      (
        await call(
          sharesRoute.DELETE,
          "DELETE",
          `/api/admin/studies/${study.id}/shares`,
          { studyId: study.id },
          { email: other.email },
        )
      ).status,
    ).toBe(200);
    expect(await canAccessStudy(other, study.id)).toBe(false);
    await expect(
      db.auditLog.count({
        where: { entityType: "study", entityId: study.id, action: { in: ["study.share", "study.unshare"] } },
      }),
    ).resolves.toBe(2);
  });

  it("sharing tells a researcher no staff roles; an unknown address and a disabled account get one answer", async () => {
    const owner = await staff("researcher");
    const { study } = await createTranslationStudy({ itemCount: 1, status: "draft" });
    await db.study.update({ where: { id: study.id }, data: { createdById: owner.id } });
    signIn(owner);
    const admin = await staff("admin");
    const withAdmin = await call(
      sharesRoute.POST,
      "POST",
      `/api/admin/studies/${study.id}/shares`,
      { studyId: study.id },
      { email: admin.email },
    );
    expect(withAdmin.status).toBe(200);
    const withAdminText = await withAdmin.text();
    expect(withAdminText).toContain(admin.email);
    expect(withAdminText).not.toMatch(/role|admin"/);
    await expect(
      (await call(sharesRoute.GET, "GET", `/api/admin/studies/${study.id}/shares`, { studyId: study.id })).text(),
    ).resolves.not.toMatch(/role/);
    const disabled = await db.user.create({
      data: { email: `disabled-${uniqueSuffix()}@example.org`, role: "admin", passwordHash: "x", disabled: true },
    });
    const ghostEmail = `ghost-${uniqueSuffix()}@example.org`;
    const answers = [];
    for (const email of [ghostEmail, disabled.email]) {
      const r = await call(
        sharesRoute.POST,
        "POST",
        `/api/admin/studies/${study.id}/shares`,
        { studyId: study.id },
        { email },
      );
      answers.push({ status: r.status, body: (await r.text()).replaceAll(email, "EMAIL") });
    }
    expect(answers[0]!.status).toBe(422);
    expect(answers[1]).toEqual(answers[0]);
    expect(
      (
        await call(
          sharesRoute.DELETE,
          "DELETE",
          `/api/admin/studies/${study.id}/shares`,
          { studyId: study.id },
          { email: admin.email },
        )
      ).status,
    ).toBe(200);
  });

  it("admins see every study; a study without an owner is admins' only", async () => {
    const admin = await staff("admin");
    const researcher = await staff("researcher");
    const { study } = await createTranslationStudy({ itemCount: 1, status: "draft" });
    signIn(admin);
    const asAdmin = await statuses(study.id);
    expect(asAdmin).toEqual(all(200, asAdmin));
    expect(await canAccessStudy(researcher, study.id)).toBe(false);
  });

  it("the pool scope pools only studies the researcher may see, else 403 saying how many are not shared", async () => {
    const owner = await staff("researcher");
    const stranger = await staff("researcher");
    const { study } = await createTranslationStudy({ itemCount: 2 });
    const sibling = await db.study.create({
      data: {
        slug: `sibling-${uniqueSuffix()}`,
        name: "sibling",
        poolVersionId: (await db.study.findUniqueOrThrow({ where: { id: study.id } })).poolVersionId,
        config: {},
        createdById: stranger.id,
      },
      select: { id: true },
    });
    await db.study.update({ where: { id: study.id }, data: { createdById: owner.id } });
    signIn(owner);
    expect((await call(resultsRoute.GET, "GET", `/api/results/${study.id}`, { studyId: study.id })).status).toBe(200);
    const pooled = await call(resultsRoute.GET, "GET", `/api/results/${study.id}?scope=pool`, { studyId: study.id });
    expect(pooled.status).toBe(403);
    expect(await pooled.text()).toMatch(/1 study on this pool version that is not shared with you/);
    const exported = await call(exportRoute.GET, "GET", `/api/export/${study.id}/responses?scope=pool`, {
      studyId: study.id,
      kind: "responses",
    });
    expect(exported.status).toBe(403);
    await db.studyShare.create({ data: { studyId: sibling.id, userId: owner.id } });
    const shared = await call(resultsRoute.GET, "GET", `/api/results/${study.id}?scope=pool`, { studyId: study.id });
    expect(shared.status).toBe(200);
  });
});
