/**
 * Whether this process is a heavy-work worker (heavy-child.ts marks it before its first job). Work that the server
 * hands to the pool runs in place there: a worker never queues a job in a pool of its own.
 */
let inside = false;

export function markInsideHeavyWorker(): void {
  inside = true;
}

export function insideHeavyWorker(): boolean {
  return inside;
}
