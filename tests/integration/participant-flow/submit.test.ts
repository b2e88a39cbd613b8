// The answer submit: server-side scoring, stored before advancing, idempotent replay, time limits, odd input, its
// round trips, and connections terminated under load.
import pg from "pg";
import { afterAll, beforeAll, inject, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/server/db";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import {
  recordResponse as recordResponseAsCalled,
  submitAnswer as submitAnswerAsCalled,
  type RecordResponseOptions,
} from "@/lib/server/participant-flow/record-response";
import { createTranslationItem, createTranslationStudy, makeCurrentQuestion } from "../../helpers/study-fixtures";
import { DEVICE, join, started } from "./helpers";

afterAll(async () => {
  await disconnectDb();
});

/**
 * Every test runs twice: with the options the answer route passes (the token's study and the item the browser names:
 * an answer is then graded from what the process keeps and stored by the write alone, submitDirect), and without them
 * (the read-first path, which the direct one falls back to).
 */
let asTheRouteCalls = false;
async function routeOptions<T extends RecordResponseOptions>(options: T): Promise<T> {
  // Given by the caller (as the route has them, from the token and the request, without the database): kept.
  if (!asTheRouteCalls || options.itemId !== undefined) return options;
  const a = await db.assignment.findUnique({
    where: { id: options.assignmentId },
    select: { itemId: true, participant: { select: { studyId: true } } },
  });
  return { ...options, studyId: a?.participant.studyId ?? "no-such-study", itemId: a?.itemId };
}
const recordResponse = async (options: RecordResponseOptions) => recordResponseAsCalled(await routeOptions(options));
const submitAnswer = async (options: RecordResponseOptions) => submitAnswerAsCalled(await routeOptions(options));

describe.each([
  { path: "as the answer route calls it", direct: true },
  { path: "read first", direct: false },
])("$path", ({ direct }) => {
  beforeAll(() => {
    asTheRouteCalls = direct;
  });

  describe("answers", () => {
    async function startedParticipant(config = {}) {
      const setup = await createTranslationStudy({
        itemCount: 3,
        config: { itemsPerTask: 3, answersPerItem: 3, ...config },
      });
      const pid = await join(setup.study.slug, `ans-${Math.random().toString(36).slice(2)}`);
      await recordConsent(pid, true, DEVICE);
      return { ...setup, pid };
    }

    it("scores on the server, stores before advancing, and resumes at the first unanswered item", async () => {
      const { pid } = await startedParticipant();
      const s1 = await getParticipantSession(pid);
      const first = s1!.current!;
      const gold = await db.answerKey.findUniqueOrThrow({ where: { itemId: first.item.id } });
      const result = await recordResponse({
        participantId: pid,
        assignmentId: first.assignmentId,
        rawAnswer: `  MOVE ${gold.canonical.split(" ")[1]!.toUpperCase()} +${gold.canonical.split(" ")[2]} `,
        idempotencyKey: `key-${pid}-1`,
        rtClientMs: 1234,
      });
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
      const options = {
        participantId: pid,
        assignmentId: current.assignmentId,
        rawAnswer: "move y -2",
        idempotencyKey: `dup-${pid}`,
      };
      const results = await Promise.all([recordResponse(options), recordResponse(options), recordResponse(options)]);
      expect(results.map((r) => r.status).sort()).toEqual(["duplicate", "duplicate", "stored"]);
      await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(1);
      await expect(recordResponse(options)).resolves.toMatchObject({ status: "duplicate" });
      // A different key for the same question is refused rather than overwriting the stored answer.
      await expect(recordResponse({ ...options, idempotencyKey: `other-${pid}` })).rejects.toMatchObject({
        code: "CONFLICT",
      });
    });

    it("invalid answers get the grammar's message and store nothing; tampered requests are refused", async () => {
      const { pid } = await startedParticipant();
      const current = (await getParticipantSession(pid))!.current!;
      await expect(
        recordResponse({
          participantId: pid,
          assignmentId: current.assignmentId,
          rawAnswer: "move w 3",
          idempotencyKey: `bad-${pid}`,
        }),
      ).rejects.toMatchObject({
        code: "UNPROCESSABLE",
        message: expect.stringMatching(/axis/),
      });
      await expect(
        recordResponse({
          participantId: pid,
          assignmentId: current.assignmentId,
          rawAnswer: "move x 9",
          idempotencyKey: `bad2-${pid}`,
        }),
      ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
      const other = await startedParticipant();
      const theirs = (await getParticipantSession(other.pid))!.current!;
      await expect(
        recordResponse({
          participantId: pid,
          assignmentId: theirs.assignmentId,
          rawAnswer: "move x 1",
          idempotencyKey: `steal-${pid}`,
        }),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
    });

    it("completes after the last answer; practice gives feedback and is kept out of counters", async () => {
      const practiceItem = await createTranslationItem("practice", { axis: "y", distanceA: -1 });
      const { pid, study } = await startedParticipant({ itemsPerTask: 2, practiceItemIds: [practiceItem.id] });
      const s = await getParticipantSession(pid);
      expect(s!.current!.phase).toBe("practice");
      const practice = await recordResponse({
        participantId: pid,
        assignmentId: s!.current!.assignmentId,
        rawAnswer: "move y 1",
        idempotencyKey: `p-${pid}`,
      });
      expect(practice.practiceFeedback).toEqual({ correct: false, correctAnswer: "move y -1" });
      let session = await getParticipantSession(pid);
      let n = 0;
      while (session!.current) {
        const r = await recordResponse({
          participantId: pid,
          assignmentId: session!.current.assignmentId,
          rawAnswer: "move x 1",
          idempotencyKey: `m-${pid}-${n++}`,
        });
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
      const { pid } = await startedParticipant({
        itemsPerTask: 3,
        attentionItemIds: [check.id],
        attentionPolicy: "screen_out",
        attentionMaxFailures: 0,
      });
      const assignment = await db.assignment.findFirstOrThrow({ where: { participantId: pid, phase: "attention" } });
      await makeCurrentQuestion(assignment.id);
      const r = await recordResponse({
        participantId: pid,
        assignmentId: assignment.id,
        rawAnswer: "move y 1",
        idempotencyKey: `att-${pid}`,
      });
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

  describe("idempotent replay is decided on the stored response", () => {
    it("duplicate submits in flight at once all succeed with the stored result, also on the last question (session ends)", async () => {
      // The retry of a submit can arrive while the first is still being written. It must replay the stored answer,
      // never answer 409 "already answered" or 410 "session has ended" because the first one just completed the session.
      const practice = await createTranslationItem("replay-practice", { axis: "y", distanceA: -1 });
      const { study } = await createTranslationStudy({
        itemCount: 2,
        config: { itemsPerTask: 2, answersPerItem: 50, practiceItemIds: [practice.id] },
      });
      const failures: string[] = [];
      for (let round = 0; round < 8; round++) {
        const pid = await started(study.slug, `replay-${round}`);
        let session = await getParticipantSession(pid);
        let q = 0;
        while (session!.current) {
          const current = session!.current;
          const options = {
            participantId: pid,
            assignmentId: current.assignmentId,
            rawAnswer: "move y 1",
            idempotencyKey: `replay-${pid}-${q++}`,
          };
          // Staggered copies: some start before the first commits, some after.
          const outcomes = await Promise.allSettled(
            Array.from({ length: 24 }, (_, i) => i * 1.5).map((delay) =>
              new Promise((r) => setTimeout(r, delay)).then(() => recordResponse(options)),
            ),
          );
          for (const o of outcomes)
            if (o.status === "rejected") failures.push(`${current.phase}: ${(o.reason as Error).message}`);
          const ok = outcomes.filter((o) => o.status === "fulfilled").map((o) => o.value);
          expect(ok.filter((r) => r.status === "stored").length).toBeLessThanOrEqual(1);
          if (current.phase === "practice")
            for (const r of ok) expect(r.practiceFeedback).toEqual({ correct: false, correctAnswer: "move y -1" });
          await expect(db.response.count({ where: { assignmentId: current.assignmentId } })).resolves.toBe(1);
          session = await getParticipantSession(pid);
        }
        expect(session!.participant.status).toBe("completed");
      }
      expect(failures).toEqual([]);
    }, 120_000);

    it("a replay after the session ended returns the stored result and the end screen", async () => {
      const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, answersPerItem: 5 } });
      const pid = await started(study.slug, "replay-after-end");
      const current = (await getParticipantSession(pid))!.current!;
      const options = {
        participantId: pid,
        assignmentId: current.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `end-${pid}`,
      };
      const first = await submitAnswer(options);
      expect(first.result).toMatchObject({ status: "stored", ended: "completed" });
      expect(first.update).toMatchObject({
        current: null,
        completion: { code: null },
        progress: { answered: 1, total: 1 },
      });
      const again = await submitAnswer(options);
      expect(again.result).toMatchObject({ status: "duplicate", ended: "completed" });
      expect(again.update).toMatchObject({ current: null, completion: { code: null } });
      // The same key for another question, or another key for this one, is refused.
      await expect(recordResponse({ ...options, idempotencyKey: `other-${pid}` })).rejects.toMatchObject({
        code: "CONFLICT",
      });
    });

    it("the answer's response carries the next question, and the next question is what a reload shows", async () => {
      const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 5 } });
      const pid = await started(study.slug, "next-question");
      const first = (await getParticipantSession(pid))!.current!;
      const out = await submitAnswer({
        participantId: pid,
        assignmentId: first.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `nq-${pid}`,
      });
      const reload = await getParticipantSession(pid);
      // Except `taskAnswered`: the session read's alone (the browser that answered has read the task's instructions).
      expect(reload!.current!.taskAnswered).toBe(true);
      expect({ ...out.update.current, taskAnswered: true }).toEqual(reload!.current);
      expect(out.update.progress).toEqual(reload!.progress);
      expect(out.update.current!.item.images.length).toBe(1);
      // Marked shown by the answer that revealed it (server-side response time of the next question).
      await expect(
        db.assignment.findUniqueOrThrow({ where: { id: out.update.current!.assignmentId } }),
      ).resolves.toMatchObject({ firstShownAt: expect.any(Date) });
    });
  });

  describe("the answer's response", () => {
    it("the answer's response names the images of the question after the next one", async () => {
      const { study } = await createTranslationStudy({ itemCount: 4, config: { itemsPerTask: 3 } });
      const pid = await join(study.slug, "ux-prefetch-answer");
      await recordConsent(pid, true, DEVICE);
      const first = (await getParticipantSession(pid))!;
      const assignments = await db.assignment.findMany({
        where: { participantId: pid },
        orderBy: { position: "asc" },
        select: { itemId: true },
      });
      const thirdImages = await db.itemImage.findMany({
        where: { itemId: assignments[2]!.itemId },
        orderBy: { position: "asc" },
        select: { id: true },
      });
      const out = await submitAnswer({
        participantId: pid,
        assignmentId: first.current!.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `ux-prefetch-answer-${pid}`,
        rtClientMs: 900,
      });
      expect(out.update.current!.item.images.map((i) => i.id)).toEqual(first.upcomingImageIds);
      expect(out.update.upcomingImageIds).toEqual(thirdImages.map((i) => i.id));
      // A replay of the same submit reads the same update.
      const replay = await submitAnswer({
        participantId: pid,
        assignmentId: first.current!.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `ux-prefetch-answer-${pid}`,
        rtClientMs: 900,
      });
      expect(replay.update.upcomingImageIds).toEqual(thirdImages.map((i) => i.id));
    });
  });

  describe("database round trips of an answer", () => {
    it("an answer takes at most 5 round trips; as the route calls it, 2 for an item new to the process, then 1", async () => {
      const { study } = await createTranslationStudy({ itemCount: 3, config: { itemsPerTask: 3, answersPerItem: 5 } });
      /** Round trips of one submit, its options made before counting (as the route has them). */
      async function roundTrips(pid: string, assignmentId: string, key: string): Promise<number> {
        const options = await routeOptions({
          participantId: pid,
          assignmentId,
          rawAnswer: "move x 1",
          idempotencyKey: key,
        });
        const spy = vi.spyOn(pg.Client.prototype, "query");
        try {
          await submitAnswerAsCalled(options);
          return spy.mock.calls.length;
        } finally {
          spy.mockRestore();
        }
      }
      const trips: number[][] = [];
      for (const name of ["round-trips-a", "round-trips-b"]) {
        const pid = await started(study.slug, name);
        let current = (await getParticipantSession(pid))!.current;
        const own: number[] = [];
        for (let n = 0; current; n++) {
          own.push(await roundTrips(pid, current.assignmentId, `rt-${pid}-${n}`));
          if (n === 0) own.push(await roundTrips(pid, current.assignmentId, `rt-${pid}-${n}`)); // its replay
          current = (await getParticipantSession(pid))!.current;
        }
        trips.push(own);
      }
      console.log(
        `round trips (answer, its replay, the next answers), first participant ${trips[0]}, second ${trips[1]}`,
      );
      for (const n of trips.flat()) {
        expect(n).toBeGreaterThan(0); // the counter sees the driver's queries at all
        expect(n).toBeLessThanOrEqual(5);
      }
      // The second participant answers the same three items: known to the process by then.
      if (direct) expect([trips[0]![0], trips[1]![0], trips[1]![2], trips[1]![3]]).toEqual([2, 1, 1, 1]);
      else expect(trips[1]![0]).toBe(2);
    });
  });

  describe("time-limit submissions", () => {
    it("a timed-out submission is refused when the study has no time limit", async () => {
      const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1 } });
      const pid = await join(study.slug, "skipper");
      await recordConsent(pid, true, DEVICE);
      const current = (await getParticipantSession(pid))!.current!;
      await expect(
        recordResponse({
          participantId: pid,
          assignmentId: current.assignmentId,
          rawAnswer: "",
          idempotencyKey: `skip-${pid}`,
          timedOut: true,
        }),
      ).rejects.toMatchObject({
        code: "UNPROCESSABLE",
      });
      await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
    });

    it("a timed-out submission before the limit has run out on the server is refused; after it, stored with score 0", async () => {
      const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1, timeLimitSec: 30 } });
      const pid = await join(study.slug, "early-timeout");
      await recordConsent(pid, true, DEVICE);
      const current = (await getParticipantSession(pid))!.current!;
      const options = { participantId: pid, assignmentId: current.assignmentId, rawAnswer: "", timedOut: true };
      await expect(recordResponse({ ...options, idempotencyKey: `early-${pid}` })).rejects.toMatchObject({
        code: "UNPROCESSABLE",
      });
      // Shown 31 s ago on the server's clock: the limit has run out.
      await db.assignment.update({
        where: { id: current.assignmentId },
        data: { firstShownAt: new Date(Date.now() - 31_000) },
      });
      await expect(recordResponse({ ...options, idempotencyKey: `late-${pid}` })).resolves.toMatchObject({
        status: "stored",
      });
      await expect(
        db.response.findUniqueOrThrow({ where: { assignmentId: current.assignmentId } }),
      ).resolves.toMatchObject({ rawAnswer: "", exact: 0, partial: 0 });
    });
  });

  describe("odd answer input", () => {
    it("a NUL character in the answer or the interaction log is a clear 422, not a database error", async () => {
      const { study } = await createTranslationStudy({ itemCount: 1, config: { itemsPerTask: 1 } });
      const pid = await join(study.slug, "nul-bytes");
      await recordConsent(pid, true, DEVICE);
      const current = (await getParticipantSession(pid))!.current!;
      const base = { participantId: pid, assignmentId: current.assignmentId };
      await expect(
        recordResponse({ ...base, rawAnswer: "move x 1\u0000", idempotencyKey: `nul1-${pid}` }),
      ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
      await expect(
        recordResponse({
          ...base,
          rawAnswer: "move x 1",
          idempotencyKey: `nul2-${pid}`,
          interactionLog: { events: [{ t: 1, type: "key", detail: "a\u0000b" }] },
        }),
      ).rejects.toMatchObject({
        code: "UNPROCESSABLE",
      });
      await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(0);
      // The question is still open: a clean submit goes through.
      await expect(
        recordResponse({ ...base, rawAnswer: "move x 1", idempotencyKey: `nul3-${pid}` }),
      ).resolves.toMatchObject({ status: "stored" });
    });
  });

  describe("transient database faults", () => {
    it("terminating every connection of the app under load: no error reaches a participant, nothing lost or stored twice", async () => {
      const { study } = await createTranslationStudy({
        itemCount: 12,
        config: { itemsPerTask: 4, answersPerItem: 10 },
      });
      const admin = new pg.Client({ connectionString: inject("databaseUrl") });
      await admin.connect();
      let stop = false;
      let terminated = 0;
      const killer = (async () => {
        while (!stop) {
          const r = await admin.query(
            "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
          );
          terminated += r.rows[0].n as number;
          await new Promise((res) => setTimeout(res, 1000));
        }
      })();
      const errors: string[] = [];
      const acknowledged: string[] = [];
      try {
        await Promise.all(
          Array.from({ length: 10 }, async (_, i) => {
            try {
              const pid = await started(study.slug, `fault-${i}`);
              let session = await getParticipantSession(pid);
              let n = 0;
              while (session?.current && n < 10) {
                const key = `fault-${pid}-${n++}`;
                const out = await submitAnswer({
                  participantId: pid,
                  assignmentId: session.current.assignmentId,
                  rawAnswer: "move x 1",
                  idempotencyKey: key,
                  // Not looked up by this test's own query, which no retry covers, while connections are terminated.
                  ...(asTheRouteCalls ? { studyId: study.id, itemId: session.current.item.id } : {}),
                });
                acknowledged.push(key);
                session = out.update.current ? { ...session, ...out.update } : await getParticipantSession(pid);
              }
            } catch (err) {
              errors.push((err as Error).message.trim().split("\n").slice(-3).join(" | "));
            }
          }),
        );
      } finally {
        stop = true;
        await killer;
        await admin.end();
      }
      expect(terminated).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      const stored = await db.response.findMany({
        where: { studyId: study.id },
        select: { idempotencyKey: true, assignmentId: true },
      });
      expect(new Set(stored.map((s) => s.assignmentId)).size).toBe(stored.length);
      expect(stored.map((s) => s.idempotencyKey).sort()).toEqual([...acknowledged].sort());
      expect(acknowledged.length).toBe(40);
      await expect(db.participant.count({ where: { studyId: study.id, status: "completed" } })).resolves.toBe(10);
    });
  });
});

describe("an answer stored by its write alone: what it trusts is checked there", () => {
  beforeAll(() => {
    asTheRouteCalls = true;
  });

  /** Two items (gold `move x 1`, `move y 2`), both answered once already, so the process keeps them; a new participant. */
  async function knownItemsStudy() {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, answersPerItem: 5 } });
    const first = await started(study.slug, `known-${study.slug}`);
    for (let n = 0, c = (await getParticipantSession(first))!.current; c; n++) {
      await submitAnswer({
        participantId: first,
        assignmentId: c.assignmentId,
        rawAnswer: "move x 1",
        idempotencyKey: `known-${first}-${n}`,
      });
      c = (await getParticipantSession(first))!.current;
    }
    const pid = await started(study.slug, `direct-${study.slug}`);
    const [current, later] = await db.assignment.findMany({
      where: { participantId: pid },
      orderBy: { position: "asc" },
      select: { id: true, itemId: true },
    });
    const base = { participantId: pid, studyId: study.id, rtClientMs: 2000 };
    /** An answer as the route passes it: the token's study and the assignment's own item. */
    const answer = (a: { id: string; itemId: string }, rawAnswer: string, idempotencyKey: string) =>
      submitAnswerAsCalled({ ...base, assignmentId: a.id, itemId: a.itemId, rawAnswer, idempotencyKey });
    return { study, pid, current: current!, later: later!, base, answer };
  }

  it("a browser naming another item is graded by its assignment's own item", async () => {
    const { pid, current, later, base } = await knownItemsStudy();
    const laterGold = await db.answerKey.findUniqueOrThrow({ where: { itemId: later.itemId } });
    const ownGold = await db.answerKey.findUniqueOrThrow({ where: { itemId: current.itemId } });
    expect(laterGold.canonical).not.toBe(ownGold.canonical);
    // The other item's correct answer, with that item's id: right for the item named, wrong for the one asked.
    await submitAnswerAsCalled({
      ...base,
      assignmentId: current.id,
      itemId: later.itemId,
      rawAnswer: laterGold.canonical,
      idempotencyKey: `named-${pid}`,
    });
    await expect(db.response.findUniqueOrThrow({ where: { assignmentId: current.id } })).resolves.toMatchObject({
      itemId: current.itemId,
      canonicalAnswer: laterGold.canonical,
      exact: 0,
    });
  });

  it("only the current question is stored, and only the participant's own", async () => {
    const { pid, later, base, study, answer } = await knownItemsStudy();
    await expect(answer(later, "move y 2", `later-${pid}`)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This is not your current question.",
    });
    const other = await started(study.slug, `other-${study.slug}`);
    const theirs = (await getParticipantSession(other))!.current!;
    await expect(
      submitAnswerAsCalled({
        ...base,
        assignmentId: theirs.assignmentId,
        itemId: theirs.item.id,
        rawAnswer: "move y 2",
        idempotencyKey: `theirs-${pid}`,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(db.response.count({ where: { participantId: { in: [pid, other] } } })).resolves.toBe(0);
  });

  it("an answer key corrected in place is graded by the database's key, not the one kept", async () => {
    const { pid, current, answer } = await knownItemsStudy();
    const key = await db.answerKey.findUniqueOrThrow({ where: { itemId: current.itemId } });
    const changed = key.canonical === "move y 3" ? "move x 4" : "move y 3";
    const [axis, distance] = changed.split(" ").slice(1);
    await db.answerKey.update({
      where: { itemId: current.itemId },
      data: { gold: { axis, distanceA: Number(distance) }, canonical: changed },
    });
    await answer(current, changed, `changed-${pid}`);
    await expect(db.response.findUniqueOrThrow({ where: { assignmentId: current.id } })).resolves.toMatchObject({
      exact: 1,
    });
  });

  it("a study whose config changed is answered under the database's config (here: timed, so late)", async () => {
    const { pid, current, study, answer } = await knownItemsStudy();
    await db.$executeRaw`UPDATE "Study" SET config = jsonb_set(config, '{timeLimitSec}', '30') WHERE id = ${study.id}`;
    const shownAt = new Date(Date.now() - 120_000);
    await db.assignment.update({
      where: { id: current.id },
      data: { firstShownAt: shownAt, questionShownAt: shownAt },
    });
    const gold = await db.answerKey.findUniqueOrThrow({ where: { itemId: current.itemId } });
    await answer(current, gold.canonical, `config-${pid}`);
    await expect(db.response.findUniqueOrThrow({ where: { assignmentId: current.id } })).resolves.toMatchObject({
      late: true,
      exact: 0,
      shownAt,
    });
  });

  it("a session that ended, or a token's other study, stores nothing the read would refuse", async () => {
    const { pid, current, base } = await knownItemsStudy();
    const other = await knownItemsStudy(); // a second study the process knows, with its items
    // The token names a study the participant is not in: stored all the same, under the participant's own study.
    await submitAnswerAsCalled({
      ...base,
      studyId: other.study.id,
      assignmentId: current.id,
      itemId: current.itemId,
      rawAnswer: "move x 1",
      idempotencyKey: `study-${pid}`,
    });
    await expect(db.response.findUniqueOrThrow({ where: { assignmentId: current.id } })).resolves.toMatchObject({
      studyId: base.studyId,
    });
    await db.participant.update({ where: { id: other.pid }, data: { status: "screened_out" } });
    await expect(other.answer(other.current, "move x 1", `ended-${other.pid}`)).rejects.toMatchObject({ code: "GONE" });
    await expect(db.response.count({ where: { participantId: other.pid } })).resolves.toBe(0);
  });

  it("an answer without an item id (a page from before it was sent) or with an unknown one is stored and scored", async () => {
    const { pid, current, later, base } = await knownItemsStudy();
    const keys = await db.answerKey.findMany({ where: { itemId: { in: [current.itemId, later.itemId] } } });
    const canonicalOf = (itemId: string) => keys.find((k) => k.itemId === itemId)!.canonical;
    await submitAnswerAsCalled({
      ...base,
      assignmentId: current.id,
      rawAnswer: canonicalOf(current.itemId),
      idempotencyKey: `no-item-${pid}`,
    });
    await submitAnswerAsCalled({
      ...base,
      assignmentId: later.id,
      itemId: "no-such-item",
      rawAnswer: canonicalOf(later.itemId),
      idempotencyKey: `unknown-item-${pid}`,
    });
    const stored = await db.response.findMany({ where: { participantId: pid }, select: { itemId: true, exact: true } });
    expect(stored.sort((a, b) => a.itemId.localeCompare(b.itemId))).toEqual(
      [current.itemId, later.itemId].sort().map((itemId) => ({ itemId, exact: 1 })),
    );
  });

  it("a key used for another question, or a released question, is refused with the read's reason", async () => {
    const { pid, current, later, answer } = await knownItemsStudy();
    await answer(current, "move x 1", `reused-${pid}`);
    await expect(answer(later, "move x 1", `reused-${pid}`)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This submission key was already used for another question.",
    });
    await db.assignment.update({ where: { id: later.id }, data: { status: "abandoned" } });
    await expect(answer(later, "move x 1", `released-${pid}`)).rejects.toMatchObject({ code: "GONE" });
    await expect(db.response.count({ where: { participantId: pid } })).resolves.toBe(1);
  });

  it("a question with no shown time stores none, and no server time (not int's maximum)", async () => {
    const { pid, current, answer } = await knownItemsStudy();
    await db.assignment.update({ where: { id: current.id }, data: { firstShownAt: null, questionShownAt: null } });
    await answer(current, "move x 1", `unshown-${pid}`);
    await expect(db.response.findUniqueOrThrow({ where: { assignmentId: current.id } })).resolves.toMatchObject({
      shownAt: null,
      rtServerMs: null,
      rtClientMs: 2000,
    });
  });
});
