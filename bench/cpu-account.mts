/**
 * CPU seconds spent by the processes of a run, read from /proc (Linux): the app instances, every PostgreSQL server
 * process (backends, WAL writer, checkpointer: the whole cluster, so other users of a shared server count too) and the
 * bench's own process (the simulated browsers). A wall-clock rate on a shared 2-core machine mixes all three; CPU per
 * answer says which one an optimisation has to shrink.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // Linux USER_HZ on every architecture Node supports

function processCpuSeconds(pid: number): number {
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

/** CPU seconds between two snapshots; a process that started in between counts from zero, one that ended is lost. */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): { app: number; postgres: number; client: number } {
  const delta = (from: Map<number, number>, to: Map<number, number>) => [...to].reduce((sum, [pid, s]) => sum + Math.max(0, s - (from.get(pid) ?? 0)), 0);
  return { app: delta(a.app, b.app), postgres: delta(a.postgres, b.postgres), client: b.client - a.client };
}
