/**
 * Participant requests in progress per client address (an IPv6 client's /64, lib/http-security.ts), bounded: one
 * address cannot hold more than `max` of them, whatever the process's own bound (the load shedder) allows. Counted
 * from the moment a request arrives, body reading included.
 */
export class AddressInFlight {
  private readonly counts = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A release function (call it once the response is finished), or null when the address is at its bound. */
  tryEnter(address: string): (() => void) | null {
    const n = this.counts.get(address) ?? 0;
    if (n >= this.max) return null;
    this.counts.set(address, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(address) ?? 1) - 1;
      if (left <= 0) this.counts.delete(address);
      else this.counts.set(address, left);
    };
  }

  /** Requests in progress from `address`. */
  count(address: string): number {
    return this.counts.get(address) ?? 0;
  }
}
