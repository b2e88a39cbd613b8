import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { acceptConsent, recordConsent } from "@/lib/server/participant-flow/record-consent";
import { recordPrimerSeen, screenOutForDevice } from "@/lib/server/participant-flow/device-and-primer";
import { createTranslationStudy, TEST_DEVICE } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

const PHONE = {
  viewportWidth: 390,
  viewportHeight: 844,
  screenWidth: 390,
  screenHeight: 844,
  devicePixelRatio: 3,
  userAgent: "phone",
  pointer: "coarse" as const,
};

async function join(slug: string, pid: string) {
  const entered = await enterStudy({ slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  return entered.participantId;
}

describe("device rule at consent", () => {
  it("a phone consenting to a desktop-only study is screened out with the device recorded and nothing reserved", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 3,
      config: { itemsPerTask: 2, deviceRule: "desktop", prolific: { returnUrl: "https://example.org/return" } },
    });
    const pid = await join(study.slug, "device-phone");
    const before = (await getParticipantSession(pid))!;
    expect(before.study.deviceRule).toBe("desktop");
    const { admitted, result } = await acceptConsent(pid, study.id, "203.0.113.77", PHONE);
    expect(admitted.ok).toBe(true);
    expect(result).toBeNull();
    const p = await db.participant.findUniqueOrThrow({
      where: { id: pid },
      select: { status: true, deviceInfo: true, flags: true, consentAt: true },
    });
    expect(p).toMatchObject({
      status: "screened_out",
      deviceInfo: PHONE,
      flags: { screenOutReason: "device" },
      consentAt: null,
    });
    expect(await db.assignment.count({ where: { participantId: pid } })).toBe(0);
    const session = (await getParticipantSession(pid))!;
    expect(session.screenedOut).toEqual({
      message: expect.stringMatching(/desktop or laptop/),
      returnUrl: "https://example.org/return",
    });
    expect(session.current).toBeNull();
  });

  it("a desktop is admitted; a translation-only study on 'auto' takes phones; a started participant is never screened out afterwards", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 3,
      config: { itemsPerTask: 2, deviceRule: "desktop" },
    });
    const desk = await join(study.slug, "device-desk");
    await expect(acceptConsent(desk, study.id, "203.0.113.78", TEST_DEVICE)).resolves.toMatchObject({
      result: { mainAssigned: 2 },
    });
    await screenOutForDevice(desk, PHONE);
    expect((await db.participant.findUniqueOrThrow({ where: { id: desk } })).status).toBe("active");

    const { study: auto } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 2 } });
    const phone = await join(auto.slug, "device-auto-phone");
    expect((await getParticipantSession(phone))!.study.deviceRule).toBe("any");
    await expect(acceptConsent(phone, auto.id, "203.0.113.79", PHONE)).resolves.toMatchObject({
      result: { mainAssigned: 2 },
    });
  });

  it("an attention screen-out keeps its own message", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1 } });
    const pid = await join(study.slug, "device-attention");
    await recordConsent(pid, true, TEST_DEVICE);
    await db.participant.update({
      where: { id: pid },
      data: { status: "screened_out", flags: { attentionFailures: 2 } },
    });
    expect((await getParticipantSession(pid))!.screenedOut?.message).toMatch(/attention checks/);
  });
});

describe("H-bond primer", () => {
  it("is recorded once in the participant's flags, next to the flags already there, and the session says so", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 1, hbondPrimer: true } });
    const pid = await join(study.slug, "primer-seen");
    await recordConsent(pid, true, TEST_DEVICE);
    expect((await getParticipantSession(pid))!.hbondPrimerSeen).toBe(false);
    await recordPrimerSeen(pid);
    const first = (await db.participant.findUniqueOrThrow({ where: { id: pid } })).flags as Record<string, unknown>;
    expect(first).toMatchObject({ hbondPrimer: true, hbondPrimerSeenAt: expect.any(String) });
    await recordPrimerSeen(pid);
    expect((await db.participant.findUniqueOrThrow({ where: { id: pid } })).flags).toEqual(first);
    expect((await getParticipantSession(pid))!.hbondPrimerSeen).toBe(true);
  });
});
