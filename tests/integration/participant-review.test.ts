import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { reclaimExpiredAssignments } from "@/lib/server/dal/participant/assign-items";
import { enterStudy } from "@/lib/server/dal/participant/enter-study";
import { getParticipantSession } from "@/lib/server/dal/participant/get-session";
import { DeviceInfoSchema, recordConsent } from "@/lib/server/dal/participant/record-consent";
import { recordResponse } from "@/lib/server/dal/scoring/record-response";
import { createTranslationItem, createTranslationStudy, makeCurrentQuestion } from "../helpers/study-fixtures";

// Review of the participant-facing paths: each test reproduces one bug found in the review.

afterAll(async () => {
  await disconnectDb();
});

const DEVICE = { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2, userAgent: "test", pointer: "fine" as const };

async function join(slug: string, pid: string) {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  return entered.participantId;
}

async function reservedTotal(studyId: string) {
  const counters = await db.studyItemCounter.findMany({ where: { studyId }, select: { reserved: true } });
  return counters.reduce((sum, c) => sum + c.reserved, 0);
}

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
    await expect(enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "cap-late" } })).resolves.toMatchObject({ kind: "full" });
  });

  it("simultaneous joiners are still counterbalanced evenly between conditions", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, conditions: ["static", "interactive"] } });
    await Promise.all(Array.from({ length: 8 }, (_, i) => join(study.slug, `cbc-${i}`)));
    const groups = await db.participant.groupBy({ by: ["condition"], where: { studyId: study.id }, _count: { _all: true } });
    expect(Object.fromEntries(groups.map((g) => [g.condition, g._count._all]))).toEqual({ static: 4, interactive: 4 });
  });
});

describe("consent state machine", () => {
  it("a participant who declined cannot later accept and take items from the pool", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, answersPerItem: 1 } });
    const pid = await join(study.slug, "decliner");
    await recordConsent(pid, false, null);
    await expect(recordConsent(pid, true, DEVICE)).resolves.toBeNull();
    await expect(db.assignment.count({ where: { participantId: pid } })).resolves.toBe(0);
    await expect(db.participant.findUniqueOrThrow({ where: { id: pid } })).resolves.toMatchObject({ status: "declined", consentAt: null });
    // The items stay available to the next participant.
    const next = await join(study.slug, "after-decliner");
    await expect(recordConsent(next, true, DEVICE)).resolves.toMatchObject({ mainAssigned: 2 });
  });

  it("accept and decline racing: the participant ends in one state and holds items only if active", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, answersPerItem: 1 } });
    const pid = await join(study.slug, "racer");
    await Promise.allSettled([recordConsent(pid, true, DEVICE), recordConsent(pid, false, null)]);
    const p = await db.participant.findUniqueOrThrow({ where: { id: pid }, select: { status: true } });
    const assigned = await db.assignment.count({ where: { participantId: pid } });
    if (p.status === "declined") expect(assigned).toBe(0);
    else expect(p.status).toBe("active");
    expect(await reservedTotal(study.id)).toBe(p.status === "active" ? 2 : 0);
  });
});

describe("reservations of an active participant", () => {
  it("answering a question keeps the rest of the participant's work reserved (activity extends the timeout)", async () => {
    const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 1, assignmentTimeoutMin: 1 } });
    const pid = await join(study.slug, "slow-but-active");
    await recordConsent(pid, true, DEVICE);
    // The participant has been working for longer than the timeout since consent (reservations set then) ...
    await db.assignment.updateMany({ where: { participantId: pid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // ... and now submits an answer: they are active, so nothing of theirs may be reclaimed by the next joiner.
    const current = (await getParticipantSession(pid))!.current!;
    await recordResponse({ participantId: pid, assignmentId: current.assignmentId, rawAnswer: "move x 1", idempotencyKey: `slow-${pid}` });
    const released = await db.$transaction((tx) => reclaimExpiredAssignments(tx, study.id));
    expect(released).toBe(0);
    await expect(db.assignment.count({ where: { participantId: pid, status: "assigned" } })).resolves.toBe(2);
  });
});

describe("reclaim racing a late answer", () => {
  it("either the answer is stored and the item stays reserved, or it is refused as released (410) and nothing is stored", async () => {
    // Invariant check over a real race; the refusal must say "released" (it said "already answered" when the reclaim
    // landed between the answer's read and its write, and the client then reloaded to a misleading message).
    for (let round = 0; round < 6; round++) {
      const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 1, assignmentTimeoutMin: 1 } });
      const pid = await join(study.slug, `late-${round}`);
      await recordConsent(pid, true, DEVICE);
      const current = (await getParticipantSession(pid))!.current!;
      await db.assignment.updateMany({ where: { participantId: pid }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const [answer] = await Promise.allSettled([
        recordResponse({ participantId: pid, assignmentId: current.assignmentId, rawAnswer: "move x 1", idempotencyKey: `late-${pid}` }),
        db.$transaction((tx) => reclaimExpiredAssignments(tx, study.id)),
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
      const { study, items } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 1, assignmentTimeoutMin: 1 } });
      const idle = await join(study.slug, `idle-${round}`);
      await recordConsent(idle, true, DEVICE);
      await db.assignment.updateMany({ where: { participantId: idle }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await db.$transaction((tx) => reclaimExpiredAssignments(tx, study.id));
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
      config: { itemsPerTask: 3, answersPerItem: 1, attentionItemIds: [check.id], attentionPolicy: "screen_out", attentionMaxFailures: 0 },
    });
    const pid = await join(setup.study.slug, `so-${Math.random().toString(36).slice(2)}`);
    await recordConsent(pid, true, DEVICE);
    const attention = await db.assignment.findFirstOrThrow({ where: { participantId: pid, phase: "attention" } });
    await makeCurrentQuestion(attention.id);
    const r = await recordResponse({ participantId: pid, assignmentId: attention.id, rawAnswer: "move y 1", idempotencyKey: `so-${pid}` });
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
    await db.assignment.updateMany({ where: { participantId: pid, status: "assigned" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await db.$transaction((tx) => reclaimExpiredAssignments(tx, study.id));
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
      await recordResponse({ participantId: pid, assignmentId: session!.current.assignmentId, rawAnswer: "move x 1", idempotencyKey: `ex-${pid}-${n++}` });
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
    await recordResponse({ participantId: pid, assignmentId: first.assignmentId, rawAnswer: "move x 1", idempotencyKey: `le-${pid}` });
    const second = (await getParticipantSession(pid))!.current!;
    await db.item.update({ where: { id: second.item.id }, data: { status: "excluded", statusReason: "bad render" } });
    await expect(getParticipantSession(pid)).resolves.toMatchObject({ current: null, participant: { status: "completed" }, completion: { code: null } });
  });
});

describe("items excluded after the study's counters exist", () => {
  it("are never assigned to later joiners", async () => {
    const { study, items } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 2, answersPerItem: 5 } });
    const first = await join(study.slug, "before-exclusion");
    await recordConsent(first, true, DEVICE); // creates the counters; reserves two items
    const taken = new Set((await db.assignment.findMany({ where: { participantId: first } })).map((a) => a.itemId));
    const untouched = items.map((i) => i.id).find((id) => !taken.has(id))!;
    // The least-reserved item, i.e. the first a newcomer would get, is excluded by an admin.
    await db.item.update({ where: { id: untouched }, data: { status: "excluded", statusReason: "wrong gold" } });
    const second = await join(study.slug, "after-exclusion");
    await recordConsent(second, true, DEVICE);
    const mine = (await db.assignment.findMany({ where: { participantId: second } })).map((a) => a.itemId);
    expect(mine).toHaveLength(2);
    expect(mine).not.toContain(untouched);
  });
});

describe("time-limit submissions", () => {
  it("a timed-out submission is refused when the study has no time limit", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1 } });
    const pid = await join(study.slug, "skipper");
    await recordConsent(pid, true, DEVICE);
    const current = (await getParticipantSession(pid))!.current!;
    await expect(recordResponse({ participantId: pid, assignmentId: current.assignmentId, rawAnswer: "", idempotencyKey: `skip-${pid}`, timedOut: true })).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
  });

  it("a timed-out submission before the limit has run out on the server is refused; after it, stored with score 0", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 30 } });
    const pid = await join(study.slug, "early-timeout");
    await recordConsent(pid, true, DEVICE);
    const current = (await getParticipantSession(pid))!.current!;
    const options = { participantId: pid, assignmentId: current.assignmentId, rawAnswer: "", timedOut: true };
    await expect(recordResponse({ ...options, idempotencyKey: `early-${pid}` })).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    // Shown 31 s ago on the server's clock: the limit has run out.
    await db.assignment.update({ where: { id: current.assignmentId }, data: { firstShownAt: new Date(Date.now() - 31_000) } });
    await expect(recordResponse({ ...options, idempotencyKey: `late-${pid}` })).resolves.toMatchObject({ status: "stored" });
    await expect(db.response.findUniqueOrThrow({ where: { assignmentId: current.assignmentId } })).resolves.toMatchObject({ rawAnswer: "", exact: 0, partial: 0 });
  });
});

describe("odd input", () => {
  it("a NUL character in the answer or the interaction log is a clear 422, not a database error", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1 } });
    const pid = await join(study.slug, "nul-bytes");
    await recordConsent(pid, true, DEVICE);
    const current = (await getParticipantSession(pid))!.current!;
    const base = { participantId: pid, assignmentId: current.assignmentId };
    await expect(recordResponse({ ...base, rawAnswer: "move x 1\u0000", idempotencyKey: `nul1-${pid}` })).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(
      recordResponse({ ...base, rawAnswer: "move x 1", idempotencyKey: `nul2-${pid}`, interactionLog: { events: [{ t: 1, type: "key", detail: "a\u0000b" }] } }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
    // The question is still open: a clean submit goes through.
    await expect(recordResponse({ ...base, rawAnswer: "move x 1", idempotencyKey: `nul3-${pid}` })).resolves.toMatchObject({ status: "stored" });
  });

  it("device info with a NUL character is refused by the consent schema (it would fail the jsonb insert)", async () => {
    const parsed = DeviceInfoSchema.safeParse({ ...DEVICE, userAgent: "Mozilla\u0000" });
    expect(parsed.success).toBe(false);
    expect(DeviceInfoSchema.safeParse(DEVICE).success).toBe(true);
  });
});
