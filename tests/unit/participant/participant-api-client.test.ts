// The browser's participant client against a real HTTP server: it waits out a 503's Retry-After (load shedding)
// before retrying, parses responses with the contract, and does not retry a final 4xx.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, participantApi } from "@/components/study/participant-api-client";

const primerReplies: Array<{ status: number; headers?: Record<string, string>; body: unknown }> = [];
const arrivals: number[] = [];
let server: http.Server;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    arrivals.push(Date.now());
    const reply = primerReplies.shift() ?? {
      status: 500,
      body: { error: { code: "INTERNAL", message: "no reply queued" } },
    };
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(reply.body));
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(4320, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The client uses the page's relative addresses.
  globalThis.fetch = (input, init) =>
    realFetch(typeof input === "string" && input.startsWith("/") ? base + input : input, init);
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await new Promise((resolve) => server.close(resolve));
});

describe("participant API client", () => {
  it("honours Retry-After on a 503: the retry comes no sooner than the server asked", async () => {
    primerReplies.push(
      { status: 503, headers: { "retry-after": "2" }, body: { error: { code: "UNAVAILABLE", message: "busy" } } },
      { status: 200, body: { ok: true } },
    );
    arrivals.length = 0;
    await expect(participantApi.primer()).resolves.toEqual({ ok: true });
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(2000);
  });

  it("without Retry-After it backs off as before (its first retry well before a 2 s Retry-After would allow)", async () => {
    primerReplies.push(
      { status: 503, body: { error: { code: "UNAVAILABLE", message: "busy" } } },
      { status: 200, body: { ok: true } },
    );
    arrivals.length = 0;
    await participantApi.primer();
    expect(arrivals[1]! - arrivals[0]!).toBeLessThan(2000);
  });

  it("a final 4xx is thrown at once with the server's message", async () => {
    primerReplies.push({
      status: 409,
      body: { error: { code: "CONFLICT", message: "This question was already answered." } },
    });
    arrivals.length = 0;
    const err = await participantApi.primer().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 409, message: "This question was already answered." });
    expect(arrivals).toHaveLength(1);
  });

  it("a 2xx that is not what the contract says is an error, not retried", async () => {
    primerReplies.push({ status: 200, body: { ok: "yes" } });
    arrivals.length = 0;
    await expect(participantApi.primer()).rejects.toThrow(/Unexpected answer/);
    expect(arrivals).toHaveLength(1);
  });
});
