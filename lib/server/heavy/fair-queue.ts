/**
 * The heavy-work pool's slots, shared between users: at most `limit` jobs run at once, one owner (a signed-in user)
 * runs at most `perOwnerRunning` of them and keeps at most `perOwnerQueued` waiting, and a freed slot goes to the
 * owners in turn (the one served longest ago first), not to whoever queued first. So one researcher's four workbooks cannot hold the only
 * worker for minutes while another's results page waits behind all of them. A waiting job whose signal aborts (its
 * client left) leaves the queue at once and never runs.
 */
export type Refusal = "queue" | "owner-queue" | "aborted";

export class SlotRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal);
    this.name = "SlotRefused";
  }
}

interface Waiter {
  owner: string;
  grant: (release: () => void) => void;
}

export class FairQueue {
  private active = 0;
  private readonly runningBy = new Map<string, number>();
  /** Waiting jobs per owner, in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();
  private nWaiting = 0;
  /** When each owner last got a slot (a counter): the owner served longest ago goes first. */
  private readonly lastStart = new Map<string, number>();
  private tick = 0;

  constructor(
    private readonly limit: number,
    private readonly maxQueued: number,
    private readonly perOwnerRunning: number,
    private readonly perOwnerQueued: number,
  ) {}

  /**
   * Waits for a slot; the returned function gives it back (once, whatever happens). Rejects with SlotRefused when the
   * queue (or the owner's share of it) is full, or when `signal` aborts before the job got its slot.
   */
  acquire(owner = "", signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new SlotRefused("aborted"));
    if (this.canRun(owner)) return Promise.resolve(this.start(owner));
    if (this.nWaiting >= this.maxQueued) return Promise.reject(new SlotRefused("queue"));
    const mine = this.waiting.get(owner) ?? [];
    // Jobs without an owner (imports, CLIs) have no per-owner share: they are the server's own work.
    if (owner !== "" && mine.length >= this.perOwnerQueued) return Promise.reject(new SlotRefused("owner-queue"));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        grant: (release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const list = this.waiting.get(owner);
        const at = list?.indexOf(waiter) ?? -1;
        if (!list || at < 0) return;
        list.splice(at, 1);
        this.nWaiting--;
        if (list.length === 0) this.waiting.delete(owner);
        reject(new SlotRefused("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      mine.push(waiter);
      this.waiting.set(owner, mine);
      this.nWaiting++;
    });
  }

  private canRun(owner: string): boolean {
    if (this.active >= this.limit) return false;
    return owner === "" || (this.runningBy.get(owner) ?? 0) < this.perOwnerRunning;
  }

  private start(owner: string): () => void {
    this.active++;
    this.lastStart.set(owner, ++this.tick);
    this.runningBy.set(owner, (this.runningBy.get(owner) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const n = (this.runningBy.get(owner) ?? 1) - 1;
      if (n === 0) this.runningBy.delete(owner);
      else this.runningBy.set(owner, n);
      this.dispatch();
    };
  }

  /** Hands free slots to waiting owners that may run one more job, the one served longest ago first. */
  private dispatch(): void {
    while (this.active < this.limit && this.nWaiting > 0) {
      let next: string | null = null;
      for (const owner of this.waiting.keys()) {
        if (!this.canRun(owner)) continue;
        if (next === null || (this.lastStart.get(owner) ?? 0) < (this.lastStart.get(next) ?? 0)) next = owner;
      }
      if (next === null) return;
      const list = this.waiting.get(next)!;
      const waiter = list.shift()!;
      this.nWaiting--;
      if (list.length === 0) this.waiting.delete(next);
      waiter.grant(this.start(next));
    }
  }

  /** Jobs holding a slot right now. */
  get running(): number {
    return this.active;
  }

  /** Jobs waiting for a slot. */
  get queued(): number {
    return this.nWaiting;
  }
}
