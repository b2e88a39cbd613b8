import { describe, expect, it } from "vitest";
import { FairQueue, SlotRefused } from "@/lib/server/heavy/fair-queue";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("FairQueue", () => {
  it("keeps a worker for another user while one user is at their running share", async () => {
    const q = new FairQueue(2, 10, 1, 10);
    const a1 = await q.acquire("a");
    let a2Started = false;
    void q.acquire("a").then(() => (a2Started = true));
    await tick();
    // A holds one of two slots and may not take the second; B may.
    expect(a2Started).toBe(false);
    expect(q.running).toBe(1);
    const b1 = await q.acquire("b");
    expect(q.running).toBe(2);
    a1();
    await tick();
    expect(a2Started).toBe(true);
    b1();
  });

  it("serves the waiting user served longest ago first, and drops an aborted waiter", async () => {
    const q = new FairQueue(1, 10, 1, 10);
    const order: string[] = [];
    const first = await q.acquire("a");
    const wait = (name: string, owner: string, signal?: AbortSignal) =>
      q.acquire(owner, signal).then(
        (release) => {
          order.push(name);
          release();
        },
        (e: unknown) => order.push(`${name}:${(e as SlotRefused).refusal}`),
      );
    const gone = new AbortController();
    const all = [wait("a2", "a"), wait("a3", "a"), wait("c1", "c", gone.signal), wait("b1", "b")];
    gone.abort();
    await tick();
    expect(q.queued).toBe(3);
    first();
    await Promise.all(all);
    expect(order).toEqual(["c1:aborted", "b1", "a2", "a3"]);
  });

  it("refuses a user's job beyond their queue share, not another user's", async () => {
    const q = new FairQueue(1, 10, 1, 1);
    const release = await q.acquire("a");
    void q.acquire("a");
    await expect(q.acquire("a")).rejects.toMatchObject({ refusal: "owner-queue" });
    void q.acquire("b");
    expect(q.queued).toBe(2);
    // Jobs without an owner (imports, CLIs) have no per-user limit.
    void q.acquire();
    void q.acquire();
    expect(q.queued).toBe(4);
    release();
  });
});
