// Entering a study: the study link, resuming by Prolific id or lab cookie, counterbalancing (among those who start),
// simultaneous joiners.
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { screenOutForDevice } from "@/lib/server/participant-flow/device-and-primer";
import { createTranslationStudy } from "../../helpers/study-fixtures";
import { DEVICE, join, reservedTotal } from "./helpers";

afterAll(async () => {
  await disconnectDb();
});

describe("entering a study", () => {
  it("the same external id resumes its own participant, never a second one", async () => {
    const { study } = await createTranslationStudy({ itemCount: 4, config: { itemsPerTask: 2 } });
    const [a, b] = await Promise.all([join(study.slug, "PID-SAME"), join(study.slug, "PID-SAME")]);
    expect(a).toBe(b);
    const again = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "PID-SAME" } });
    expect(again).toMatchObject({ kind: "ok", participantId: a, resumed: true });
    await expect(db.participant.count({ where: { studyId: study.id } })).resolves.toBe(1);
    const p = await db.participant.findUniqueOrThrow({ where: { id: a } });
    expect(p).toMatchObject({ externalStudyId: "S1", anonymous: false });
  });

  it("a plain link gets an anonymous id; closed, full and unknown studies say so", async () => {
    const open = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, maxParticipants: 1 } });
    const anon = await enterStudy({ slug: open.study.slug, query: {} });
    expect(anon.kind).toBe("ok");
    const p = await db.participant.findUniqueOrThrow({
      where: { id: (anon as { participantId: string }).participantId },
    });
    expect(p.anonymous).toBe(true);
    expect(p.externalId).toMatch(/^anon-[0-9a-f]{16}$/);
    // maxParticipants counts those who started: full once the first one consented.
    await expect(enterStudy({ slug: open.study.slug, query: { PROLIFIC_PID: "second" } })).resolves.toMatchObject({
      kind: "ok",
    });
    await recordConsent(p.id, true, DEVICE);
    await expect(enterStudy({ slug: open.study.slug, query: { PROLIFIC_PID: "late" } })).resolves.toMatchObject({
      kind: "full",
    });
    const closed = await createTranslationStudy({ itemCount: 1, status: "closed" });
    await expect(enterStudy({ slug: closed.study.slug, query: { PROLIFIC_PID: "x" } })).resolves.toMatchObject({
      kind: "closed",
    });
    await expect(enterStudy({ slug: "no-such-study", query: {} })).resolves.toEqual({ kind: "not_found" });
    await expect(enterStudy({ slug: open.study.slug, query: { PROLIFIC_PID: "bad id; drop" } })).resolves.toMatchObject(
      { kind: "invalid" },
    );
  });

  it("a lab participant (no external id) resumes by cookie, only in its own study; another study's cookie makes a new one", async () => {
    const lab = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1 } });
    const other = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1 } });
    const first = (await enterStudy({ slug: lab.study.slug, query: {} })) as { participantId: string };
    await expect(
      enterStudy({ slug: lab.study.slug, query: {}, existingParticipantId: first.participantId }),
    ).resolves.toMatchObject({ kind: "ok", participantId: first.participantId, resumed: true });
    const elsewhere = await enterStudy({
      slug: other.study.slug,
      query: {},
      existingParticipantId: first.participantId,
    });
    expect(elsewhere).toMatchObject({ kind: "ok", resumed: false });
    expect((elsewhere as { participantId: string }).participantId).not.toBe(first.participantId);
    // A Prolific id in the link wins over the cookie.
    const pid = await enterStudy({
      slug: lab.study.slug,
      query: { PROLIFIC_PID: "lab-pid" },
      existingParticipantId: first.participantId,
    });
    expect((pid as { participantId: string }).participantId).not.toBe(first.participantId);
  });

  it("a study's own participant parameter name; a stored config that no longer validates keeps the study closed, also to resumes", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 2,
      config: { itemsPerTask: 1, prolific: { participantParam: "workerId" } },
    });
    const a = await enterStudy({ slug: study.slug, query: { workerId: " w-1 " } });
    expect(a).toMatchObject({ kind: "ok", resumed: false });
    await expect(enterStudy({ slug: study.slug, query: { workerId: "w-1" } })).resolves.toMatchObject({
      kind: "ok",
      resumed: true,
      participantId: (a as { participantId: string }).participantId,
    });
    const stored = (await db.study.findUniqueOrThrow({ where: { id: study.id } })).config as {
      prolific: Record<string, unknown>;
    };
    await db.study.update({
      where: { id: study.id },
      data: { config: { ...stored, prolific: { ...stored.prolific, completionUrl: "javascript:alert(1)" } } },
    });
    await expect(enterStudy({ slug: study.slug, query: { workerId: "w-1" } })).resolves.toMatchObject({
      kind: "closed",
    });
    await expect(enterStudy({ slug: study.slug, query: { workerId: "w-2" } })).resolves.toMatchObject({
      kind: "closed",
    });
  });

  it("a study closed after its link was read takes no new participant (the join statement checks it again)", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 2,
      config: { itemsPerTask: 1, conditions: ["static", "interactive"] },
    });
    await db.study.update({ where: { id: study.id }, data: { status: "closed" } });
    await expect(enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "after-close" } })).resolves.toMatchObject({
      kind: "closed",
    });
    await expect(db.participant.count({ where: { studyId: study.id } })).resolves.toBe(0);
  });

  it("50 simultaneous first visits with one external id and 50 different ones who then consent at once, two conditions: one participant per id, conditions balanced", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 2,
      config: { itemsPerTask: 1, answersPerItem: 50, conditions: ["static", "interactive"] },
    });
    const same = await Promise.all(Array.from({ length: 50 }, () => join(study.slug, "PID-RACE")));
    expect(new Set(same).size).toBe(1);
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => join(study.slug, `race-${i}`)));
    const results = await Promise.all(ids.map((id) => recordConsent(id, true, DEVICE)));
    expect(results.filter((r) => r && !r.notStarted)).toHaveLength(50);
    const groups = await db.participant.groupBy({
      by: ["condition"],
      where: { studyId: study.id, externalId: { startsWith: "race-" } },
      _count: { _all: true },
    });
    expect(Object.fromEntries(groups.map((g) => [g.condition, g._count._all]))).toEqual({
      static: 25,
      interactive: 25,
    });
  });

  it("counterbalances conditions between participants who start, in turn", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 6,
      config: { itemsPerTask: 1, conditions: ["static", "interactive"] },
    });
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = await join(study.slug, `cb-${i}`);
      await recordConsent(id, true, DEVICE);
      order.push((await db.participant.findUniqueOrThrow({ where: { id } })).condition);
    }
    expect(order).toEqual(["static", "interactive", "static", "interactive", "static", "interactive"]);
  });

  it("link opens without consent shift nothing: bots, decliners and screened-out participants between consents leave the consenters balanced", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 8,
      config: { itemsPerTask: 1, conditions: ["static", "interactive"] },
    });
    const consenters: string[] = [];
    for (let i = 0; i < 6; i++) {
      // Before each consenter: one opening of the link that never consents (a bot's GET, or someone who left), and
      // every other time someone who declines and someone screened out by the device check.
      await join(study.slug, `bot-${i}`);
      if (i % 2 === 0) {
        await recordConsent(await join(study.slug, `decline-${i}`), false, null);
        await screenOutForDevice(await join(study.slug, `phone-${i}`), {
          ...DEVICE,
          viewportWidth: 390,
          viewportHeight: 844,
          pointer: "coarse",
        });
      }
      const id = await join(study.slug, `consent-${i}`);
      // A retried consent (the browser's retry after a dropped response) starts nobody twice and keeps the condition.
      await recordConsent(id, true, DEVICE);
      await expect(recordConsent(id, true, DEVICE)).resolves.toBeNull();
      consenters.push(id);
    }
    const people = await db.participant.findMany({
      where: { id: { in: consenters } },
      select: { id: true, condition: true, status: true },
    });
    expect(people.every((p) => p.status === "active")).toBe(true);
    const byCondition = (rows: Array<{ condition: string }>) =>
      Object.fromEntries(["static", "interactive"].map((c) => [c, rows.filter((r) => r.condition === c).length]));
    expect(byCondition(people)).toEqual({ static: 3, interactive: 3 });
    // Consenters in the order they started alternate; the counter counted six starts and nothing else.
    expect(consenters.map((id) => people.find((p) => p.id === id)!.condition)).toEqual([
      "static",
      "interactive",
      "static",
      "interactive",
      "static",
      "interactive",
    ]);
    await expect(db.studyParticipantCounter.findUniqueOrThrow({ where: { studyId: study.id } })).resolves.toMatchObject(
      { started: 6 },
    );
  });
});

describe("joining at once", () => {
  it("maxParticipants counts only those who started, and holds when many consent at the same moment", async () => {
    const { study } = await createTranslationStudy({ itemCount: 4, config: { itemsPerTask: 1, maxParticipants: 2 } });
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => join(study.slug, `cap-${i}`)));
    // Opening the link does not count: all ten may look at the consent page.
    expect(new Set(ids).size).toBe(10);
    const results = await Promise.all(ids.map((id) => recordConsent(id, true, DEVICE)));
    expect(results.filter((r) => r && !r.notStarted)).toHaveLength(2);
    expect(results.filter((r) => r?.notStarted === "full")).toHaveLength(8);
    await expect(db.participant.count({ where: { studyId: study.id, status: "active" } })).resolves.toBe(2);
    // The eight turned away hold nothing and are told so; a new link opener is told "full" at once.
    expect(await reservedTotal(study.id)).toBe(2);
    const late = ids.find((id, i) => results[i]?.notStarted === "full")!;
    await expect(getParticipantSession(late)).resolves.toMatchObject({ noWork: true });
    await expect(enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "cap-late" } })).resolves.toMatchObject({
      kind: "full",
    });
  });

  it("simultaneous consents are still counterbalanced between conditions (7 of 12 joiners consent at once: 4 and 3)", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 4,
      config: { itemsPerTask: 1, answersPerItem: 10, conditions: ["static", "interactive"] },
    });
    // Twelve open the link at once, seven of them consent at once (the others never do).
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => join(study.slug, `cbc-${i}`)));
    await Promise.all(ids.slice(0, 7).map((id) => recordConsent(id, true, DEVICE)));
    const groups = await db.participant.groupBy({
      by: ["condition"],
      where: { studyId: study.id, status: "active" },
      _count: { _all: true },
    });
    expect(Object.fromEntries(groups.map((g) => [g.condition, g._count._all]))).toEqual({ static: 4, interactive: 3 });
  });
});

describe("database round trips of a join", () => {
  it("a join takes at most 2 round trips (new participant), a resume 1 (Prolific id or the lab cookie)", async () => {
    // Study by slug, participant lookup, join limit, counter and insert fit in these two statements.
    const { study } = await createTranslationStudy({
      itemCount: 4,
      config: { itemsPerTask: 1, conditions: ["static", "interactive"] },
    });
    await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "rt-warm" } }); // counter row exists
    const limits = () => [{ key: `join:address:${study.id}|rt`, limit: 20, windowMs: 600_000 }];
    const spy = vi.spyOn(pg.Client.prototype, "query");
    const count = async (run: () => Promise<unknown>) => {
      spy.mockClear();
      const out = await run();
      return { out, trips: spy.mock.calls.length };
    };
    try {
      const joined = await count(() =>
        enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "rt-join" }, joinLimits: limits }),
      );
      const resumed = await count(() =>
        enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "rt-join" }, joinLimits: limits }),
      );
      const anon = await count(() => enterStudy({ slug: study.slug, query: {}, joinLimits: limits }));
      const anonId = (anon.out as { participantId: string }).participantId;
      const lab = await count(() =>
        enterStudy({ slug: study.slug, query: {}, existingParticipantId: anonId, joinLimits: limits }),
      );
      console.log(
        `round trips: join ${joined.trips}, resume ${resumed.trips}, anonymous join ${anon.trips}, lab resume ${lab.trips}`,
      );
      expect(joined.out).toMatchObject({ kind: "ok", resumed: false });
      expect(resumed.out).toMatchObject({
        kind: "ok",
        resumed: true,
        participantId: (joined.out as { participantId: string }).participantId,
      });
      expect(lab.out).toMatchObject({ kind: "ok", resumed: true, participantId: anonId });
      expect(joined.trips).toBeGreaterThan(0);
      expect(joined.trips).toBeLessThanOrEqual(2);
      expect(anon.trips).toBeLessThanOrEqual(2);
      expect(resumed.trips).toBe(1);
      expect(lab.trips).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
});
