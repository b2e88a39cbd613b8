/** At most `limit` holders at once; the rest wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Waits for a slot; the returned function gives it back (once, whatever happens). */
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }

  /** Holders right now. */
  get running(): number {
    return this.active;
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}
