// The participant handlers (lib/server/participant-flow/routes/) called as any server calls them, with a web Request: the
// wrapper's refusals, and responses that parse with the contract the browser uses (lib/participant/api-contract.ts).
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { enterStudy } from "@/lib/server/participant-flow/enter-study";
import {
  getParticipantImage,
  getSession,
  postAnswer,
  postConsent,
  postPrimer,
  postShown,
} from "@/lib/server/participant-flow/routes";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import {
  AnswerResponseSchema,
  PrimerResponseSchema,
  QuestionClockSchema,
  SessionSchema,
  type AnswerBody,
  type ConsentBody,
} from "@/lib/participant/api-contract";
import { createTranslationStudy, TEST_DEVICE } from "../helpers/study-fixtures";

afterAll(async () => {
  await disconnectDb();
});

async function joined(pid: string) {
  const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2 } });
  const entered = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: pid } });
  if (entered.kind !== "ok") throw new Error(entered.kind);
  return `${PARTICIPANT_COOKIE}=${createParticipantToken(entered.participantId, study.id)}`;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("withParticipant", () => {
  it("refuses what the routes refused: no cookie 401, cross-site 403, NUL in the URL 400, a bad body 422 with its field", async () => {
    const cookie = await joined("api-refusals");
    const noCookie = await getSession(new Request("http://localhost/api/participant/session"));
    expect(noCookie.status).toBe(401);
    expect(await noCookie.json()).toEqual({
      error: { code: "UNAUTHENTICATED", message: "No participant session: open the study link again." },
    });
    expect(
      (await getSession(new Request("http://localhost/api/participant/session", { headers: { cookie: `${cookie}x` } })))
        .status,
    ).toBe(401);
    const crossSite = await postPrimer(post("/api/participant/primer", {}, { cookie, "sec-fetch-site": "cross-site" }));
    expect(crossSite.status).toBe(403);
    expect((await postPrimer(post("/api/participant/primer?x=%00", {}, { cookie }))).status).toBe(400);
    const bad = await postConsent(post("/api/participant/consent", { accept: "yes" }, { cookie }));
    expect(bad.status).toBe(422);
    expect(
      ((await bad.json()) as { error: { details: Array<{ path: string }> } }).error.details.map((d) => d.path),
    ).toEqual(["accept"]);
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("an image without any session is 401 plain text; a malformed id 404 without a lookup", async () => {
    const anonymous = await getParticipantImage(new Request("http://localhost/api/images/abcdefghij12"), {
      params: { id: "abcdefghij12" },
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toBe("Unauthorized");
    expect(
      (await getParticipantImage(new Request("http://localhost/api/images/x"), { params: { id: "x" } })).status,
    ).toBe(404);
  });
});

describe("responses parse with the contract the browser uses", () => {
  it("consent → session → shown → answer → primer", async () => {
    const cookie = await joined("api-contract");
    const consentBody: ConsentBody = { accept: true, device: TEST_DEVICE };
    const consent = await postConsent(post("/api/participant/consent", consentBody, { cookie }));
    expect(consent.status).toBe(200);
    expect(consent.headers.get("cache-control")).toBe("no-store, no-transform");
    const json: unknown = await consent.json();
    // Strict: a field the contract does not know would be dropped in the browser.
    expect(SessionSchema.parse(json)).toEqual(json);
    const session = SessionSchema.parse(
      await (await getSession(new Request("http://localhost/api/participant/session", { headers: { cookie } }))).json(),
    );
    const assignmentId = session.current!.assignmentId;
    QuestionClockSchema.parse(
      await (await postShown(post("/api/participant/shown", { assignmentId }, { cookie }))).json(),
    );
    const answerBody: AnswerBody = {
      assignmentId,
      answer: "move x 3",
      idempotencyKey: "api-contract-key-1",
      rtClientMs: 900,
      interactionLog: { events: [{ t: 1, type: "widget", detail: "x" }] },
    };
    const answered: unknown = await (await postAnswer(post("/api/participant/answer", answerBody, { cookie }))).json();
    expect(AnswerResponseSchema.parse(answered)).toEqual(answered);
    expect(
      PrimerResponseSchema.parse(await (await postPrimer(post("/api/participant/primer", {}, { cookie }))).json()),
    ).toEqual({ ok: true });
  });
});

describe("the answer route", () => {
  it("stores an answer in one round trip once the process knows the item: it passes the token's study and the item", async () => {
    const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2, answersPerItem: 5 } });
    /** Each answer's round trips, for a participant who answers every question as the browser does. */
    async function answerAll(pid: string): Promise<number[]> {
      const entered = await enterStudy({ slug: study.slug, query: { PROLIFIC_PID: pid } });
      if (entered.kind !== "ok") throw new Error(entered.kind);
      const cookie = `${PARTICIPANT_COOKIE}=${createParticipantToken(entered.participantId, study.id)}`;
      const consentBody: ConsentBody = { accept: true, device: TEST_DEVICE };
      let current = SessionSchema.parse(
        await (await postConsent(post("/api/participant/consent", consentBody, { cookie }))).json(),
      ).current;
      const trips: number[] = [];
      for (let n = 0; current; n++) {
        const body: AnswerBody = {
          assignmentId: current.assignmentId,
          itemId: current.item.id,
          answer: "move x 1",
          idempotencyKey: `route-${pid}-${n}`,
          rtClientMs: 900,
        };
        const spy = vi.spyOn(pg.Client.prototype, "query");
        try {
          const res = await postAnswer(post("/api/participant/answer", body, { cookie }));
          expect(res.status).toBe(200);
          current = AnswerResponseSchema.parse(await res.json()).update.current;
          trips.push(spy.mock.calls.length);
        } finally {
          spy.mockRestore();
        }
      }
      return trips;
    }
    await answerAll("route-first");
    // The same two items again: kept by the process, so the write alone (no read first).
    expect(await answerAll("route-second")).toEqual([1, 1]);
  });
});
