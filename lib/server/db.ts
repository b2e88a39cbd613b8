import "server-only";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/prisma/generated/client";
import { env } from "@/lib/server/env";

export type DatabaseDriver = "postgres" | "pglite";

type PGliteModule = typeof import("@electric-sql/pglite");
type PGliteAdapterModule = typeof import("pglite-prisma-adapter");
type PGliteInstance = InstanceType<PGliteModule["PGlite"]>;

interface DbHandle {
  prisma: PrismaClient;
  driver: DatabaseDriver;
  pglite?: PGliteInstance;
}

function createHandle(): DbHandle {
  if (env.DATABASE_URL) {
    // Explicit pool (README "Configuration"): the driver default of 10 was undocumented. A connection that failed is
    // dropped by pg-pool on release (it checks the client's queryable state), never handed out again.
    const pool = new pg.Pool({
      connectionString: env.DATABASE_URL,
      max: env.DATABASE_POOL_MAX,
      connectionTimeoutMillis: env.DATABASE_POOL_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
    });
    // An idle client whose server connection is terminated emits "error" on the pool; without a listener the process dies.
    pool.on("error", (err) => console.warn(`database: idle connection lost (${err.message}); it is replaced on next use`));
    return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), driver: "postgres" };
  }
  // Loaded only for the embedded database: PGlite costs ~40 MB of memory in every process that imports it.
  const load = createRequire(import.meta.url);
  const { PGlite } = load("@electric-sql/pglite") as PGliteModule;
  const { PrismaPGlite } = load("pglite-prisma-adapter") as PGliteAdapterModule;
  // Embedded default: one process per data folder (PGlite is single-writer). Migrations run before the server starts.
  const pglite = new PGlite(env.PGLITE_DIR);
  return { prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) }), driver: "pglite", pglite };
}

// Cached on globalThis so dev hot reload does not open a second PGlite on the same folder.
const globalForDb = globalThis as unknown as { misiDb?: DbHandle };
const handle = globalForDb.misiDb ?? (globalForDb.misiDb = createHandle());

export const db = handle.prisma;
export const dbDriver: DatabaseDriver = handle.driver;

/** Closes the client (and PGlite, which otherwise keeps the process alive). For scripts and tests. */
export async function disconnectDb(): Promise<void> {
  await handle.prisma.$disconnect();
  await handle.pglite?.close();
  delete globalForDb.misiDb;
}
