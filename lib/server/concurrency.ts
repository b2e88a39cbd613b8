import "server-only";

/**
 * A counting semaphore: at most `limit` callers run at once, the rest wait in memory (FIFO) without holding a
 * database connection. Used so that a burst of one kind of request (participants starting a study, whose
 * reservations lock counter rows) can never occupy most of the connection pool and stall answer submits.
 */
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    const next = waiting.shift();
    if (next) {
      running++;
      next();
    }
  };
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
