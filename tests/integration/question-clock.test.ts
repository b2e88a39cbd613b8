import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { recordResponse } from "@/lib/server/participant-flow/record-response";
import { markQuestionShown } from "@/lib/server/participant-flow/question-clock";
import { LATE_ANSWER_GRACE_MS } from "@/lib/question-clock";
import { createTranslationStudy } from "../helpers/study-fixtures";

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

async function joinAndConsent(slug: string, pid: string) {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  await recordConsent(entered.participantId, true, DEVICE);
  return entered.participantId;
}

describe("server-clock question timing", () => {
  it("stamps the question's display once: a reload gets the same stamp and deadline back", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 60 } });
    const pid = await joinAndConsent(study.slug, "clock-reload");
    const current = (await getParticipantSession(pid))!.current!;
    const first = await markQuestionShown(pid, current.assignmentId);
    expect(first.timeLimitSec).toBe(60);
    expect(Date.parse(first.deadline!) - Date.parse(first.shownAt)).toBe(60_000);
    const again = await markQuestionShown(pid, current.assignmentId);
    expect(again.shownAt).toBe(first.shownAt);
    expect(again.deadline).toBe(first.deadline);
    expect(Date.parse(again.serverNow)).toBeGreaterThanOrEqual(Date.parse(first.serverNow));
    const stored = await db.assignment.findUniqueOrThrow({
      where: { id: current.assignmentId },
      select: { questionShownAt: true },
    });
    expect(stored.questionShownAt!.toISOString()).toBe(first.shownAt);
  });

  it("two tabs racing stamp one moment", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 60 } });
    const pid = await joinAndConsent(study.slug, "clock-race");
    const current = (await getParticipantSession(pid))!.current!;
    const both = await Promise.all([
      markQuestionShown(pid, current.assignmentId),
      markQuestionShown(pid, current.assignmentId),
    ]);
    expect(both[0].shownAt).toBe(both[1].shownAt);
  });

  it("counts the limit from the question's display, not from the instructions screen: a time-out before it is refused", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 30 } });
    const pid = await joinAndConsent(study.slug, "clock-instructions");
    const current = (await getParticipantSession(pid))!.current!;
    // Served 40 s ago (the participant read the instructions), question displayed just now.
    await db.assignment.update({
      where: { id: current.assignmentId },
      data: { firstShownAt: new Date(Date.now() - 40_000) },
    });
    await markQuestionShown(pid, current.assignmentId);
    const options = { participantId: pid, assignmentId: current.assignmentId, rawAnswer: "", timedOut: true };
    await expect(recordResponse({ ...options, idempotencyKey: `early-${pid}` })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
    // 29 s after the display: still refused (no tolerance before the server's limit).
    await db.assignment.update({
      where: { id: current.assignmentId },
      data: { questionShownAt: new Date(Date.now() - 29_000) },
    });
    await expect(recordResponse({ ...options, idempotencyKey: `early2-${pid}` })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
    // 30 s after: the limit has run out; stored as unanswered, timed from the display.
    const shownAt = new Date(Date.now() - 30_000);
    await db.assignment.update({ where: { id: current.assignmentId }, data: { questionShownAt: shownAt } });
    await expect(recordResponse({ ...options, idempotencyKey: `late-${pid}` })).resolves.toMatchObject({
      status: "stored",
    });
    const response = await db.response.findUniqueOrThrow({ where: { assignmentId: current.assignmentId } });
    expect(response).toMatchObject({ rawAnswer: "", exact: 0, shownAt });
    expect(response.rtServerMs).toBeGreaterThanOrEqual(30_000);
    expect(response.rtServerMs).toBeLessThan(40_000);
  });

  it("keeps an answer that arrives past the limit and its grace, flagged late and scored 0; one inside the grace counts", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 30 } });
    // Item 0 is "move x 1": the same correct answer, once just inside the grace and once past it.
    const inGrace = await joinAndConsent(study.slug, "clock-in-grace");
    const late = await joinAndConsent(study.slug, "clock-late");
    for (const [pid, agoMs] of [
      [inGrace, 30_000 + LATE_ANSWER_GRACE_MS - 2_000],
      [late, 30_000 + LATE_ANSWER_GRACE_MS + 2_000],
    ] as const) {
      const current = (await getParticipantSession(pid))!.current!;
      await markQuestionShown(pid, current.assignmentId);
      await db.assignment.update({
        where: { id: current.assignmentId },
        data: { questionShownAt: new Date(Date.now() - agoMs) },
      });
      await expect(
        recordResponse({
          participantId: pid,
          assignmentId: current.assignmentId,
          rawAnswer: "move x 1",
          idempotencyKey: `ans-${pid}`,
        }),
      ).resolves.toMatchObject({
        status: "stored",
      });
    }
    const stored = await db.response.findMany({
      where: { participantId: { in: [inGrace, late] } },
      select: { participantId: true, rawAnswer: true, canonicalAnswer: true, exact: true, partial: true, late: true },
    });
    expect(stored.find((r) => r.participantId === inGrace)).toMatchObject({
      canonicalAnswer: "move x 1",
      exact: 1,
      partial: 1,
      late: false,
    });
    // Not lost (text and canonical form kept), not counted as in time.
    expect(stored.find((r) => r.participantId === late)).toMatchObject({
      rawAnswer: "move x 1",
      canonicalAnswer: "move x 1",
      exact: 0,
      partial: 0,
      late: true,
    });
  });

  it("never marks an answer late in a study without a time limit", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1 } });
    const pid = await joinAndConsent(study.slug, "clock-untimed");
    const current = (await getParticipantSession(pid))!.current!;
    await markQuestionShown(pid, current.assignmentId);
    await db.assignment.update({
      where: { id: current.assignmentId },
      data: { questionShownAt: new Date(Date.now() - 3_600_000) },
    });
    await recordResponse({
      participantId: pid,
      assignmentId: current.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: `ans-${pid}`,
    });
    expect(
      await db.response.findUniqueOrThrow({
        where: { assignmentId: current.assignmentId },
        select: { exact: true, late: true },
      }),
    ).toEqual({ exact: 1, late: false });
  });

  it("untimed: no /shown call; the answer places the display within the time since the question was served", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 4 } });
    // Each case twice: read first, and as the answer route calls it (stored by the write alone, record-response.ts).
    const answers: Array<{ pid: string; rtClientMs: number | null; route: boolean }> = [];
    for (const route of [false, true]) {
      // Served 10 min ago (instructions, a break), the question itself on screen for 4 s: the server's time is 4 s.
      answers.push({ pid: await joinAndConsent(study.slug, `fold-a-${route}`), rtClientMs: 4_000, route });
      // A client claiming longer than the question has been served is held to the server's bound.
      answers.push({ pid: await joinAndConsent(study.slug, `fold-b-${route}`), rtClientMs: 3_600_000, route });
    }
    const servedAt = new Date(Date.now() - 600_000);
    for (const { pid, rtClientMs, route } of answers) {
      const current = (await getParticipantSession(pid))!.current!;
      await db.assignment.update({ where: { id: current.assignmentId }, data: { firstShownAt: servedAt } });
      await recordResponse({
        participantId: pid,
        assignmentId: current.assignmentId,
        ...(route ? { studyId: study.id, itemId: current.item.id } : {}),
        rawAnswer: "move x 1",
        idempotencyKey: `fold-${pid}`,
        rtClientMs,
      });
    }
    const stored = await Promise.all(
      answers.map(({ pid }) =>
        db.response.findFirstOrThrow({
          where: { participantId: pid },
          select: { shownAt: true, submittedAt: true, rtServerMs: true },
        }),
      ),
    );
    for (const [a, b] of [stored.slice(0, 2), stored.slice(2)]) {
      expect(a!.rtServerMs).toBe(4_000);
      expect(a!.submittedAt.getTime() - a!.shownAt!.getTime()).toBe(4_000);
      expect(b!.shownAt).toEqual(servedAt);
      expect(b!.rtServerMs).toBe(b!.submittedAt.getTime() - servedAt.getTime());
    }
  });

  it("timed: the answer's client time never moves the server's stamp", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 600 } });
    const pid = await joinAndConsent(study.slug, "fold-timed");
    const current = (await getParticipantSession(pid))!.current!;
    await markQuestionShown(pid, current.assignmentId);
    const shownAt = new Date(Date.now() - 60_000);
    await db.assignment.update({ where: { id: current.assignmentId }, data: { questionShownAt: shownAt } });
    await recordResponse({
      participantId: pid,
      assignmentId: current.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: `fold-${pid}`,
      rtClientMs: 4_000,
    });
    const response = await db.response.findFirstOrThrow({ where: { participantId: pid } });
    expect(response.shownAt).toEqual(shownAt);
    expect(response.rtServerMs).toBeGreaterThanOrEqual(60_000);
  });

  it("only the participant's own open question can be stamped", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, timeLimitSec: 30 } });
    const a = await joinAndConsent(study.slug, "clock-a");
    const b = await joinAndConsent(study.slug, "clock-b");
    const qa = (await getParticipantSession(a))!.current!;
    await expect(markQuestionShown(b, qa.assignmentId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await recordResponse({
      participantId: a,
      assignmentId: qa.assignmentId,
      rawAnswer: "move x 3",
      idempotencyKey: `ans-${a}`,
    });
    // Answered (and with it the session completed): nothing left to time.
    await expect(markQuestionShown(a, qa.assignmentId)).rejects.toMatchObject({
      code: expect.stringMatching(/^(CONFLICT|GONE)$/),
    });
  });
});
