import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { startParticipantOnce } from "@/lib/server/participant-flow/assign-items";
import { orderSlots } from "@/lib/participant/order-slots";
import { readConsentContext } from "@/lib/server/participant-flow/consent-context";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { createTranslationItem, createTranslationStudy, joinStudy, TEST_DEVICE } from "../helpers/study-fixtures";

// The start of a participant in one database call (misi_start_participant, migration 20261201050000) under
// concurrency: called directly, without withDbRetry, so a deadlock or any other database error would surface here.

afterAll(async () => {
  await disconnectDb();
});

const DEVICE = TEST_DEVICE;
const join = joinStudy;

/** Every participant's start, called twice at once (a retried consent in flight), all of them in parallel. */
async function startAllTwice(ids: string[]) {
  const contexts = await Promise.all(ids.map(async (id) => (await readConsentContext(id))!.context));
  return Promise.allSettled(
    contexts.flatMap((ctx) => [
      startParticipantOnce(ctx.participantId, DEVICE, ctx),
      startParticipantOnce(ctx.participantId, DEVICE, ctx),
    ]),
  );
}

async function checkInvariants(studyId: string, k: number) {
  const assignments = await db.assignment.findMany({
    where: { participant: { studyId } },
    select: { participantId: true, itemId: true, phase: true, position: true },
  });
  const main = assignments.filter((a) => a.phase === "main");
  const perItem = new Map<string, number>();
  for (const a of main) perItem.set(a.itemId, (perItem.get(a.itemId) ?? 0) + 1);
  const counters = await db.studyItemCounter.findMany({ where: { studyId } });
  const participants = await db.participant.findMany({ where: { studyId }, select: { id: true, status: true } });
  return {
    assignments,
    main,
    perItem,
    counters,
    participants,
    overruns: [...perItem.values()].filter((n) => n > k).length,
  };
}

describe("misi_start_participant under concurrency", () => {
  it("100 starters, each started twice at once, on a study with k=2: no overrun, no deadlock, everyone started once or not at all", async () => {
    const k = 2;
    const practice = await createTranslationItem("start-practice");
    const { study } = await createTranslationStudy({
      itemCount: 24,
      config: { itemsPerTask: 4, answersPerItem: k, practiceItemIds: [practice.id] },
    });
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await join(study.slug, `conc-start-${i}`));
    // Counters exist before the burst (the app creates them once per process, before its first start).
    await recordConsent(ids[0]!, true, DEVICE);

    const outcomes = await startAllTwice(ids.slice(1));
    const errors = outcomes
      .filter((o) => o.status === "rejected")
      .map((o) => String((o as PromiseRejectedResult).reason));
    expect(errors).toEqual([]);
    const results = outcomes.map(
      (o) => (o as PromiseFulfilledResult<Awaited<ReturnType<typeof startParticipantOnce>>>).value,
    );

    const { main, perItem, counters, participants, overruns, assignments } = await checkInvariants(study.id, k);
    expect(overruns).toBe(0);
    // 24 items × k=2 = 48 slots for 100 × 4 wanted: every slot is used, and the counters agree with the assignments.
    expect(main.length).toBe(48);
    for (const c of counters) expect(c.reserved).toBe(perItem.get(c.itemId) ?? 0);
    // Of each participant's two calls at most one started him; the other found him no longer consenting (null).
    for (let i = 0; i < ids.length - 1; i++) {
      const pair = [results[2 * i], results[2 * i + 1]];
      expect(pair.filter((r) => r && !r.notStarted).length).toBeLessThanOrEqual(1);
    }
    const started = participants.filter((p) => p.status === "active");
    const startedCalls = results.filter((r) => r && !r.notStarted).length;
    expect(startedCalls).toBe(started.length - 1); // the first participant was started before the burst
    for (const p of participants) {
      const mine = assignments.filter((a) => a.participantId === p.id);
      if (p.status === "active") {
        expect(mine.filter((a) => a.phase === "practice")).toHaveLength(1);
        expect(new Set(mine.map((a) => a.itemId)).size).toBe(mine.length);
        expect(mine.find((a) => a.phase === "practice")!.position).toBe(0);
      } else {
        expect(p.status).toBe("consenting");
        expect(mine).toHaveLength(0);
      }
    }
    await expect(db.studyParticipantCounter.findUniqueOrThrow({ where: { studyId: study.id } })).resolves.toMatchObject(
      { started: started.length },
    );
  }, 60_000);

  it("maxParticipants under concurrency: exactly max start, the rest reserve nothing", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 30,
      config: { itemsPerTask: 3, answersPerItem: 10, maxParticipants: 7 },
    });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await join(study.slug, `max-${i}`));
    await recordConsent(ids[0]!, true, DEVICE);
    const outcomes = await startAllTwice(ids.slice(1));
    expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
    const { main, counters, participants } = await checkInvariants(study.id, 10);
    expect(participants.filter((p) => p.status === "active")).toHaveLength(7);
    expect(main).toHaveLength(21);
    expect(counters.reduce((sum, c) => sum + c.reserved, 0)).toBe(21);
    await expect(db.studyParticipantCounter.findUniqueOrThrow({ where: { studyId: study.id } })).resolves.toMatchObject(
      { started: 7 },
    );
  }, 60_000);
});

describe("the item order", () => {
  it("follows the slots computed from the seed: practice first, each main slot filled by its task's reserved item", async () => {
    const attention = await createTranslationItem("order-attention");
    const practice = await createTranslationItem("order-practice");
    const { study, config } = await createTranslationStudy({
      itemCount: 8,
      config: { itemsPerTask: 5, answersPerItem: 3, practiceItemIds: [practice.id], attentionItemIds: [attention.id] },
    });
    const pid = await join(study.slug, "order");
    await recordConsent(pid, true, DEVICE);
    const { orderSeed } = await db.participant.findUniqueOrThrow({ where: { id: pid } });
    const slots = orderSlots(orderSeed, config);
    const rows = await db.assignment.findMany({ where: { participantId: pid }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.position)).toEqual(slots.map((_, i) => i)); // nothing short: no gaps
    expect(rows.map((r) => r.phase)).toEqual(slots.map((s) => s.phase));
    expect(rows[0]!.itemId).toBe(practice.id);
    expect(rows.find((r) => r.phase === "attention")!.itemId).toBe(attention.id);
    await expect(db.participant.findUniqueOrThrow({ where: { id: pid } })).resolves.toMatchObject({
      reservedUntil: expect.any(Date),
    });
    // The same seed gives the same slot order.
    expect(orderSlots(orderSeed, config)).toEqual(slots);
  });

  it("a short task drops its missing slots: positions may have gaps, the order of the rest is kept", async () => {
    const { study, config } = await createTranslationStudy({
      itemCount: 3,
      config: { itemsPerTask: 5, answersPerItem: 1 },
    });
    const pid = await join(study.slug, "short");
    await expect(recordConsent(pid, true, DEVICE)).resolves.toMatchObject({
      mainAssigned: 3,
      shortTasks: ["translation"],
    });
    const { orderSeed } = await db.participant.findUniqueOrThrow({ where: { id: pid } });
    const expected = orderSlots(orderSeed, config)
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.phase === "main" && s.j <= 3)
      .map(({ i }) => i);
    const rows = await db.assignment.findMany({ where: { participantId: pid }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.position)).toEqual(expected);
  });
});
