/**
 * CPU seconds spent by the processes of a run, read from /proc (Linux): the app instances, PostgreSQL's processes (by
 * default all of them; `only` narrows the sum to the bench database's backends and the WAL writer, so that other users
 * of a shared server do not count) and the bench's own process (the simulated browsers). A wall-clock rate on a shared 2-core machine mixes all three; CPU per
 * answer says which one an optimisation has to shrink.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // Linux USER_HZ on every architecture Node supports

export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start at ") ": utime is field 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0; // the process ended between listing and reading
  }
}

function postgresPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, "utf8").trim() === "postgres") pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

export interface CpuSnapshot {
  app: Map<number, number>;
  postgres: Map<number, number>;
  client: number;
}

export function cpuSnapshot(appPids: number[]): CpuSnapshot {
  const usage = process.cpuUsage();
  return {
    app: new Map(appPids.map((pid) => [pid, processCpuSeconds(pid)])),
    postgres: new Map(postgresPids().map((pid) => [pid, processCpuSeconds(pid)])),
    client: (usage.user + usage.system) / 1e6,
  };
}

/**
 * CPU seconds between two snapshots; a process that started in between counts from zero, one that ended is lost.
 * `only`: the PostgreSQL processes to count (see backendPids).
 */
export function cpuBetween(
  a: CpuSnapshot,
  b: CpuSnapshot,
  only?: ReadonlySet<number>,
): { app: number; postgres: number; client: number } {
  const delta = (from: Map<number, number>, to: Map<number, number>, keep: (pid: number) => boolean) =>
    [...to].reduce((sum, [pid, s]) => (keep(pid) ? sum + Math.max(0, s - (from.get(pid) ?? 0)) : sum), 0);
  return {
    app: delta(a.app, b.app, () => true),
    postgres: delta(a.postgres, b.postgres, (pid) => !only || only.has(pid)),
    client: b.client - a.client,
  };
}

/** The backends connected to one database, plus the WAL writer (every commit's flush): what a run's statements cost. */
export async function backendPids(
  client: { query: (sql: string, values: unknown[]) => Promise<{ rows: Array<{ pid: number }> }> },
  database: string,
): Promise<Set<number>> {
  const { rows } = await client.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type = 'walwriter'`,
    [database],
  );
  return new Set(rows.map((r) => r.pid));
}
