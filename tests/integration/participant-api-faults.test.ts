// The participant routes under a dropped database connection: each is called as a server calls it (a web Request with
// the participant cookie, lib/server/participant-flow/routes/) while the connection running its first statement is
// terminated; the handler retries and the participant gets 200, never a 5xx.
import { afterAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { db, disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { getParticipantSession } from "@/lib/server/participant-flow/get-session";
import { markQuestionShown } from "@/lib/server/participant-flow/question-clock";
import {
  getParticipantImage,
  getScene,
  getSession,
  getStoredImage,
  postAnswer,
  postShown,
} from "@/lib/server/participant-flow/routes";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import { createTranslationStudy, TEST_DEVICE } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

const SCENE = {
  elements: ["C", "C", "C", "C", "C", "O"],
  positions: Array.from({ length: 6 }, (_, k) => [Math.cos(k), Math.sin(k), 0]).flat(),
  roles: ["l", "l", "l", "l", "l", "l"],
  residueIndex: [0, 0, 0, 0, 0, 0],
  bonds: [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0],
  camera: { distanceA: 30, fovDeg: 30 },
};

/** A consented participant of a timed, interactive study with one image per item; the cookie header and the current question. */
async function participant(pid: string) {
  const { study, items } = await createTranslationStudy({
    itemCount: 2,
    config: { itemsPerTask: 2, timeLimitSec: 60, conditions: ["interactive"] },
  });
  for (const item of items)
    await db.item.update({ where: { id: item.id }, data: { payload: { pdbId: "1abc", scene3d: SCENE } } });
  const entered = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(`could not enter: ${entered.kind}`);
  await recordConsent(entered.participantId, true, TEST_DEVICE);
  const current = (await getParticipantSession(entered.participantId))!.current!;
  return {
    participantId: entered.participantId,
    cookie: `${PARTICIPANT_COOKIE}=${createParticipantToken(entered.participantId, study.id)}`,
    current,
  };
}

/**
 * Runs `call` while table `table` is locked, terminates the backend that waits on the lock (the call's first
 * statement on that table) and releases the lock: the call's statement fails with 57P01 ("terminating connection
 * due to administrator command") on a connection that is gone, exactly once, whatever the timing.
 */
async function withTerminatedConnection(
  table: string,
  call: () => Promise<Response>,
): Promise<{ response: Response; terminated: number }> {
  const locker = new pg.Client({ connectionString: inject("databaseUrl") });
  const watcher = new pg.Client({ connectionString: inject("databaseUrl") });
  await Promise.all([locker.connect(), watcher.connect()]);
  try {
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    const pending = call();
    let terminated = 0;
    for (let i = 0; i < 500 && terminated === 0; i++) {
      const waiting = await watcher.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1",
        [(locker as unknown as { processID: number }).processID],
      );
      for (const row of waiting.rows as Array<{ pid: number }>) {
        const r = await watcher.query("SELECT pg_terminate_backend($1) AS ok", [row.pid]);
        if (r.rows[0].ok) terminated++;
      }
      if (terminated === 0) await new Promise((r) => setTimeout(r, 10));
    }
    await locker.query("COMMIT");
    return { response: await pending, terminated };
  } finally {
    await Promise.all([locker.end(), watcher.end()]);
  }
}

const post = (path: string, cookie: string, body: unknown) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { cookie } });

describe("participant routes when the database connection is terminated", () => {
  it("POST /api/participant/shown answers 200 with the deadline (retried)", async () => {
    const { cookie, current } = await participant("fault-shown");
    const { response, terminated } = await withTerminatedConnection("Assignment", () =>
      postShown(post("/api/participant/shown", cookie, { assignmentId: current.assignmentId })),
    );
    expect(terminated).toBe(1);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { assignmentId: string; deadline: string | null };
    expect(body.assignmentId).toBe(current.assignmentId);
    expect(body.deadline).not.toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
  });

  it("GET /api/images/:id redirects to a signed link that serves the image bytes with its sandbox CSP (retried)", async () => {
    const { participantId, cookie, current } = await participant("fault-image");
    await markQuestionShown(participantId, current.assignmentId);
    const imageId = current.item.images[0]!.id;
    const { response, terminated } = await withTerminatedConnection("ItemImage", () =>
      getParticipantImage(get(`/api/images/${imageId}`, cookie), { params: { id: imageId } }),
    );
    expect(terminated).toBe(1);
    expect(response.status).toBe(302);
    const link = response.headers.get("location")!;
    const file = /^\/api\/images\/c\/([0-9a-f]{64}\.svg)\?/.exec(link)![1]!;
    const image = await getStoredImage(get(link, cookie), { params: { file } });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const stored = await db.itemImage.findUniqueOrThrow({ where: { id: imageId }, select: { data: true } });
    expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(stored.data))).toBe(true);
  });

  it("GET /api/participant/scene/:assignmentId answers 200 with the scene (retried)", async () => {
    const { participantId, cookie, current } = await participant("fault-scene");
    await markQuestionShown(participantId, current.assignmentId);
    const { response, terminated } = await withTerminatedConnection("Assignment", () =>
      getScene(get(`/api/participant/scene/${current.assignmentId}`, cookie), {
        params: Promise.resolve({ assignmentId: current.assignmentId }),
      }),
    );
    expect(terminated).toBe(1);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { elements: string[] }).elements).toEqual(SCENE.elements);
  });

  it("the session read and the answer (routes that retried before) still answer 200; the answer is stored once", async () => {
    const { participantId, cookie, current } = await participant("fault-answer");
    const session = await withTerminatedConnection("Participant", () =>
      getSession(get("/api/participant/session", cookie)),
    );
    expect(session.terminated).toBe(1);
    expect(session.response.status).toBe(200);
    await markQuestionShown(participantId, current.assignmentId);
    const body = {
      assignmentId: current.assignmentId,
      answer: "move x 3",
      idempotencyKey: "fault-answer-key-1",
      rtClientMs: 1000,
    };
    const answer = await withTerminatedConnection("Response", () =>
      postAnswer(post("/api/participant/answer", cookie, body)),
    );
    expect(answer.terminated).toBe(1);
    expect(answer.response.status).toBe(200);
    expect(((await answer.response.json()) as { result: { status: string } }).result.status).toBe("stored");
    await expect(db.response.count({ where: { assignmentId: current.assignmentId } })).resolves.toBe(1);
  });
});
