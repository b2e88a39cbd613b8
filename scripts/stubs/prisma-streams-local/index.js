// Stand-in for @prisma/streams-local, which package.json's `overrides` puts in place of the real package. Prisma's CLI
// imports it only inside `prisma dev` (its local Prisma Postgres server); the real package needs Node 22, while this
// project supports Node 20.19+ and runs its own PostgreSQL (npm run dev, scripts/db.mts), so `prisma dev` is never used.
export async function startLocalDurableStreamsServer() {
  throw new Error(
    "`prisma dev` is not used in this project (its @prisma/streams-local is replaced in package.json overrides): use npm run dev or npm run db:start.",
  );
}
