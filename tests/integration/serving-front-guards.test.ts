import type http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { disconnectDb } from "@/lib/server/db";
import { recordConsent } from "@/lib/server/participant-flow/record-consent";
import { API_CSP, BASE_SECURITY_HEADERS } from "@/lib/http-security";
import { LoadShedder } from "@/lib/server/load-shed";
import { PARTICIPANT_API, PARTICIPANT_BODY_LIMITS } from "@/lib/participant/api-contract";
import { BODY_READ_DEADLINE_MS, createFrontHandler } from "@/lib/server/serving/front";
import { createFrontServer } from "@/lib/server/serving/http-server";
import { createParticipantToken, PARTICIPANT_COOKIE } from "@/lib/server/participant-flow/token";
import { createTranslationStudy, joinStudy, TEST_DEVICE } from "../helpers/study-fixtures";

/**
 * What the custom server's front (lib/server/serving/front.ts) refuses before any work, on a real socket and database:
 * slow and oversized bodies, one address's crowd of requests, TRACE/TRACK/OPTIONS *, a request target naming another
 * host. Next is a stand-in answering 299 "next".
 */
let server: http.Server;
let port = 0;
let shedder: LoadShedder;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  // A small process bound: three slow bodies would hold it all if bodies counted before they arrived.
  shedder = new LoadShedder({ maxInFlight: 3, maxLagMs: 10_000, warmupMs: 0 });
  const front = createFrontHandler({
    next: (_req, res) => {
      res.writeHead(299, { "Content-Type": "text/plain" });
      res.end("next");
    },
    shedder,
    perAddressInFlight: 32,
  });
  server = createFrontServer(front);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  sockets.forEach((s) => s.destroy());
  shedder.stop();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await disconnectDb();
});

async function participant(pid: string) {
  const { study } = await createTranslationStudy({ itemCount: 2, config: { itemsPerTask: 2 } });
  const participantId = await joinStudy(study.slug, pid);
  await recordConsent(participantId, true, TEST_DEVICE);
  return {
    participantId,
    slug: study.slug,
    cookie: `${PARTICIPANT_COOKIE}=${createParticipantToken(participantId, study.id)}`,
  };
}

/** A request written byte for byte on its own socket (from `localAddress`), and what came back so far. */
function raw(text: string, localAddress = "127.0.0.1") {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  sockets.push(socket);
  const state = { received: "", closed: false, socket };
  socket.on("data", (chunk: Buffer) => (state.received += chunk.toString("latin1")));
  socket.on("close", () => (state.closed = true));
  socket.on("error", () => {});
  socket.write(text);
  return state;
}

function status(received: string): number | null {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
  return m ? Number(m[1]) : null;
}

function parseRaw(received: string) {
  const [head = "", body = ""] = received.split("\r\n\r\n");
  const headers = new Map(
    head
      .split("\r\n")
      .slice(1)
      .map(
        (line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()] as const,
      ),
  );
  return { status: status(received), headers, body };
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function rawRequest(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string },
) {
  const head = [
    `${options.method ?? "GET"} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(options.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  return raw(`${head.join("\r\n")}\r\n\r\n${options.body ?? ""}`, options.localAddress);
}

describe("the front holds without a reverse proxy", () => {
  it("200 bodies that never finish from one address: 32 wait for their body outside the shed bound, 168 get 429, another participant is served", async () => {
    const victim = await participant("guard-victim");
    const attacker = await participant("guard-attacker");
    const partial = (i: number) =>
      rawRequest(PARTICIPANT_API.answer.path, {
        method: "POST",
        headers: { Cookie: attacker.cookie, "Content-Type": "application/json", "Content-Length": "5000" },
        body: `{"assignmentId":"slow-${i}",`,
        localAddress: "127.0.0.2",
      });
    const slow = Array.from({ length: 200 }, (_, i) => partial(i));
    await until(() => slow.filter((s) => status(s.received) === 429 && s.closed).length === 168, "168 refusals");
    const refused = parseRaw(slow.find((s) => status(s.received) === 429)!.received);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("content-security-policy")).toBe(API_CSP);
    for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS))
      expect(refused.headers.get(name.toLowerCase())).toBe(value);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: "TOO_MANY_REQUESTS", message: expect.any(String) } });
    // The other 32 are still sending their body (unless the 10 s deadline passed on a very slow machine: then 408).
    const waiting = slow.filter((s) => status(s.received) !== 429);
    expect(waiting).toHaveLength(32);
    for (const s of waiting) expect([null, 408]).toContain(status(s.received));
    // None of them holds a slot of the process's bound (3).
    expect(shedder.state.inFlight).toBe(0);

    // Another address: its session, its shown stamp and its answer are served.
    const base = `http://127.0.0.1:${port}`;
    const session = await fetch(`${base}${PARTICIPANT_API.session.path}`, { headers: { cookie: victim.cookie } });
    expect(session.status).toBe(200);
    const assignmentId = ((await session.json()) as { current: { assignmentId: string } }).current.assignmentId;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { cookie: victim.cookie, "content-type": "application/json", origin: base },
        body: JSON.stringify(body),
      });
    expect((await post(PARTICIPANT_API.shown.path, { assignmentId })).status).toBe(200);
    const answer = await post(PARTICIPANT_API.answer.path, {
      assignmentId,
      answer: "move x 3",
      idempotencyKey: "guard-victim-1",
      rtClientMs: 900,
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { result: { status: string } }).result.status).toBe("stored");
    slow.forEach((s) => s.socket.destroy());
  }, 60_000);

  it(
    `a body that has not arrived ${BODY_READ_DEADLINE_MS / 1000} s after the headers gets 408 and its connection closed`,
    async () => {
      const p = await participant("guard-deadline");
      const t0 = Date.now();
      const slow = rawRequest(PARTICIPANT_API.answer.path, {
        method: "POST",
        headers: { Cookie: p.cookie, "Content-Type": "application/json", "Content-Length": "100" },
        body: "{",
      });
      await until(() => slow.closed, "the 408", BODY_READ_DEADLINE_MS + 20_000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(BODY_READ_DEADLINE_MS - 100);
      const res = parseRaw(slow.received);
      expect(res.status).toBe(408);
      expect(res.headers.get("connection")).toBe("close");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(JSON.parse(res.body)).toEqual({
        error: { code: "REQUEST_TIMEOUT", message: expect.stringContaining("10 s") },
      });
      expect(shedder.state.inFlight).toBe(0);
    },
    BODY_READ_DEADLINE_MS + 30_000,
  );

  it("body limits per route from the contract: a larger declared or streamed body is 413 before any work; an answer near 0.9 MB is read", async () => {
    const p = await participant("guard-limits");
    const base = `http://127.0.0.1:${port}`;
    const headers = { cookie: p.cookie, "content-type": "application/json", origin: base };
    // Declared: refused from the Content-Length alone.
    const declared = rawRequest(PARTICIPANT_API.shown.path, {
      method: "POST",
      headers: {
        Cookie: p.cookie,
        "Content-Type": "application/json",
        "Content-Length": String(PARTICIPANT_BODY_LIMITS.shown + 1),
      },
    });
    await until(() => declared.closed, "the 413");
    expect(parseRaw(declared.received).status).toBe(413);
    // Streamed (chunked, no length): counted as it arrives.
    const big = JSON.stringify({
      accept: true,
      device: { ...TEST_DEVICE, userAgent: "u".repeat(PARTICIPANT_BODY_LIMITS.consent) },
    });
    const streamed = await fetch(`${base}${PARTICIPANT_API.consent.path}`, {
      method: "POST",
      headers,
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({
      error: {
        code: "PAYLOAD_TOO_LARGE",
        message: `The request body is larger than ${PARTICIPANT_BODY_LIMITS.consent} bytes.`,
      },
    });
    // An answer with a long camera path (5000 samples) is read and validated, not refused for its size.
    const camera = Array.from({ length: 5000 }, (_, i) => ({
      t: 86_000_000 + i,
      q: [-0.1234, 0.5678, -0.9012, 0.3456],
      d: 12345.67,
    }));
    const events = Array.from({ length: 2000 }, (_, i) => ({ t: i, type: "widget", detail: "A".repeat(200) }));
    const answerBody = JSON.stringify({
      assignmentId: "no-such-assignment",
      answer: "move x 3",
      idempotencyKey: "guard-limits-1",
      interactionLog: { camera, events },
    });
    expect(answerBody.length).toBeGreaterThan(700_000);
    const answer = await fetch(`${base}${PARTICIPANT_API.answer.path}`, { method: "POST", headers, body: answerBody });
    expect(answer.status).not.toBe(413);
    expect(answer.status).toBeLessThan(500);
  }, 30_000);

  it("TRACE, TRACK and OPTIONS * answer 405 with the security headers, logging nothing", async () => {
    const errors = vi.spyOn(console, "error");
    for (const [method, target] of [
      ["TRACE", "/"],
      ["TRACE", "/api/participant/session"],
      ["TRACK", "/"],
      ["OPTIONS", "*"],
    ] as const) {
      const r = raw(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: secret=1\r\n\r\n`);
      await until(() => r.closed, `${method} ${target}`);
      const res = parseRaw(r.received);
      expect(res.status, `${method} ${target}`).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
      for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS))
        expect(res.headers.get(name.toLowerCase()), name).toBe(value);
      expect(res.body).not.toContain("secret");
    }
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("an absolute-form target naming another host is 400; naming this host it is served as its path", async () => {
    for (const target of [
      "http://other.example/s/abc",
      "https://other.example/api/participant/session",
      `http://127.0.0.1:${port + 1}/api/health`,
      "ftp://127.0.0.1/x",
      "http:/x",
    ]) {
      const r = raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await until(() => r.closed, target);
      const res = parseRaw(r.received);
      expect(res.status, target).toBe(400);
      expect(res.headers.get("location"), target).toBeUndefined();
      expect(res.headers.get("x-frame-options"), target).toBe("DENY");
    }
    const own = raw(
      `GET http://127.0.0.1:${port}/api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    await until(() => own.closed, "own host");
    expect(parseRaw(own.received).status).toBe(200);
    const page = raw(
      `GET http://127.0.0.1:${port}/admin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    await until(() => page.closed, "own host page");
    expect(parseRaw(page.received).status).toBe(299);
  });
});

describe("reviewer findings on the front (#31 item 3)", () => {
  it("/shown counts against the per-address bound: 40 unfinished shown bodies from one address, 8 get 429", async () => {
    const slow = Array.from({ length: 40 }, (_, i) =>
      rawRequest(PARTICIPANT_API.shown.path, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": "200" },
        body: `{"assignmentId":"slow-${i}"`,
        localAddress: "127.0.0.3",
      }),
    );
    await until(() => slow.filter((s) => status(s.received) === 429).length === 8, "8 refusals");
    expect(slow.filter((s) => status(s.received) !== 429)).toHaveLength(32);
    slow.forEach((s) => s.socket.destroy());
  });

  it("an absolute-form target naming this host with the scheme's default port is this host", async () => {
    for (const [target, host] of [
      ["http://localhost:80/api/health", "localhost"],
      ["http://localhost/api/health", "localhost:80"],
      ["http://LOCALHOST:80/api/health", "localhost"],
      ["https://localhost:443/api/health", "localhost"],
      ["https://localhost/api/health", "localhost:443"],
    ] as const) {
      const r = raw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      await until(() => r.closed, target);
      expect(parseRaw(r.received).status, `${target} (Host: ${host})`).toBe(200);
    }
    // Another port is another authority.
    const other = raw(`GET http://localhost:8080/api/health HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await until(() => other.closed, "other port");
    expect(parseRaw(other.received).status).toBe(400);
  });

  it("a participant route under a non-canonical path never reaches Next: POST is 404, GET redirects to the canonical path", async () => {
    const variants = [
      "/api/participant/answer/",
      "//api/participant/answer",
      "/api//participant/answer",
      "/api/participant/%61nswer",
      "/api/%70articipant/answer",
      "/api/participant/Answer",
      "/API/participant/answer",
      "/api/p/../participant/answer",
      "/api/participant/./answer",
      "/api/participant/x/%2e%2e/answer",
      "/api\\participant/answer",
      "/api/participant%2Fanswer",
      "/api%2Fparticipant%2fanswer",
      "/api%5Cparticipant%5Canswer",
    ];
    for (const path of variants) {
      const r = rawRequest(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": "2", Connection: "close" },
        body: "{}",
      });
      await until(() => r.closed, path);
      const res = parseRaw(r.received);
      expect(res.status, `POST ${path}`).toBe(404);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    for (const [path, canonical] of [
      ["/api/participant/session/", "/api/participant/session"],
      ["/api/x/../participant/session?a=1", "/api/participant/session?a=1"],
      ["//s//abc", "/s/abc"],
      ["/s/abc/", "/s/abc"],
      ["/s/abc/./session", "/s/abc/session"],
      ["/api/images/%61bcdefghijkl", "/api/images/abcdefghijkl"],
    ] as const) {
      const r = rawRequest(path, { headers: { Connection: "close" } });
      await until(() => r.closed, path);
      const res = parseRaw(r.received);
      expect(res.status, `GET ${path}`).toBe(308);
      expect(res.headers.get("location"), path).toBe(canonical);
    }
    // Case variants have no canonical form to send to: 404.
    const upper = rawRequest("/API/participant/session", { headers: { Connection: "close" } });
    await until(() => upper.closed, "upper");
    expect(parseRaw(upper.received).status).toBe(404);
    // Paths outside the participant area are Next's, whatever their form.
    const staff = rawRequest("/admin/", { headers: { Connection: "close" } });
    await until(() => staff.closed, "staff");
    expect(parseRaw(staff.received).status).toBe(299);
  });
});
