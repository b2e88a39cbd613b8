import "server-only";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
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
    return { prisma: new PrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL }) }), driver: "postgres" };
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
