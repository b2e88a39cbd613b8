import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/dal/participant/enter-study";
import { getParticipantSession } from "@/lib/server/dal/participant/get-session";
import { recordConsent } from "@/lib/server/dal/participant/record-consent";
import { recordResponse, submitAnswer } from "@/lib/server/dal/scoring/record-response";
import { createTranslationStudy } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

const DEVICE = { viewportWidth: 1280, viewportHeight: 800, devicePixelRatio: 1, userAgent: "test", pointer: "fine" as const };

async function join(slug: string, pid: string) {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  return entered.participantId;
}

describe("participant session (UX data)", () => {
  it("names the next question's images (for prefetching) and none after the last question", async () => {
    const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 2 } });
    const pid = await join(study.slug, "ux-prefetch");
    await recordConsent(pid, true, DEVICE);
    const first = (await getParticipantSession(pid))!;
    const assignments = await db.assignment.findMany({ where: { participantId: pid }, orderBy: { position: "asc" }, select: { itemId: true } });
    const secondImages = await db.itemImage.findMany({ where: { itemId: assignments[1]!.itemId }, orderBy: { position: "asc" }, select: { id: true } });
    expect(secondImages.length).toBeGreaterThan(0);
    expect(first.upcomingImageIds).toEqual(secondImages.map((i) => i.id));
    // The upcoming images are the next question's, not the current one's.
    expect(first.upcomingImageIds).not.toEqual(first.current!.item.images.map((i) => i.id));

    await recordResponse({ participantId: pid, assignmentId: first.current!.assignmentId, rawAnswer: "move x 1", idempotencyKey: "ux-prefetch-1", rtClientMs: 1000 });
    const last = (await getParticipantSession(pid))!;
    expect(last.current!.item.images.map((i) => i.id)).toEqual(secondImages.map((i) => i.id));
    expect(last.upcomingImageIds).toEqual([]);
  });

  it("the answer's response names the images of the question after the next one", async () => {
    const { study } = await createTranslationStudy({ itemCount: 4, config: { itemsPerTask: 3 } });
    const pid = await join(study.slug, "ux-prefetch-answer");
    await recordConsent(pid, true, DEVICE);
    const first = (await getParticipantSession(pid))!;
    const assignments = await db.assignment.findMany({ where: { participantId: pid }, orderBy: { position: "asc" }, select: { itemId: true } });
    const thirdImages = await db.itemImage.findMany({ where: { itemId: assignments[2]!.itemId }, orderBy: { position: "asc" }, select: { id: true } });
    const out = await submitAnswer({ participantId: pid, assignmentId: first.current!.assignmentId, rawAnswer: "move x 1", idempotencyKey: "ux-prefetch-answer-1", rtClientMs: 900 });
    expect(out.update.current!.item.images.map((i) => i.id)).toEqual(first.upcomingImageIds);
    expect(out.update.upcomingImageIds).toEqual(thirdImages.map((i) => i.id));
    // A replay of the same submit reads the same update.
    const replay = await submitAnswer({ participantId: pid, assignmentId: first.current!.assignmentId, rawAnswer: "move x 1", idempotencyKey: "ux-prefetch-answer-1", rtClientMs: 900 });
    expect(replay.update.upcomingImageIds).toEqual(thirdImages.map((i) => i.id));
  });

  it("the consent text states a duration from the study's length, then the median of finished participants", async () => {
    const { study } = await createTranslationStudy({ itemCount: 20, config: { itemsPerTask: 2, consentText: "It takes about {duration}." } });
    const fresh = (await getParticipantSession(await join(study.slug, "ux-consent-0")))!;
    // One task × 2 items: 120 + 30 + 2 × 45..90 s = 240..330 s → 4–6 minutes.
    expect(fresh.study.consentText).toBe("It takes about 4–6 minutes.");

    const now = Date.now();
    for (let i = 1; i <= 5; i++) {
      const id = await join(study.slug, `ux-consent-${i}`);
      await db.participant.update({ where: { id }, data: { status: "completed", consentAt: new Date(now - i * 600_000), completedAt: new Date(now) } });
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
