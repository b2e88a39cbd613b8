// The join flood: joins are limited per study per client address only, so many addresses cannot
// fill a study-wide window and turn a Prolific launch away; the never-consented participants a flood can make are
// bounded per study instead (PARTICIPANT_PENDING_LIMIT_PER_STUDY).
import { afterAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";

vi.hoisted(() => {
  // The route reads the client address from X-Forwarded-For only behind a trusted proxy (as in production behind nginx).
  process.env.TRUSTED_PROXY_HOPS = "1";
});

const { db, disconnectDb } = await import("@/lib/server/db");
const { GET } = await import("@/app/s/[slug]/route");
const { enterStudy } = await import("@/lib/server/participant-flow/enter-study");
const { recordConsent } = await import("@/lib/server/participant-flow/record-consent");
const { createTranslationStudy } = await import("../helpers/study-fixtures");
const { POST: consent } = await import("@/app/api/participant/consent/route");
const { createParticipantToken, PARTICIPANT_COOKIE } = await import("@/lib/server/participant-flow/token");

afterAll(async () => {
  await disconnectDb();
});

const DEVICE = {
  viewportWidth: 1280,
  viewportHeight: 800,
  devicePixelRatio: 2,
  userAgent: "test",
  pointer: "fine" as const,
};

/** One GET of the study link from `address`, as a browser without a cookie; "joined" or the status page's kind. */
async function open(slug: string, address: string, pid?: string): Promise<string> {
  const query = pid ? `?PROLIFIC_PID=${pid}&STUDY_ID=S&SESSION_ID=x` : "";
  const res = await GET(
    new NextRequest(`http://localhost/s/${slug}${query}`, { headers: { "x-forwarded-for": address } }),
    { params: Promise.resolve({ slug }) },
  );
  const location = new URL(res.headers.get("location") ?? "", "http://x");
  return location.pathname.endsWith("/session") ? "joined" : (location.searchParams.get("kind") ?? String(res.status));
}

describe("the join flood", () => {
  it("17 addresses × 20 joins (enough to fill a study-wide window of 300), then real participants still join", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2 });
    const flood: string[] = [];
    for (let a = 0; a < 17; a++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => open(study.slug, `198.51.100.${a}`, `flood-${a}-${i}`)),
      );
      flood.push(...results);
    }
    expect(flood.filter((r) => r === "joined")).toHaveLength(340);
    // Real participants, each from their own address, get in (before: "busy", Retry-After ≈ 10 minutes).
    for (let i = 0; i < 5; i++) expect(await open(study.slug, `203.0.113.${i}`, `real-${i}`)).toBe("joined");
    // The per-address limit still holds: the flooding addresses make no 21st participant.
    expect(await open(study.slug, "198.51.100.0", "flood-0-20")).toBe("busy");
    expect(await open(study.slug, "198.51.100.0")).toBe("busy");
    // A returning Prolific id is a resume: never counted, never refused.
    expect(await open(study.slug, "198.51.100.0", "flood-0-3")).toBe("joined");
    await expect(db.participant.count({ where: { studyId: study.id } })).resolves.toBe(345);
  });
});

describe("never-consented participants per study are bounded", () => {
  it("beyond the limit a new join removes the longest-idle never-consented one; started participants and resumes are untouched", async () => {
    const { study } = await createTranslationStudy({ itemCount: 4, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const join = async (pid: string) => {
      const r = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: pid }, pendingLimit: 3 });
      if (r.kind !== "ok") throw new Error(`${pid}: ${r.kind}`);
      return r.participantId;
    };
    const starter = await join("starter");
    await recordConsent(starter, true, DEVICE);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(await join(`pending-${i}`));
      await new Promise((r) => setTimeout(r, 5)); // distinct lastSeenAt
    }
    const pending = await db.participant.findMany({
      where: { studyId: study.id, status: "consenting" },
      select: { externalId: true },
      orderBy: { externalId: "asc" },
    });
    expect(pending.map((p) => p.externalId)).toEqual(["pending-3", "pending-4", "pending-5"]);
    await expect(db.participant.findUnique({ where: { id: starter } })).resolves.toMatchObject({ status: "active" });
    // A kept participant resumes (nothing removed); a removed one joins again as a new participant, nothing was reserved.
    expect(await join("pending-4")).toBe(ids[4]);
    await expect(db.participant.count({ where: { studyId: study.id, status: "consenting" } })).resolves.toBe(3);
    const again = await join("pending-0");
    expect(again).not.toBe(ids[0]);
    await expect(db.participant.count({ where: { studyId: study.id, status: "consenting" } })).resolves.toBe(3);
    await expect(db.participant.count({ where: { studyId: study.id, externalId: "pending-0" } })).resolves.toBe(1);
  });
});

describe("a removed never-consented participant", () => {
  it("who then consents is asked to open the study link again (401), and the link makes her a participant again", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const first = (await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "removed" }, pendingLimit: 1 })) as {
      participantId: string;
    };
    await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "newer" }, pendingLimit: 1 });
    await expect(db.participant.findUnique({ where: { id: first.participantId } })).resolves.toBeNull();
    const cookie = `${PARTICIPANT_COOKIE}=${createParticipantToken(first.participantId, study.id)}`;
    const res = await consent(
      new Request("http://localhost/api/participant/consent", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ accept: true, device: DEVICE }),
      }),
    );
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/open your study link again/);
    await expect(enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "removed" } })).resolves.toMatchObject({
      kind: "ok",
      resumed: false,
    });
  });
});

describe("rate-limit events", () => {
  it("joins prune events older than two days now and then (as every other rate-limited call does)", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1 });
    const old = await db.signInAttempt.create({
      data: { key: `join:address:${study.id}|old`, at: new Date(Date.now() - 3 * 24 * 3600_000) },
      select: { id: true },
    });
    const random = vi.spyOn(Math, "random").mockReturnValue(0.001);
    try {
      await expect(open(study.slug, "192.0.2.77", "prune-1")).resolves.toBe("joined");
    } finally {
      random.mockRestore();
    }
    await expect(db.signInAttempt.findUnique({ where: { id: old.id } })).resolves.toBeNull();
    await expect(db.signInAttempt.count({ where: { key: `join:address:${study.id}|192.0.2.77` } })).resolves.toBe(1);
  });
});
