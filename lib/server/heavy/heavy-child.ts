// Entry of a heavy-work worker process (bundled by esbuild and forked by tinypool; see pool.ts). Before each job it
// tells the parent its process id, so the parent's clock and memory watch start when the job really starts, not while
// it waited in the queue, and watch the right process.
import { markInsideHeavyWorker } from "./in-worker";
import { HEAVY_JOBS, type HeavyJobKind } from "./jobs";

markInsideHeavyWorker();

export interface HeavyTask {
  kind: HeavyJobKind;
  input: unknown;
}

export default async function runHeavyTask(task: HeavyTask): Promise<unknown> {
  process.send?.({ heavyJobStarted: process.pid });
  const job = HEAVY_JOBS[task.kind] as (input: unknown) => unknown;
  if (!job) throw new Error(`unknown heavy job '${task.kind}'`);
  return job(task.input);
}
