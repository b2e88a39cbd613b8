import { describe, expect, it } from "vitest";
import { Semaphore } from "@/lib/server/heavy/semaphore";

describe("Semaphore", () => {
  it("lets `limit` holders in, queues the rest in arrival order, and a double release frees one slot only", async () => {
    const slots = new Semaphore(2);
    const order: string[] = [];
    const a = await slots.acquire();
    const b = await slots.acquire();
    const c = slots.acquire().then((release) => (order.push("c"), release));
    const d = slots.acquire().then((release) => (order.push("d"), release));
    expect([slots.running, slots.queued]).toEqual([2, 2]);
    a();
    a();
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect([slots.running, slots.queued]).toEqual([2, 1]);
    b();
    const releaseD = await d;
    expect(order).toEqual(["c", "d"]);
    releaseC();
    releaseD();
    expect([slots.running, slots.queued]).toEqual([0, 0]);
  });
});
