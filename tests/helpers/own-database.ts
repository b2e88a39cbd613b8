import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL server the integration suite runs on (its own databases are created there). */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * Runs one statement on a server's maintenance database, the suite's by default (CREATE/DROP DATABASE cannot run in
 * the target itself). The benchmarks that make a database of their own use it too.
 */
export async function onTestServer(sql: string, serverUrl: string = TEST_SERVER_URL): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface OwnDatabase {
  name: string;
  url: string;
  create(): Promise<void>;
  /** Drops it with its open connections (WITH FORCE): the app's pool may still hold some. */
  drop(): Promise<void>;
}

/**
 * A database of a test file's own on the suite's server, for tests that change what the migrate step installs or that
 * read plans on tables without statistics, which the shared test database must not see. Not created until `create()`.
 * `forApp`: DATABASE_URL names it too. lib/server/db reads that variable when first imported, so a file whose app
 * modules must use this database calls this inside vi.hoisted and imports those modules dynamically after it.
 */
export function ownDatabase(prefix: string, { forApp = false }: { forApp?: boolean } = {}): OwnDatabase {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  if (forApp) process.env.DATABASE_URL = url.toString();
  return {
    name,
    url: url.toString(),
    create: () => onTestServer(`CREATE DATABASE ${name}`),
    drop: () => onTestServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
