// The session read: the DTO in every state of a session (against the former multi-query read as reference), prefetch
// of the next question's images, the consent text's duration, and its round trips.
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import {
  endScreens,
  getParticipantSession,
  toCurrentQuestion,
  type CurrentQuestionDto,
  type ParticipantSessionDto,
} from "@/lib/server/participant-flow/get-session";
import { findPublicItem } from "@/lib/server/participant-flow/get-public-item";
import { hasCapacity } from "@/lib/server/participant-flow/assign-items";
import { findTask } from "@/lib/tasks/registry";
import { effectiveDeviceRule } from "@/lib/participant/device-rule";
import { consentTextFor, StudyConfigSchema } from "@/lib/study-config";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { recordResponse, submitAnswer } from "@/lib/server/participant-flow/record-response";
import { createTranslationItem, createTranslationStudy } from "../../helpers/study-fixtures";
import { DEVICE, join, started } from "./helpers";

afterAll(async () => {
  await disconnectDb();
});

/**
 * The session read as it was before it became one statement (8 round trips for a started participant), kept only as the
 * reference for its DTO: the new read must return exactly what this returned, for every state below.
 */
async function referenceSession(participantId: string): Promise<ParticipantSessionDto | null> {
  const participant = await db.participant.findUnique({
    where: { id: participantId },
    select: {
      id: true,
      studyId: true,
      status: true,
      condition: true,
      consentAt: true,
      flags: true,
      study: { select: { name: true, slug: true, config: true } },
    },
  });
  if (!participant) return null;
  const config = StudyConfigSchema.parse(participant.study.config);
  const flags = (participant.flags ?? {}) as Record<string, unknown>;
  const assignments = await db.assignment.findMany({
    where: { participantId, status: { not: "abandoned" } },
    orderBy: { position: "asc" },
    select: {
      id: true,
      position: true,
      phase: true,
      status: true,
      itemId: true,
      firstShownAt: true,
      questionShownAt: true,
      item: { select: { status: true, taskId: true } },
    },
  });
  const open = assignments.filter((a) => a.status === "assigned" && a.item.status === "active");
  let status: string = participant.status;
  if (status === "active" && assignments.length > 0 && open.length === 0) {
    await db.participant.updateMany({
      where: { id: participantId, status: "active" },
      data: { status: "completed", completedAt: new Date() },
    });
    status = "completed";
  }
  const next = status === "active" ? open[0] : undefined;
  let current: CurrentQuestionDto | null = null;
  const item = next ? await findPublicItem(next.itemId) : null;
  if (next && item) {
    if (!next.firstShownAt) await db.assignment.update({ where: { id: next.id }, data: { firstShownAt: new Date() } });
    const taskAnswered = assignments.some((a) => a.status === "answered" && a.item.taskId === item.taskId);
    current = toCurrentQuestion({ ...next, taskAnswered }, item, participant.condition, config);
  }
  const following = current && config.timeLimitSec === null ? open[1] : undefined;
  const upcomingImageIds = following
    ? (
        await db.itemImage.findMany({
          where: { itemId: following.itemId, item: { status: "active" } },
          orderBy: { position: "asc" },
          select: { id: true },
        })
      ).map((i) => i.id)
    : [];
  const [m] = await db.$queryRaw<Array<{ n: number; median: number | null }>>`
    SELECT count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ("completedAt" - "consentAt"))) AS median
    FROM "Participant" WHERE "studyId" = ${participant.studyId} AND status = 'completed' AND "consentAt" IS NOT NULL AND "completedAt" IS NOT NULL`;
  const median = participant.consentAt === null && m!.n >= 5 && m!.median !== null ? Number(m!.median) : null;
  const tasks = config.tasks.map((id) => findTask(id)).filter((t) => t !== undefined);
  return {
    participant: {
      id: participant.id,
      status,
      condition: participant.condition,
      consented: participant.consentAt !== null,
    },
    study: {
      name: participant.study.name,
      slug: participant.study.slug,
      consentText: consentTextFor(config, median),
      declineMessage: config.declineMessage,
      timeLimitSec: config.timeLimitSec,
      hbondPrimer: config.hbondPrimer,
      deviceRule: effectiveDeviceRule(config),
      tasks: tasks.map((t) => ({ id: t.id, label: t.label, instructions: t.instructions })),
    },
    progress: {
      answered: assignments.filter((a) => a.status === "answered").length,
      total: assignments.length,
      practiceTotal: assignments.filter((a) => a.phase === "practice").length,
    },
    hbondPrimerSeen: typeof flags.hbondPrimerSeenAt === "string",
    current,
    upcomingImageIds,
    ...endScreens(status, config, typeof flags.screenOutReason === "string" ? flags.screenOutReason : null),
    noWork: status === "consenting" && !(await hasCapacity(participant.studyId)),
  };
}

/** The session read, then the reference read of the same state (both idempotent: the second finds the first's writes). */
async function expectSameAsReference(pid: string) {
  const session = await getParticipantSession(pid);
  expect(session).toEqual(await referenceSession(pid));
  return session!;
}

describe("the session read", () => {
  it("returns the same DTO as the former multi-query read, in every state of a session", async () => {
    const practice = await createTranslationItem("dto-practice", { axis: "y", distanceA: -1 });
    const { study } = await createTranslationStudy({
      itemCount: 6,
      config: {
        itemsPerTask: 4,
        answersPerItem: 5,
        practiceItemIds: [practice.id],
        consentText: "About {duration}.",
        conditions: ["interactive"],
      },
    });
    // Five finished participants: the consent text of a new one states their median.
    const now = Date.now();
    for (let i = 1; i <= 5; i++) {
      const id = (
        (await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: `dto-done-${i}` } })) as { participantId: string }
      ).participantId;
      await db.participant.update({
        where: { id },
        data: { status: "completed", consentAt: new Date(now - i * 600_000), completedAt: new Date(now) },
      });
    }
    const entered = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "dto" } });
    const pid = (entered as { participantId: string }).participantId;
    const before = await expectSameAsReference(pid);
    expect(before).toMatchObject({
      participant: { status: "consenting", consented: false },
      current: null,
      noWork: false,
    });
    expect(before.study.consentText).toBe("About 30 minutes (the median of the participants so far).");

    await recordConsent(pid, true, DEVICE);
    const rows = await db.assignment.findMany({ where: { participantId: pid }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.firstShownAt)).toEqual(rows.map(() => null));
    // First load: the practice question, stamped first shown by this read; its item has a 3D scene, never sent.
    await db.item.update({ where: { id: practice.id }, data: { payload: { pdbId: "1abc", scene3d: { atoms: [] } } } });
    const first = (await getParticipantSession(pid))!;
    expect(first.current).toMatchObject({
      assignmentId: rows[0]!.id,
      phase: "practice",
      alreadyShown: false,
      interactive: { allowRotate: true },
    });
    expect(first.current!.item.payload).toEqual({ pdbId: "1abc" });
    expect(first.upcomingImageIds).toHaveLength(1);
    const stamped = await db.assignment.findUniqueOrThrow({ where: { id: rows[0]!.id } });
    expect(stamped.firstShownAt).toBeInstanceOf(Date);
    expect(await referenceSession(pid)).toEqual(first);
    // A reload keeps the first stamp; once the question is reported shown, the session says so.
    await expectSameAsReference(pid);
    await expect(db.assignment.findUniqueOrThrow({ where: { id: rows[0]!.id } })).resolves.toMatchObject({
      firstShownAt: stamped.firstShownAt,
    });
    await db.assignment.update({ where: { id: rows[0]!.id }, data: { questionShownAt: new Date() } });
    expect((await expectSameAsReference(pid)).current!.alreadyShown).toBe(true);

    // Answered practice; the next item is excluded after assignment: skipped, the one after it is current.
    await submitAnswer({
      participantId: pid,
      assignmentId: rows[0]!.id,
      rawAnswer: "move y -1",
      idempotencyKey: `dto-${pid}-0`,
    });
    await db.item.update({ where: { id: rows[1]!.itemId }, data: { status: "excluded" } });
    const skipped = await expectSameAsReference(pid);
    expect(skipped.current!.assignmentId).toBe(rows[2]!.id);
    // A question of its task is answered: its instructions were read (an untimed study has no "shown" stamp to say so).
    expect(skipped.current!.task.id).toBe("translation");
    expect(skipped.current!.taskAnswered).toBe(true);
    expect(first.current!.taskAnswered).toBeUndefined();
    expect(skipped.progress).toEqual({ answered: 1, total: 5, practiceTotal: 1 });

    // Everything left is excluded: the read completes the session (completion screen, completedAt stamped).
    await db.item.updateMany({
      where: { id: { in: rows.slice(2).map((r) => r.itemId) } },
      data: { status: "excluded" },
    });
    const done = (await getParticipantSession(pid))!;
    expect(done).toMatchObject({
      participant: { status: "completed" },
      current: null,
      completion: { code: null },
      upcomingImageIds: [],
    });
    await expect(db.participant.findUniqueOrThrow({ where: { id: pid } })).resolves.toMatchObject({
      status: "completed",
      completedAt: expect.any(Date),
    });
    expect(await referenceSession(pid)).toEqual(done);

    // Screened out: the screen-out message, no question.
    await db.participant.update({ where: { id: pid }, data: { status: "screened_out" } });
    expect(await expectSameAsReference(pid)).toMatchObject({
      screenedOut: { message: expect.any(String) },
      completion: null,
      current: null,
    });
  });

  it("returns the same DTO in a timed study (no upcoming images), for a declined participant and with no work left", async () => {
    const timed = await createTranslationStudy({
      itemCount: 3,
      config: { itemsPerTask: 2, answersPerItem: 1, timeLimitSec: 30 },
    });
    const pid = await started(timed.study.slug, "dto-timed");
    const session = await expectSameAsReference(pid);
    expect(session.current).not.toBeNull();
    expect(session.upcomingImageIds).toEqual([]);
    // One item left with a free slot and a study-wide k of 1: a second participant fits, a third does not.
    const second = await started(timed.study.slug, "dto-timed-2");
    expect((await expectSameAsReference(second)).progress.total).toBe(1);
    const third = (
      (await enterStudy({ slug: timed.study.slug, query: { PROLIFIC_PID: "dto-timed-3" } })) as {
        participantId: string;
      }
    ).participantId;
    expect(await expectSameAsReference(third)).toMatchObject({ noWork: true, participant: { status: "consenting" } });
    const declined = (
      (await enterStudy({ slug: timed.study.slug, query: { PROLIFIC_PID: "dto-declined" } })) as {
        participantId: string;
      }
    ).participantId;
    await recordConsent(declined, false, null);
    expect(await expectSameAsReference(declined)).toMatchObject({ noWork: false, participant: { consented: false } });
    await expect(getParticipantSession("no-such-participant")).resolves.toBeNull();
  });

  it("a started participant's page load, reload and post-answer reload take at most 3 round trips (were 8)", async () => {
    const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 5 } });
    const pid = await started(study.slug, "rt-session");
    const spy = vi.spyOn(pg.Client.prototype, "query");
    const count = async (run: () => Promise<unknown>) => {
      spy.mockClear();
      const out = await run();
      return { out: out as ParticipantSessionDto, trips: spy.mock.calls.length };
    };
    try {
      const load = await count(() => getParticipantSession(pid)); // stamps firstShownAt
      const reload = await count(() => getParticipantSession(pid));
      await submitAnswer({
        participantId: pid,
        assignmentId: load.out.current!.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `rt-s-${pid}`,
      });
      const next = await count(() => getParticipantSession(pid));
      // Before consent (rare: the first page load) the capacity check adds its own calls.
      const joined = (await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: "rt-session-consenting" } })) as {
        participantId: string;
      };
      const consenting = await count(() => getParticipantSession(joined.participantId));
      console.log(
        `round trips: session load ${load.trips}, reload ${reload.trips}, after an answer ${next.trips}; before consent ${consenting.trips}`,
      );
      expect(consenting.out.noWork).toBe(false);
      expect(load.out.current).not.toBeNull();
      expect(next.out.current!.assignmentId).not.toBe(load.out.current!.assignmentId);
      expect(load.trips).toBeGreaterThan(0);
      expect(load.trips).toBeLessThanOrEqual(3);
      expect(reload.trips).toBeLessThanOrEqual(3);
      expect(next.trips).toBeLessThanOrEqual(3);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("participant session (UX data)", () => {
  it("names the next question's images (for prefetching) and none after the last question", async () => {
    const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 2 } });
    const pid = await join(study.slug, "ux-prefetch");
    await recordConsent(pid, true, DEVICE);
    const first = (await getParticipantSession(pid))!;
    const assignments = await db.assignment.findMany({
      where: { participantId: pid },
      orderBy: { position: "asc" },
      select: { itemId: true },
    });
    const secondImages = await db.itemImage.findMany({
      where: { itemId: assignments[1]!.itemId },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    expect(secondImages.length).toBeGreaterThan(0);
    expect(first.upcomingImageIds).toEqual(secondImages.map((i) => i.id));
    // The upcoming images are the next question's, not the current one's.
    expect(first.upcomingImageIds).not.toEqual(first.current!.item.images.map((i) => i.id));

    await recordResponse({
      participantId: pid,
      assignmentId: first.current!.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: "ux-prefetch-1",
      rtClientMs: 1000,
    });
    const last = (await getParticipantSession(pid))!;
    expect(last.current!.item.images.map((i) => i.id)).toEqual(secondImages.map((i) => i.id));
    expect(last.upcomingImageIds).toEqual([]);
  });

  it("the consent text states a duration from the study's length, then the median of finished participants", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 20,
      config: { itemsPerTask: 2, consentText: "It takes about {duration}." },
    });
    const fresh = (await getParticipantSession(await join(study.slug, "ux-consent-0")))!;
    // One task × 2 items: 120 + 30 + 2 × 45..90 s = 240..330 s → 4–6 minutes.
    expect(fresh.study.consentText).toBe("It takes about 4–6 minutes.");

    const now = Date.now();
    for (let i = 1; i <= 5; i++) {
      const id = await join(study.slug, `ux-consent-${i}`);
      await db.participant.update({
        where: { id },
        data: { status: "completed", consentAt: new Date(now - i * 600_000), completedAt: new Date(now) },
      });
    }
    // Durations 10, 20, 30, 40, 50 minutes: the median is 30.
    const later = (await getParticipantSession(await join(study.slug, "ux-consent-new")))!;
    expect(later.study.consentText).toBe("It takes about 30 minutes (the median of the participants so far).");
  });

  it("records with each participant whether the study showed the H-bond primer", async () => {
    const withPrimer = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, hbondPrimer: true } });
    const without = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1 } });
    const a = await join(withPrimer.study.slug, "ux-primer-on");
    const b = await join(without.study.slug, "ux-primer-off");
    await recordConsent(a, true, DEVICE);
    await recordConsent(b, true, DEVICE);
    expect((await getParticipantSession(a))!.study.hbondPrimer).toBe(true);
    expect((await getParticipantSession(b))!.study.hbondPrimer).toBe(false);
    expect((await db.participant.findUniqueOrThrow({ where: { id: a } })).flags).toEqual({ hbondPrimer: true });
    expect((await db.participant.findUniqueOrThrow({ where: { id: b } })).flags).toEqual({ hbondPrimer: false });
  });
});
