import type http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Behind one proxy, trusted only at 127.0.0.1: a client at 127.0.0.2 reaches the app port directly.
vi.hoisted(() => {
  process.env.TRUSTED_PROXY_HOPS = "1";
  process.env.TRUSTED_PROXY_ADDRESSES = "127.0.0.1";
});

const { LoadShedder } = await import("@/lib/server/load-shed");
const { PARTICIPANT_API } = await import("@/lib/participant/api-contract");
const { createFrontHandler } = await import("@/lib/server/serving/front");
const { createFrontServer } = await import("@/lib/server/serving/http-server");

/**
 * Whose address the front's per-address bound counts (lib/server/serving/front.ts) when X-Forwarded-For is trusted:
 * the forwarded address only from a configured proxy, and an IPv6 client's /64. Next is a stand-in that echoes the
 * X-Forwarded-For it was handed.
 */
let server: http.Server;
let port = 0;
let shedder: InstanceType<typeof LoadShedder>;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  shedder = new LoadShedder({ maxInFlight: 100, maxLagMs: 10_000, warmupMs: 0 });
  const front = createFrontHandler({
    next: (req, res) => {
      const body = String(req.headers["x-forwarded-for"] ?? "");
      res.writeHead(299, { "Content-Type": "text/plain", "Content-Length": String(Buffer.byteLength(body)) });
      res.end(body);
    },
    shedder,
    perAddressInFlight: 4,
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
});

/** A request written on its own socket from `localAddress`, and what came back so far. */
function raw(localAddress: string, text: string) {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  sockets.push(socket);
  const state = { received: "", closed: false };
  socket.on("data", (chunk: Buffer) => (state.received += chunk.toString("latin1")));
  socket.on("close", () => (state.closed = true));
  socket.on("error", () => {});
  socket.write(text);
  return state;
}

/** An answer POST whose body never finishes, from `localAddress`, claiming `forwardedFor`. */
function slowAnswer(localAddress: string, forwardedFor: string) {
  return raw(
    localAddress,
    [
      `POST ${PARTICIPANT_API.answer.path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `X-Forwarded-For: ${forwardedFor}`,
      "Content-Type: application/json",
      "Content-Length: 500",
      "",
      '{"assignmentId":',
    ].join("\r\n"),
  );
}

const refused = (s: { received: string }) => s.received.startsWith("HTTP/1.1 429");

async function until(check: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Time for requests that would be refused to be refused (a refusal that came late only makes a "none" pass). */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 500));
}

describe("X-Forwarded-For and the per-address bound", () => {
  it("a client reaching the app port directly cannot choose its address: 10 spoofed addresses from 127.0.0.2 share its bound of 4", async () => {
    const slow = Array.from({ length: 10 }, (_, i) => slowAnswer("127.0.0.2", `198.51.100.${i + 1}`));
    await until(() => slow.filter(refused).length === 6, "6 refusals");
    await settle();
    expect(slow.filter(refused)).toHaveLength(6);
    // What Next (and every handler) is handed from there: the socket address, not the claim; from the proxy, the claim.
    const direct = raw(
      "127.0.0.2",
      `GET /admin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Forwarded-For: 198.51.100.77\r\nConnection: close\r\n\r\n`,
    );
    await until(() => direct.closed, "the direct request");
    expect(direct.received).toMatch(/^HTTP\/1\.1 299/);
    expect(direct.received.split("\r\n\r\n")[1]).toBe("127.0.0.2");
    const proxied = await fetch(`http://127.0.0.1:${port}/admin`, { headers: { "x-forwarded-for": "198.51.100.77" } });
    expect(await proxied.text()).toBe("198.51.100.77");
  });

  it("from the configured proxy the forwarded address counts: 10 clients, none refused", async () => {
    const slow = Array.from({ length: 10 }, (_, i) => slowAnswer("127.0.0.1", `203.0.113.${i + 1}`));
    await settle();
    expect(slow.filter(refused)).toHaveLength(0);
  });

  it("an IPv6 client is its /64: 10 addresses of one /64 through the proxy share one bound of 4", async () => {
    const slow = Array.from({ length: 10 }, (_, i) => slowAnswer("127.0.0.1", `2001:db8:0:7::${(i + 1).toString(16)}`));
    await until(() => slow.filter(refused).length === 6, "6 refusals");
    await settle();
    expect(slow.filter(refused)).toHaveLength(6);
  });
});
