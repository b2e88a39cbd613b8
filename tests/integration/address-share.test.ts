// Reservations cannot be hoarded: one address holds at most a small share of a study's open slots at once, and a
// participant who does not answer within the first-answer window releases the reservation. Without this, 20 consents
// from one address could reserve every slot of a small study for the 60-minute assignment timeout.
import { afterAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.TRUSTED_PROXY_HOPS = "1";
});

const { db, disconnectDb } = await import("@/lib/server/db");
const { POST: consent } = await import("@/app/api/participant/consent/route");
const { createParticipantToken, PARTICIPANT_COOKIE } = await import("@/lib/server/participant-flow/token");
const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../helpers/study-fixtures");
const { reclaimExpiredAssignments } = await import("@/lib/server/participant-flow/assign-items");
const { recordResponse } = await import("@/lib/server/participant-flow/record-response");
const { getParticipantSession } = await import("@/lib/server/participant-flow/get-session");
const { FIRST_ANSWER_WINDOW_MIN } = await import("@/lib/participant/address-share");
const { acceptConsent } = await import("@/lib/server/participant-flow/record-consent");

afterAll(async () => {
  await disconnectDb();
});

/** A consent "accept" from `address` for participant `pid` of study `studyId`: the response status and body. */
async function accept(studyId: string, pid: string, address: string): Promise<{ status: number; body: string }> {
  const res = await consent(
    new Request("http://localhost/api/participant/consent", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": address,
        cookie: `${PARTICIPANT_COOKIE}=${createParticipantToken(pid, studyId)}`,
      },
      body: JSON.stringify({ accept: true, device: TEST_DEVICE }),
    }),
  );
  return { status: res.status, body: await res.text() };
}

describe("per-address share of a study's open slots", () => {
  it("20 consents from one address leave work for a participant from another", async () => {
    // 8 items × k = 5 = 40 slots, 4 per participant: one address may hold 20 % (8 slots, two participants).
    const { study } = await createTranslationStudy({ itemCount: 8, config: { itemsPerTask: 4, answersPerItem: 5 } });
    const hoarder = `198.51.100.${Math.floor(Math.random() * 250)}`;
    const results = [];
    for (let i = 0; i < 20; i++)
      results.push(await accept(study.id, await joinStudy(study.slug, `hoard-${i}`), hoarder));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(18);
    expect(refused[0]!.body).toMatch(/network address/);
    await expect(db.participant.count({ where: { studyId: study.id, status: "active" } })).resolves.toBe(2);

    const real = await joinStudy(study.slug, "real-participant");
    expect((await accept(study.id, real, "203.0.113.7")).status).toBe(200);
    await expect(db.assignment.count({ where: { participantId: real, phase: "main" } })).resolves.toBe(4);
    // An IPv6 hoarder counts as its /64: two addresses of one prefix share one allowance.
    const v6 = [];
    for (let i = 0; i < 4; i++)
      v6.push((await accept(study.id, await joinStudy(study.slug, `v6-${i}`), `2001:db8:77:1::${i + 1}`)).status);
    expect(v6).toEqual([200, 200, 429, 429]);
  });

  it("parallel consents from one address cannot all pass the check", async () => {
    const { study } = await createTranslationStudy({ itemCount: 8, config: { itemsPerTask: 4, answersPerItem: 5 } });
    const pids = [];
    for (let i = 0; i < 10; i++) pids.push(await joinStudy(study.slug, `par-${i}`));
    const address = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const statuses = await Promise.all(
      pids.map(
        async (pid) => (await acceptConsent(pid, study.id, address, TEST_DEVICE)).result?.notStarted ?? "started",
      ),
    );
    expect(statuses.filter((s) => s === "started")).toHaveLength(2);
    expect(statuses.filter((s) => s === "address_share")).toHaveLength(8);
  });
});

describe("first-answer window", () => {
  it("a participant who consents and does not answer releases the reservation after the window; answering renews it", async () => {
    const { study } = await createTranslationStudy({ itemCount: 4, config: { itemsPerTask: 2, answersPerItem: 1 } });
    const silent = await joinStudy(study.slug, "silent");
    const active = await joinStudy(study.slug, "active");
    expect((await accept(study.id, silent, "192.0.2.1")).status).toBe(200);
    expect((await accept(study.id, active, "192.0.2.2")).status).toBe(200);
    const session = await getParticipantSession(active);
    const first = session!.current!;
    await recordResponse({
      participantId: active,
      assignmentId: first.assignmentId,
      rawAnswer: "move x 1",
      idempotencyKey: `key-${active}-1`,
      rtClientMs: 1000,
    });

    const later = new Date(Date.now() + (FIRST_ANSWER_WINDOW_MIN + 1) * 60_000);
    const released = await reclaimExpiredAssignments(study.id, later);
    expect(released).toBe(2);
    await expect(db.assignment.count({ where: { participantId: silent, status: "abandoned" } })).resolves.toBe(2);
    await expect(db.assignment.count({ where: { participantId: active, status: "assigned" } })).resolves.toBe(1);
    // The silent participant's items are free again: a new participant gets work in a study that was full.
    const next = await joinStudy(study.slug, "next");
    expect((await accept(study.id, next, "192.0.2.3")).status).toBe(200);
    await expect(db.assignment.count({ where: { participantId: next, phase: "main" } })).resolves.toBe(2);
  });
});
