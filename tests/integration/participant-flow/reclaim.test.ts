// Reservations: renewed by answers, reclaimed after the timeout (also racing a late answer), released when a session
// ends early, and items excluded while participants hold them.
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { reclaimExpiredAssignments } from "@/lib/server/participant-flow/assign-items";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { recordResponse } from "@/lib/server/participant-flow/record-response";
import { createTranslationItem, createTranslationStudy, makeCurrentQuestion } from "../../helpers/study-fixtures";
import { DEVICE, join, reservedTotal } from "./helpers";

afterAll(async () => {
  await disconnectDb();
});

describe("expired reservations", () => {
  it("an answer renews the reservation on the participant's row and rewrites no other open assignment", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 6,
      config: { itemsPerTask: 5, answersPerItem: 1, assignmentTimeoutMin: 30 },
    });
    const pid = await join(study.slug, "renew-one-row");
    await recordConsent(pid, true, DEVICE);
    await db.participant.update({ where: { id: pid }, data: { reservedUntil: new Date(Date.now() + 60_000) } });
    const current = (await getParticipantSession(pid))!.current!;
    // xmin: the transaction that wrote each row version; an UPDATE of a row gives it a new one.
    const versions = async () =>
      new Map(
        (
          await db.$queryRaw<
            Array<{ id: string; v: string }>
          >`SELECT id, xmin::text AS v FROM "Assignment" WHERE "participantId" = ${pid} AND status = 'assigned'`
        ).map((r) => [r.id, r.v]),
      );
    const before = await versions();
    expect(before.size).toBe(5);
    await recordResponse({
      participantId: pid,
      assignmentId: current.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: `renew-${pid}`,
    });
    const after = await versions();
    const nextId = (await getParticipantSession(pid))!.current!.assignmentId;
    // Only the next question changed (stamped shown); the other three open questions kept their row versions.
    const rewritten = [...after].filter(([id, v]) => before.get(id) !== v).map(([id]) => id);
    expect(rewritten).toEqual([nextId]);
    const { reservedUntil } = await db.participant.findUniqueOrThrow({ where: { id: pid } });
    expect(reservedUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
  });

  it("reservations not renewed by an answer are reclaimed after the timeout; reloading the page neither renews nor re-reserves", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 1,
      config: { itemsPerTask: 1, answersPerItem: 1, assignmentTimeoutMin: 1 },
    });
    const idle = await join(study.slug, "idle");
    await recordConsent(idle, true, DEVICE);
    const before = await db.participant.findUniqueOrThrow({ where: { id: idle } });
    expect(before.reservedUntil).not.toBeNull();
    // Polling the session (a reload, an open tab) is not activity: the expiry stays where it was.
    await getParticipantSession(idle);
    await expect(db.participant.findUniqueOrThrow({ where: { id: idle } })).resolves.toMatchObject({
      reservedUntil: before.reservedUntil,
    });
    await db.participant.update({ where: { id: idle }, data: { reservedUntil: new Date(Date.now() - 1000) } });
    const released = await reclaimExpiredAssignments(study.id);
    expect(released).toBe(1);
    await expect(db.studyItemCounter.findFirstOrThrow({ where: { studyId: study.id } })).resolves.toMatchObject({
      reserved: 0,
    });
    await getParticipantSession(idle);
    await expect(db.assignment.findFirstOrThrow({ where: { participantId: idle } })).resolves.toMatchObject({
      status: "abandoned",
    });
    // The slot is free for the next participant.
    const next = await join(study.slug, "after-idle");
    await expect(recordConsent(next, true, DEVICE)).resolves.toMatchObject({ mainAssigned: 1 });
  });
});

describe("reservations of an active participant", () => {
  it("answering a question keeps the rest of the participant's work reserved (activity extends the timeout)", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 3,
      config: { itemsPerTask: 3, answersPerItem: 1, assignmentTimeoutMin: 1 },
    });
    const pid = await join(study.slug, "slow-but-active");
    await recordConsent(pid, true, DEVICE);
    // The participant has been working for longer than the timeout since consent (reservations set then) ...
    await db.participant.update({ where: { id: pid }, data: { reservedUntil: new Date(Date.now() - 1000) } });
    // ... and now submits an answer: they are active, so nothing of theirs may be reclaimed by the next joiner.
    const current = (await getParticipantSession(pid))!.current!;
    await recordResponse({
      participantId: pid,
      assignmentId: current.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: `slow-${pid}`,
    });
    const released = await reclaimExpiredAssignments(study.id);
    expect(released).toBe(0);
    await expect(db.assignment.count({ where: { participantId: pid, status: "assigned" } })).resolves.toBe(2);
  });
});

describe("reclaim racing a late answer", () => {
  it("either the answer is stored and the item stays reserved, or it is refused as released (410) and nothing is stored", async () => {
    // Invariant check over a real race; the refusal must say "released" (it said "already answered" when the reclaim
    // landed between the answer's read and its write, and the client then reloaded to a misleading message).
    for (let round = 0; round < 6; round++) {
      const { study } = await createTranslationStudy({
        itemCount: 1,
        config: { itemsPerTask: 1, answersPerItem: 1, assignmentTimeoutMin: 1 },
      });
      const pid = await join(study.slug, `late-${round}`);
      await recordConsent(pid, true, DEVICE);
      const current = (await getParticipantSession(pid))!.current!;
      await db.participant.update({ where: { id: pid }, data: { reservedUntil: new Date(Date.now() - 1000) } });
      const [answer] = await Promise.allSettled([
        recordResponse({
          participantId: pid,
          assignmentId: current.assignmentId,
          rawAnswer: "move x 1",
          idempotencyKey: `late-${pid}`,
        }),
        reclaimExpiredAssignments(study.id),
      ]);
      const assignment = await db.assignment.findUniqueOrThrow({ where: { id: current.assignmentId } });
      const stored = await db.response.count({ where: { assignmentId: current.assignmentId } });
      if (answer.status === "fulfilled") {
        expect([assignment.status, stored, await reservedTotal(study.id)]).toEqual(["answered", 1, 1]);
      } else {
        expect(answer.reason).toMatchObject({ code: "GONE" });
        expect([assignment.status, stored, await reservedTotal(study.id)]).toEqual(["abandoned", 0, 0]);
      }
    }
  });
});

describe("an idle participant returning while someone joins", () => {
  it("the returning participant's reload and the newcomer's assignment never push an item beyond k", async () => {
    // A reload never re-reserves (only answering renews): the released item goes to the newcomer, once.
    for (let round = 0; round < 15; round++) {
      const { study, items } = await createTranslationStudy({
        itemCount: 1,
        config: { itemsPerTask: 1, answersPerItem: 1, assignmentTimeoutMin: 1 },
      });
      const idle = await join(study.slug, `idle-${round}`);
      await recordConsent(idle, true, DEVICE);
      await db.participant.update({ where: { id: idle }, data: { reservedUntil: new Date(Date.now() - 1000) } });
      await reclaimExpiredAssignments(study.id);
      const newcomer = await join(study.slug, `new-${round}`);
      await Promise.all([getParticipantSession(idle), recordConsent(newcomer, true, DEVICE)]);
      const holders = await db.assignment.count({ where: { itemId: items[0]!.id, status: "assigned" } });
      expect({ round, holders, reserved: await reservedTotal(study.id) }).toEqual({ round, holders: 1, reserved: 1 });
    }
  });
});

describe("ended sessions release their work", () => {
  async function screenedOut() {
    const check = await createTranslationItem("attention-review", { axis: "x", distanceA: 4 });
    const setup = await createTranslationStudy({
      itemCount: 3,
      config: {
        itemsPerTask: 3,
        answersPerItem: 1,
        attentionItemIds: [check.id],
        attentionPolicy: "screen_out",
        attentionMaxFailures: 0,
      },
    });
    const pid = await join(setup.study.slug, `so-${Math.random().toString(36).slice(2)}`);
    await recordConsent(pid, true, DEVICE);
    const attention = await db.assignment.findFirstOrThrow({ where: { participantId: pid, phase: "attention" } });
    await makeCurrentQuestion(attention.id);
    const r = await recordResponse({
      participantId: pid,
      assignmentId: attention.id,
      rawAnswer: "move y 1",
      idempotencyKey: `so-${pid}`,
    });
    expect(r.ended).toBe("screened_out");
    return { ...setup, pid };
  }

  it("screening out returns the participant's unanswered items to the pool at once", async () => {
    const { study } = await screenedOut();
    expect(await reservedTotal(study.id)).toBe(0);
    const next = await join(study.slug, "after-screen-out");
    await expect(recordConsent(next, true, DEVICE)).resolves.toMatchObject({ mainAssigned: 3 });
  });

  it("a screened-out participant reloading the page does not re-reserve items", async () => {
    const { study, pid } = await screenedOut();
    await db.participant.update({ where: { id: pid }, data: { reservedUntil: new Date(Date.now() - 1000) } });
    await reclaimExpiredAssignments(study.id);
    await getParticipantSession(pid);
    expect(await reservedTotal(study.id)).toBe(0);
    await expect(db.assignment.count({ where: { participantId: pid, status: "assigned" } })).resolves.toBe(0);
    const session = await getParticipantSession(pid);
    expect(session).toMatchObject({ current: null, participant: { status: "screened_out" } });
  });
});

describe("items excluded while participants hold them", () => {
  it("an item excluded mid-study is skipped: the participant continues and can still complete", async () => {
    const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 3 } });
    const pid = await join(study.slug, "holds-excluded");
    await recordConsent(pid, true, DEVICE);
    const first = (await getParticipantSession(pid))!.current!;
    await db.item.update({ where: { id: first.item.id }, data: { status: "excluded", statusReason: "bad render" } });
    let session = await getParticipantSession(pid);
    expect(session!.current).not.toBeNull();
    expect(session!.current!.item.id).not.toBe(first.item.id);
    let n = 0;
    while (session!.current && n < 5) {
      await recordResponse({
        participantId: pid,
        assignmentId: session!.current.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `ex-${pid}-${n++}`,
      });
      session = await getParticipantSession(pid);
    }
    expect(n).toBe(2);
    expect(session).toMatchObject({ participant: { status: "completed" }, completion: { code: null } });
  });

  it("the last remaining item excluded: the next read of the session completes the participant", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, answersPerItem: 3 } });
    const pid = await join(study.slug, "last-excluded");
    await recordConsent(pid, true, DEVICE);
    const first = (await getParticipantSession(pid))!.current!;
    await recordResponse({
      participantId: pid,
      assignmentId: first.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: `le-${pid}`,
    });
    const second = (await getParticipantSession(pid))!.current!;
    await db.item.update({ where: { id: second.item.id }, data: { status: "excluded", statusReason: "bad render" } });
    await expect(getParticipantSession(pid)).resolves.toMatchObject({
      current: null,
      participant: { status: "completed" },
      completion: { code: null },
    });
  });
});
