import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { runMigrationCommand } from "../../scripts/db.mts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * Integration tests run against a real PostgreSQL server. The suite creates its own database
 * (misi_test_<random>) on TEST_DATABASE_URL's server, migrates it, and drops it afterwards;
 * it never touches any other database.
 */
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export default async function setup(project: TestProject) {
  const name = `misi_test_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `Integration tests need a PostgreSQL server at ${SERVER_URL} (set TEST_DATABASE_URL; npm test starts a temporary one when none answers): ${err instanceof Error ? err.message : err}`,
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  await runMigrationCommand("deploy", { databaseUrl: url.toString(), quiet: true });
  project.provide("databaseUrl", url.toString());

  return async () => {
    const client = new pg.Client({ connectionString: SERVER_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
