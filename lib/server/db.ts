import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/prisma/generated/client";
import { env } from "@/lib/server/env";

export type DatabaseDriver = "postgres" | "pglite";

interface DbHandle {
  prisma: PrismaClient;
  driver: DatabaseDriver;
  pglite?: PGlite;
}

function createHandle(): DbHandle {
  if (env.DATABASE_URL) {
    return { prisma: new PrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL }) }), driver: "postgres" };
  }
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
