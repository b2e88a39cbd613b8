// Integrity signals through the answer route as a browser sends them: stored once per answered question, a retried
// submit writes nothing new, a tampered body is refused with the field named; the results and exports read them.
import { afterAll, describe, expect, it } from "vitest";

/** The participant cookie the next request carries, as the browser would send it. */
const cookie = { value: "" };

const { db, disconnectDb } = await import("@/lib/server/db");
const { POST: answer } = await import("@/app/api/participant/answer/route");
const { createParticipantToken, PARTICIPANT_COOKIE } = await import("@/lib/server/participant-flow/token");
const { recordConsent } = await import("@/lib/server/participant-flow/record-consent");
const { getParticipantSession } = await import("@/lib/server/participant-flow/get-session");
const { getIntegrityResults } = await import("@/lib/server/dal/results/get-integrity");
const { iterateParticipantRows } = await import("@/lib/server/export/iterate-participant-rows");
const { iterateResponseRows } = await import("@/lib/server/export/iterate-response-rows");
const { PARTICIPANTS_TABLE } = await import("@/lib/export/summary-tables");
const { RESPONSES_TABLE } = await import("@/lib/export/response-table");
const { toCsvRecord, listHeader } = await import("@/lib/export/columns");
const { createTranslationStudy, joinStudy, TEST_DEVICE } = await import("../helpers/study-fixtures");

afterAll(async () => {
  await disconnectDb();
});

const device = { viewportWidth: 1366, viewportHeight: 768, devicePixelRatio: 1.5, pointer: "fine", touch: false };
const signals = {
  hiddenMs: 12_345,
  hiddenCount: 2,
  blurCount: 3,
  blurMs: 14_000,
  pasteCount: 1,
  pasteChars: 8,
  copyCount: 1,
  copyChars: 40,
  reloads: 0,
  webdriver: false,
  device,
};

async function post(
  body: unknown,
): Promise<{ status: number; json: { error?: { details?: Array<{ path: string }> } } }> {
  const res = await answer(
    new Request("http://localhost/api/participant/answer", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `${PARTICIPANT_COOKIE}=${cookie.value}` },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, json: await res.json() };
}

async function started(slug: string, studyId: string, pid: string) {
  const participantId = await joinStudy(slug, pid);
  await recordConsent(participantId, true, TEST_DEVICE);
  cookie.value = createParticipantToken(participantId, studyId);
  return participantId;
}

describe("integrity signals on the answer route", () => {
  it("are stored with the answer, once: a retried submit with other values changes nothing", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, answersPerItem: 5 } });
    const pid = await started(study.slug, study.id, "signals-once");
    const q = (await getParticipantSession(pid))!.current!;
    const body = {
      assignmentId: q.assignmentId,
      answer: "move x 3",
      idempotencyKey: `sig-${pid}-1`,
      rtClientMs: 60_000,
      signals,
    };
    expect((await post(body)).status).toBe(200);
    // The retry of the same submit (a reload resends the kept body): a duplicate, and the first signals stay.
    expect((await post({ ...body, signals: { ...signals, hiddenMs: 1, webdriver: true } })).status).toBe(200);
    const stored = await db.answerSignals.findMany({ where: { participantId: pid } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ assignmentId: q.assignmentId, studyId: study.id, signals });
    const participant = await db.participantSignals.findUniqueOrThrow({ where: { participantId: pid } });
    expect(participant).toMatchObject({ studyId: study.id, device, webdriver: false });

    // The second answer reports automation: the participant's flag is the OR of their answers; the device stays the first.
    const q2 = (await getParticipantSession(pid))!.current!;
    const second = {
      ...signals,
      webdriver: true,
      pasteCount: 0,
      pasteChars: 0,
      device: { ...device, viewportWidth: 800 },
    };
    expect(
      (
        await post({
          assignmentId: q2.assignmentId,
          answer: "move x 3",
          idempotencyKey: `sig-${pid}-2`,
          signals: second,
        })
      ).status,
    ).toBe(200);
    await expect(db.participantSignals.findUniqueOrThrow({ where: { participantId: pid } })).resolves.toMatchObject({
      device,
      webdriver: true,
    });
  });

  it("the participant's row is written once and again only when automation is first reported, not on every answer", async () => {
    const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 5 } });
    const pid = await started(study.slug, study.id, "signals-row-writes");
    // xmin: the transaction that wrote the row's current version; an update (even to the same values) changes it.
    const version = async () =>
      (
        await db.$queryRaw<Array<{ v: string; webdriver: boolean }>>`
          SELECT xmin::text AS v, webdriver FROM "ParticipantSignals" WHERE "participantId" = ${pid}`
      )[0]!;
    const answerCurrent = async (n: number, sent: typeof signals) => {
      const q = (await getParticipantSession(pid))!.current!;
      const body = {
        assignmentId: q.assignmentId,
        answer: "move x 3",
        idempotencyKey: `rw-${pid}-${n}`,
        signals: sent,
      };
      expect((await post(body)).status).toBe(200);
    };
    await answerCurrent(1, signals);
    const first = await version();
    expect(first.webdriver).toBe(false);
    await answerCurrent(2, signals);
    // Nothing to change: the row keeps its version (fails if every answer rewrites it).
    expect(await version()).toEqual(first);
    await answerCurrent(3, { ...signals, webdriver: true });
    const flagged = await version();
    expect(flagged.webdriver).toBe(true);
    expect(flagged.v).not.toBe(first.v);
  });

  it("hidden and unfocused time are capped at the time the question was open (plus slack)", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const pid = await started(study.slug, study.id, "signals-cap");
    const q = (await getParticipantSession(pid))!.current!;
    const claimed = { ...signals, hiddenMs: 86_400_000, blurMs: 86_400_000 };
    expect(
      (
        await post({
          assignmentId: q.assignmentId,
          answer: "move x 3",
          idempotencyKey: `cap-${pid}`,
          rtClientMs: 5000,
          signals: claimed,
        })
      ).status,
    ).toBe(200);
    const stored = await db.answerSignals.findUniqueOrThrow({ where: { assignmentId: q.assignmentId } });
    const response = await db.response.findFirstOrThrow({ where: { assignmentId: q.assignmentId } });
    // The cap: the longer of the client's 5 s and the server's shown-to-stored time, plus 5 s.
    const cap = Math.max(5000, response.rtServerMs ?? 0) + 5000;
    expect(stored.signals).toMatchObject({
      hiddenMs: cap,
      blurMs: cap,
      hiddenCount: signals.hiddenCount,
      pasteCount: 1,
    });
  });

  it("an answer without signals is stored as before (no signals row)", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const pid = await started(study.slug, study.id, "signals-none");
    const q = (await getParticipantSession(pid))!.current!;
    expect(
      (await post({ assignmentId: q.assignmentId, answer: "move x 3", idempotencyKey: `none-${pid}` })).status,
    ).toBe(200);
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(1);
    await expect(db.answerSignals.count({ where: { participantId: pid } })).resolves.toBe(0);
  });

  it("a replay stores the signals its first attempt lacked, capped by the stored response's times", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const pid = await started(study.slug, study.id, "signals-replay");
    const q = (await getParticipantSession(pid))!.current!;
    const body = {
      assignmentId: q.assignmentId,
      answer: "move x 3",
      idempotencyKey: `replay-${pid}`,
      rtClientMs: 4000,
    };
    expect((await post(body)).status).toBe(200);
    await expect(db.answerSignals.count({ where: { participantId: pid } })).resolves.toBe(0);
    const replay = await post({ ...body, signals: { ...signals, hiddenMs: 86_400_000 } });
    expect(replay.status).toBe(200);
    expect((replay.json as { result?: { status?: string } }).result?.status).toBe("duplicate");
    const response = await db.response.findFirstOrThrow({ where: { assignmentId: q.assignmentId } });
    const stored = await db.answerSignals.findUniqueOrThrow({ where: { assignmentId: q.assignmentId } });
    expect(stored.signals).toMatchObject({
      hiddenMs: Math.max(4000, response.rtServerMs ?? 0) + 5000,
      pasteCount: signals.pasteCount,
    });
    await expect(db.participantSignals.findUniqueOrThrow({ where: { participantId: pid } })).resolves.toMatchObject({
      device,
      webdriver: false,
    });
  });

  it("tampered signals are refused (422) with the field named, and nothing is stored", async () => {
    const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 5 } });
    const pid = await started(study.slug, study.id, "signals-tampered");
    const q = (await getParticipantSession(pid))!.current!;
    const base = { assignmentId: q.assignmentId, answer: "move x 3", idempotencyKey: `bad-${pid}` };
    const cases: Array<[unknown, string]> = [
      [{ ...signals, hiddenMs: -5 }, "signals.hiddenMs"],
      [{ ...signals, pasteCount: 1e9 }, "signals.pasteCount"],
      [{ ...signals, pastedText: "the answer" }, "signals"],
      [{ ...signals, webdriver: "no" }, "signals.webdriver"],
      [{ ...signals, device: { ...device, pointer: "pen" } }, "signals.device.pointer"],
    ];
    for (const [bad, path] of cases) {
      const res = await post({ ...base, signals: bad });
      expect(res.status, path).toBe(422);
      expect(
        res.json.error?.details?.map((d) => d.path),
        path,
      ).toContain(path);
    }
    // A field the answer body does not have at all (a client claiming its own score) is refused with its name.
    const claimed = await post({ ...base, isCorrect: true, score: 1 });
    expect(claimed.status).toBe(422);
    expect(JSON.stringify(claimed.json)).toContain("isCorrect");
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
    await expect(db.answerSignals.count({ where: { participantId: pid } })).resolves.toBe(0);
  });

  it("the results apply the study's policy and the exports carry the signals", async () => {
    const { study } = await createTranslationStudy({
      itemCount: 3,
      config: { itemsPerTask: 3, answersPerItem: 5, exclusions: { anyPaste: true, identicalRunAtLeast: 3 } },
    });
    // The fixture's golds are move x 1, move y 2, move x 3: the paster answers "move x 3" three times (1 right), the
    // clean participant answers each gold (3 right). All: 4/6; after excluding the paster: 3/3.
    const paster = await started(study.slug, study.id, "policy-paster");
    for (let i = 0; i < 3; i++) {
      const q = (await getParticipantSession(paster))!.current!;
      const s = i === 0 ? signals : { ...signals, pasteCount: 0, pasteChars: 0 };
      expect(
        (
          await post({
            assignmentId: q.assignmentId,
            answer: "move x 3",
            idempotencyKey: `p-${paster}-${i}`,
            rtClientMs: 60_000,
            signals: s,
          })
        ).status,
      ).toBe(200);
    }
    const clean = await started(study.slug, study.id, "policy-clean");
    for (let i = 0; i < 3; i++) {
      const q = (await getParticipantSession(clean))!.current!;
      const gold = (await db.answerKey.findUniqueOrThrow({ where: { itemId: q.item.id } })).canonical;
      expect(
        (
          await post({
            assignmentId: q.assignmentId,
            answer: gold,
            idempotencyKey: `c-${clean}-${i}`,
            rtClientMs: 60_000,
            signals: { ...signals, pasteCount: 0, pasteChars: 0 },
          })
        ).status,
      ).toBe(200);
    }
    const r = await getIntegrityResults({ studyId: study.id });
    expect(r.rules.map((x) => [x.rule, x.nMatched, x.nOnlyThisRule])).toEqual([
      ["anyPaste", 1, 0],
      ["identicalRunAtLeast", 1, 0],
    ]);
    expect(r.nExcluded).toBe(1);
    expect(r.all).toMatchObject({ nParticipants: 2, nResponses: 6, exact: 4 / 6 });
    expect(r.kept).toMatchObject({ nParticipants: 1, nResponses: 3, exact: 1 });

    const participants: Record<string, string>[] = [];
    for await (const row of iterateParticipantRows([study.id])) {
      participants.push(
        Object.fromEntries(listHeader(PARTICIPANTS_TABLE).map((k, i) => [k, toCsvRecord(PARTICIPANTS_TABLE, row)[i]!])),
      );
    }
    const p = participants.find((x) => x.participant_id === paster)!;
    expect(p).toMatchObject({
      sig_paste_count_total: "1",
      sig_paste_chars_total: "8",
      max_identical_run: "3",
      sig_viewport_width: "1366",
      sig_webdriver: "0",
      excluded_by: "anyPaste | identicalRunAtLeast",
    });
    expect(p.sig_hidden_ms_total).toBe(String(3 * 12_345));
    expect(participants.find((x) => x.participant_id === clean)).toMatchObject({
      excluded_by: "",
      max_identical_run: "1",
    });

    const responses: Record<string, string>[] = [];
    for await (const row of iterateResponseRows([study.id])) {
      responses.push(
        Object.fromEntries(listHeader(RESPONSES_TABLE).map((k, i) => [k, toCsvRecord(RESPONSES_TABLE, row)[i]!])),
      );
    }
    const mine = responses.filter((x) => x.participant_id === paster);
    expect(mine.map((x) => x.identical_run)).toEqual(["1", "2", "3"]);
    expect(mine.map((x) => x.sig_paste_count)).toEqual(["1", "0", "0"]);
    expect(mine[0]).toMatchObject({
      sig_hidden_ms: "12345",
      sig_focus_losses: "3",
      sig_pointer: "fine",
      sig_device_pixel_ratio: "1.5",
      time_floor_ms: "3000",
    });
    // Answered within milliseconds of being shown: under the 3 s floor of T1.
    expect(mine.every((x) => x.under_time_floor === "1")).toBe(true);
  });
});
