import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { reclaimExpiredAssignments } from "@/lib/server/dal/participant/assign-items";
import { enterStudy } from "@/lib/server/dal/participant/enter-study";
import { getParticipantSession } from "@/lib/server/dal/participant/get-session";
import { recordConsent } from "@/lib/server/dal/participant/record-consent";
import { recordResponse } from "@/lib/server/dal/scoring/record-response";
import { createTranslationItem, createTranslationStudy, makeCurrentQuestion } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

const DEVICE = { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 2, userAgent: "test", pointer: "fine" as const };

async function join(slug: string, pid: string) {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid, STUDY_ID: "S1", SESSION_ID: `sess-${pid}` } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  return entered.participantId;
}

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
    const p = await db.participant.findUniqueOrThrow({ where: { id: (anon as { participantId: string }).participantId } });
    expect(p.anonymous).toBe(true);
    expect(p.externalId).toMatch(/^anon-[0-9a-f]{16}$/);
    // maxParticipants counts those who started: full once the first one consented.
    await expect(enterStudy({ slug: open.study.slug, query: { PROLIFIC_PID: "second" } })).resolves.toMatchObject({ kind: "ok" });
    await recordConsent(p.id, true, DEVICE);
    await expect(enterStudy({ slug: open.study.slug, query: { PROLIFIC_PID: "late" } })).resolves.toMatchObject({ kind: "full" });
    const closed = await createTranslationStudy({ itemCount: 1, status: "closed" });
    await expect(enterStudy({ slug: closed.study.slug, query: { PROLIFIC_PID: "x" } })).resolves.toMatchObject({ kind: "closed" });
    await expect(enterStudy({ slug: "no-such-study", query: {} })).resolves.toEqual({ kind: "not_found" });
    await expect(enterStudy({ slug: open.study.slug, query: { PROLIFIC_PID: "bad id; drop" } })).resolves.toMatchObject({ kind: "invalid" });
  });

  it("a lab participant (no external id) resumes by cookie, only in its own study; another study's cookie makes a new one", async () => {
    const lab = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1 } });
    const other = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1 } });
    const first = (await enterStudy({ slug: lab.study.slug, query: {} })) as { participantId: string };
    await expect(enterStudy({ slug: lab.study.slug, query: {}, existingParticipantId: first.participantId })).resolves.toMatchObject({ kind: "ok", participantId: first.participantId, resumed: true });
    const elsewhere = await enterStudy({ slug: other.study.slug, query: {}, existingParticipantId: first.participantId });
    expect(elsewhere).toMatchObject({ kind: "ok", resumed: false });
    expect((elsewhere as { participantId: string }).participantId).not.toBe(first.participantId);
    // A Prolific id in the link wins over the cookie.
    const pid = await enterStudy({ slug: lab.study.slug, query: { PROLIFIC_PID: "lab-pid" }, existingParticipantId: first.participantId });
    expect((pid as { participantId: string }).participantId).not.toBe(first.participantId);
  });

  it("a study's own participant parameter name; a stored config that no longer validates keeps the study closed, also to resumes", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, prolific: { participantParam: "workerId" } } });
    const a = await enterStudy({ slug: study.slug, query: { workerId: " w-1 " } });
    expect(a).toMatchObject({ kind: "ok", resumed: false });
    await expect(enterStudy({ slug: study.slug, query: { workerId: "w-1" } })).resolves.toMatchObject({ kind: "ok", resumed: true, participantId: (a as { participantId: string }).participantId });
    const stored = (await db.study.findUniqueOrThrow({ where: { id: study.id } })).config as { prolific: Record<string, unknown> };
    await db.study.update({ where: { id: study.id }, data: { config: { ...stored, prolific: { ...stored.prolific, completionUrl: "javascript:alert(1)" } } } });
    await expect(enterStudy({ slug: study.slug, query: { workerId: "w-1" } })).resolves.toMatchObject({ kind: "closed" });
    await expect(enterStudy({ slug: study.slug, query: { workerId: "w-2" } })).resolves.toMatchObject({ kind: "closed" });
  });

  it("a study closed after its link was read takes no new participant (the join statement checks it again)", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, conditions: ["static", "interactive"] } });
    await db.study.update({ where: { id: study.id }, data: { status: "closed" } });
    await expect(enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "after-close" } })).resolves.toMatchObject({ kind: "closed" });
    await expect(db.participant.count({ where: { studyId: study.id } })).resolves.toBe(0);
  });

  it("50 simultaneous first visits with one external id and 50 different ones, two conditions: one participant per id, conditions balanced", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, conditions: ["static", "interactive"] } });
    const same = await Promise.all(Array.from({ length: 50 }, () => join(study.slug, "PID-RACE")));
    expect(new Set(same).size).toBe(1);
    await Promise.all(Array.from({ length: 50 }, (_, i) => join(study.slug, `race-${i}`)));
    const groups = await db.participant.groupBy({ by: ["condition"], where: { studyId: study.id, externalId: { startsWith: "race-" } }, _count: { _all: true } });
    const sizes = groups.map((g) => g._count._all);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(50);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(2);
  });

  it("counterbalances conditions between participants", async () => {
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 1, conditions: ["static", "interactive"] } });
    for (let i = 0; i < 6; i++) await join(study.slug, `cb-${i}`);
    const groups = await db.participant.groupBy({ by: ["condition"], where: { studyId: study.id }, _count: { _all: true } });
    expect(Object.fromEntries(groups.map((g) => [g.condition, g._count._all]))).toEqual({ static: 3, interactive: 3 });
  });
});

describe("assignment", () => {
  it("50 concurrent joins against one pool with k=3: no item exceeds k, no participant sees an item twice", async () => {
    const k = 3;
    const { study, items } = await createTranslationStudy({ itemCount: 40, config: { itemsPerTask: 3, answersPerItem: k } });
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => join(study.slug, `fifty-${i}`)));
    expect(new Set(ids).size).toBe(50);
    await Promise.all(ids.map((id) => recordConsent(id, true, DEVICE)));
    const assignments = await db.assignment.findMany({ where: { participant: { studyId: study.id } }, select: { participantId: true, itemId: true } });
    const perItem = new Map<string, number>();
    for (const a of assignments) perItem.set(a.itemId, (perItem.get(a.itemId) ?? 0) + 1);
    // 50 × 3 = 150 requests for 40 × 3 = 120 slots: all slots used, none beyond k.
    expect(assignments.length).toBe(120);
    expect(Math.max(...perItem.values())).toBe(k);
    expect(perItem.size).toBe(items.length);
    const byParticipant = new Map<string, string[]>();
    for (const a of assignments) byParticipant.set(a.participantId, [...(byParticipant.get(a.participantId) ?? []), a.itemId]);
    for (const list of byParticipant.values()) expect(new Set(list).size).toBe(list.length);
  });

  it("8 joiners for 20 slots: every slot used once, none beyond k, no duplicates within a participant", async () => {
    const k = 2;
    const { study, items } = await createTranslationStudy({ itemCount: 10, config: { itemsPerTask: 3, answersPerItem: k } });
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => join(study.slug, `conc-${i}`)));
    const results = await Promise.all(ids.map((id) => recordConsent(id, true, DEVICE)));
    const assignments = await db.assignment.findMany({ where: { participant: { studyId: study.id } }, select: { participantId: true, itemId: true } });
    const perItem = new Map<string, number>();
    for (const a of assignments) perItem.set(a.itemId, (perItem.get(a.itemId) ?? 0) + 1);
    // Capacity 10 items × k=2 = 20 slots for 8 × 3 = 24 requests: every slot is used, none twice.
    expect(assignments.length).toBe(20);
    expect(Math.max(...perItem.values())).toBe(k);
    expect(perItem.size).toBe(items.length);
    for (const id of ids) {
      const mine = assignments.filter((a) => a.participantId === id).map((a) => a.itemId);
      expect(new Set(mine).size).toBe(mine.length);
    }
    expect(results.filter((r) => r && r.shortTasks.length > 0).length).toBeGreaterThan(0);
    const counters = await db.studyItemCounter.findMany({ where: { studyId: study.id } });
    expect(counters.every((c) => c.reserved === perItem.get(c.itemId))).toBe(true);
  });

  it("hands out the least-answered items first", async () => {
    const { study, items } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const first = await join(study.slug, "least-1");
    await recordConsent(first, true, DEVICE); // creates the counters and reserves one item
    const taken = (await db.assignment.findFirstOrThrow({ where: { participantId: first } })).itemId;
    const others = items.map((i) => i.id).filter((id) => id !== taken);
    await db.studyItemCounter.update({ where: { studyId_itemId: { studyId: study.id, itemId: others[0]! } }, data: { reserved: 3 } });
    const second = await join(study.slug, "least-2");
    await recordConsent(second, true, DEVICE);
    // Counts are now taken=1, others[0]=3, others[1]=0: the newcomer must get others[1].
    await expect(db.assignment.findFirstOrThrow({ where: { participantId: second } })).resolves.toMatchObject({ itemId: others[1] });
  });

  it("a participant who would get no item is told so before consenting, and is neither started nor counted", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 1 } });
    const first = await join(study.slug, "nw-1");
    await expect(getParticipantSession(first)).resolves.toMatchObject({ noWork: false, participant: { consented: false } });
    await recordConsent(first, true, DEVICE);
    const second = await join(study.slug, "nw-2");
    // Before consenting: the session already says there is no work.
    await expect(getParticipantSession(second)).resolves.toMatchObject({ noWork: true, participant: { consented: false, status: "consenting" } });
    // Consenting anyway (a stale page) starts nothing.
    await expect(recordConsent(second, true, DEVICE)).resolves.toMatchObject({ mainAssigned: 0, notStarted: "no_items" });
    await expect(db.participant.findUniqueOrThrow({ where: { id: second } })).resolves.toMatchObject({ status: "consenting", consentAt: null });
    await expect(db.assignment.count({ where: { participantId: second } })).resolves.toBe(0);
    await expect(db.studyParticipantCounter.findUniqueOrThrow({ where: { studyId: study.id } })).resolves.toMatchObject({ started: 1 });
  });

  it("order is randomised per participant from the recorded seed, and assignment happens once", async () => {
    const { study } = await createTranslationStudy({ itemCount: 6, config: { itemsPerTask: 6, answersPerItem: 5 } });
    const a = await join(study.slug, "ord-a");
    const b = await join(study.slug, "ord-b");
    await recordConsent(a, true, DEVICE);
    await recordConsent(b, true, DEVICE);
    await expect(recordConsent(a, true, DEVICE)).resolves.toBeNull(); // starting happens once
    const order = async (pid: string) => (await db.assignment.findMany({ where: { participantId: pid }, orderBy: { position: "asc" } })).map((x) => x.itemId);
    const [oa, ob] = [await order(a), await order(b)];
    expect(oa).toHaveLength(6);
    expect([...oa].sort()).toEqual([...ob].sort());
    expect(new Set(oa).size).toBe(6);
    expect(oa).not.toEqual(ob); // 1/720 chance of a false failure for two fixed seeds; seeds are random per run
  });

  it("reservations not renewed by an answer are reclaimed after the timeout; reloading the page neither renews nor re-reserves", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 1, assignmentTimeoutMin: 1 } });
    const idle = await join(study.slug, "idle");
    await recordConsent(idle, true, DEVICE);
    const before = await db.assignment.findFirstOrThrow({ where: { participantId: idle } });
    // Polling the session (a reload, an open tab) is not activity: the expiry stays where it was.
    await getParticipantSession(idle);
    await expect(db.assignment.findFirstOrThrow({ where: { participantId: idle } })).resolves.toMatchObject({ expiresAt: before.expiresAt });
    await db.assignment.updateMany({ where: { participantId: idle }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const released = await db.$transaction((tx) => reclaimExpiredAssignments(tx, study.id));
    expect(released).toBe(1);
    await expect(db.studyItemCounter.findFirstOrThrow({ where: { studyId: study.id } })).resolves.toMatchObject({ reserved: 0 });
    await getParticipantSession(idle);
    await expect(db.assignment.findFirstOrThrow({ where: { participantId: idle } })).resolves.toMatchObject({ status: "abandoned" });
    // The slot is free for the next participant.
    const next = await join(study.slug, "after-idle");
    await expect(recordConsent(next, true, DEVICE)).resolves.toMatchObject({ mainAssigned: 1 });
  });
});

describe("answers", () => {
  async function startedParticipant(config = {}) {
    const setup = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 3, ...config } });
    const pid = await join(setup.study.slug, `ans-${Math.random().toString(36).slice(2)}`);
    await recordConsent(pid, true, DEVICE);
    return { ...setup, pid };
  }

  it("scores on the server, stores before advancing, and resumes at the first unanswered item", async () => {
    const { pid } = await startedParticipant();
    const s1 = await getParticipantSession(pid);
    const first = s1!.current!;
    const gold = await db.answerKey.findUniqueOrThrow({ where: { itemId: first.item.id } });
    const result = await recordResponse({ participantId: pid, assignmentId: first.assignmentId, rawAnswer: `  MOVE ${gold.canonical.split(" ")[1]!.toUpperCase()} +${gold.canonical.split(" ")[2]} `, idempotencyKey: `key-${pid}-1`, rtClientMs: 1234 });
    expect(result).toEqual({ status: "stored", practiceFeedback: null, ended: null });
    const stored = await db.response.findUniqueOrThrow({ where: { assignmentId: first.assignmentId } });
    expect(stored).toMatchObject({ canonicalAnswer: gold.canonical, exact: 1, partial: 1, rtClientMs: 1234 });
    expect(stored.rtServerMs).toBeGreaterThanOrEqual(0);
    // A "reload" reads the session again: the next question is the first unanswered one.
    const s2 = await getParticipantSession(pid);
    expect(s2!.current!.position).toBe(first.position + 1);
    expect(s2!.progress).toMatchObject({ answered: 1, total: 3 });
  });

  it("a retried or double-clicked submit stores one response", async () => {
    const { pid } = await startedParticipant();
    const current = (await getParticipantSession(pid))!.current!;
    const options = { participantId: pid, assignmentId: current.assignmentId, rawAnswer: "move y -2", idempotencyKey: `dup-${pid}` };
    const results = await Promise.all([recordResponse(options), recordResponse(options), recordResponse(options)]);
    expect(results.map((r) => r.status).sort()).toEqual(["duplicate", "duplicate", "stored"]);
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(1);
    await expect(recordResponse(options)).resolves.toMatchObject({ status: "duplicate" });
    // A different key for the same question is refused rather than overwriting the stored answer.
    await expect(recordResponse({ ...options, idempotencyKey: `other-${pid}` })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("invalid answers get the grammar's message and store nothing; tampered requests are refused", async () => {
    const { pid } = await startedParticipant();
    const current = (await getParticipantSession(pid))!.current!;
    await expect(recordResponse({ participantId: pid, assignmentId: current.assignmentId, rawAnswer: "move w 3", idempotencyKey: `bad-${pid}` })).rejects.toMatchObject({ code: "UNPROCESSABLE", message: expect.stringMatching(/axis/) });
    await expect(recordResponse({ participantId: pid, assignmentId: current.assignmentId, rawAnswer: "move x 9", idempotencyKey: `bad2-${pid}` })).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    const other = await startedParticipant();
    const theirs = (await getParticipantSession(other.pid))!.current!;
    await expect(recordResponse({ participantId: pid, assignmentId: theirs.assignmentId, rawAnswer: "move x 1", idempotencyKey: `steal-${pid}` })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
  });

  it("completes after the last answer; practice gives feedback and is kept out of counters", async () => {
    const practiceItem = await createTranslationItem("practice", { axis: "y", distanceA: -1 });
    const { pid, study } = await startedParticipant({ itemsPerTask: 2, practiceItemIds: [practiceItem.id] });
    const s = await getParticipantSession(pid);
    expect(s!.current!.phase).toBe("practice");
    const practice = await recordResponse({ participantId: pid, assignmentId: s!.current!.assignmentId, rawAnswer: "move y 1", idempotencyKey: `p-${pid}` });
    expect(practice.practiceFeedback).toEqual({ correct: false, correctAnswer: "move y -1" });
    let session = await getParticipantSession(pid);
    let n = 0;
    while (session!.current) {
      const r = await recordResponse({ participantId: pid, assignmentId: session!.current.assignmentId, rawAnswer: "move x 1", idempotencyKey: `m-${pid}-${n++}` });
      expect(r.practiceFeedback).toBeNull();
      session = await getParticipantSession(pid);
    }
    expect(n).toBe(2);
    expect(session!.participant.status).toBe("completed");
    const counters = await db.studyItemCounter.findMany({ where: { studyId: study.id } });
    expect(counters.reduce((sum, c) => sum + c.answered, 0)).toBe(2);
    expect(counters.some((c) => c.itemId === practiceItem.id)).toBe(false);
  });

  it("attention-check failures screen out under the screen_out policy", async () => {
    const check = await createTranslationItem("attention", { axis: "x", distanceA: 4 });
    const { pid } = await startedParticipant({ itemsPerTask: 3, attentionItemIds: [check.id], attentionPolicy: "screen_out", attentionMaxFailures: 0 });
    const assignment = await db.assignment.findFirstOrThrow({ where: { participantId: pid, phase: "attention" } });
    await makeCurrentQuestion(assignment.id);
    const r = await recordResponse({ participantId: pid, assignmentId: assignment.id, rawAnswer: "move y 1", idempotencyKey: `att-${pid}` });
    expect(r.ended).toBe("screened_out");
    const session = await getParticipantSession(pid);
    expect(session!.screenedOut).not.toBeNull();
    expect(session!.current).toBeNull();
  });

  it("the participant session never carries the gold answer", async () => {
    const { pid } = await startedParticipant();
    const session = await getParticipantSession(pid);
    const golds = await db.answerKey.findMany({ where: { item: { assignments: { some: { participantId: pid } } } } });
    const json = JSON.stringify(session);
    expect(golds.length).toBe(3);
    for (const g of golds) {
      expect(json).not.toContain(g.canonical);
      expect(json).not.toContain(JSON.stringify(g.gold));
    }
  });
});
