import { afterEach, describe, expect, it } from "vitest";
import { LoadShedder } from "@/lib/server/load-shed";

const shedders: LoadShedder[] = [];
afterEach(() => shedders.splice(0).forEach((s) => s.stop()));
function shedder(options: ConstructorParameters<typeof LoadShedder>[0]) {
  const s = new LoadShedder(options);
  shedders.push(s);
  return s;
}

describe("load shedding", () => {
  it("admits up to the in-flight bound, then answers 503 with Retry-After until a request finishes", async () => {
    const s = shedder({ maxInFlight: 2, maxLagMs: 10_000, warmupMs: 0 });
    const a = s.tryEnter();
    const b = s.tryEnter();
    expect(a.ok && b.ok).toBe(true);
    const refused = s.tryEnter();
    expect(refused).toMatchObject({ ok: false, reason: "in-flight", retryAfterSec: 1 });
    const response = LoadShedder.response(refused as Extract<typeof refused, { ok: false }>);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual({ error: { code: "UNAVAILABLE", message: expect.stringContaining("busy") } });
    if (a.ok) {
      a.release();
      a.release(); // twice is once
    }
    expect(s.state.inFlight).toBe(1);
    expect(s.tryEnter().ok).toBe(true);
    expect(s.tryEnter().ok).toBe(false);
  });

  it("while warming up admits only a few at once and says when to come back", () => {
    let now = 0;
    const s = shedder({ maxInFlight: 100, maxLagMs: 10_000, warmupMs: 5000, warmupInFlight: 1, now: () => now });
    expect(s.tryEnter().ok).toBe(true);
    now = 1200;
    expect(s.tryEnter()).toMatchObject({ ok: false, reason: "warming-up", retryAfterSec: 4 });
    now = 5000;
    expect(s.tryEnter().ok).toBe(true);
  });

  it("sheds while the event loop is blocked beyond the delay bound, and recovers", async () => {
    const s = shedder({ maxInFlight: 100, maxLagMs: 50, warmupMs: 0, sampleMs: 10 });
    await new Promise((r) => setTimeout(r, 30));
    const until = Date.now() + 200;
    while (Date.now() < until) {
      // a blocked event loop: the sampler's timer fires 200 ms late
    }
    await new Promise((r) => setTimeout(r, 15));
    expect(s.state.lagMs).toBeGreaterThan(50);
    expect(s.tryEnter()).toMatchObject({ ok: false, reason: "event-loop-delay" });
    await new Promise((r) => setTimeout(r, 150));
    expect(s.tryEnter().ok).toBe(true);
  });
});
