import "server-only";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { dbPool } from "@/lib/server/db";
import type { FlowStatementParams } from "@/lib/server/participant-flow/flow-statements.generated";

/**
 * The participant flow's statements (lib/server/participant-flow/statements/*.sql), run on the pool under Prisma as
 * named prepared statements: each connection parses and plans a statement once, then only binds and executes it.
 * Their rules live in the database functions beside them (sql/functions, installed by the migrate step), above all
 * misi_open_assignments, the one definition of which questions are open and which one is current.
 * A line `-- @include NAME` in a statement is replaced by the fragment sql/statements/_NAME.sql, so a column list two
 * statements return is written once.
 */
export type FlowStatement = keyof FlowStatementParams;

const texts = new Map<FlowStatement, string>();

function read(name: string): string {
  // Written out in the call so that the build's file tracing keeps to this folder (and ships its files).
  return fs.readFileSync(path.join(process.cwd(), "lib/server/participant-flow/statements", `${name}.sql`), "utf8");
}

/** The statement's text with its fragments included (read once per process). */
export function statementText(name: FlowStatement): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = read(name).replace(/^[ \t]*-- @include ([a-z0-9-]+)[ \t]*$/gm, (_, fragment: string) =>
      read(`_${fragment}`).trimEnd(),
    );
    texts.set(name, text);
  }
  return text;
}

// timestamp(3) columns hold UTC wall time (as Prisma reads and writes them); pg's default parser would read local time.
const UTC_TIMESTAMP_OID = 1114;
const parseUtcTimestamp = (value: string): Date => new Date(`${value.replace(" ", "T")}Z`);
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === UTC_TIMESTAMP_OID
      ? parseUtcTimestamp
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/** A connection the flow's statements may run on: the pool, or one client holding a transaction. */
export type FlowClient = pg.Pool | pg.PoolClient;

/**
 * A statement's name with its values, typed from the statement file's `-- @param` lines
 * (flow-statements.generated.ts, `npm run db:statement-types`): a wrapper whose values drift from its file does not
 * compile.
 */
type FlowCall = { [N in FlowStatement]: [name: N, values: FlowStatementParams[N], client?: FlowClient] }[FlowStatement];

/**
 * Runs a flow statement with its values in the order of its `-- @param` lines. Timestamps go in as ISO strings (a timestamp(3) cast drops the "Z" and keeps UTC wall time)
 * and come out as Dates; counts are cast to int in the SQL.
 */
export async function flowQuery<T>(...[name, values, client = dbPool()]: FlowCall): Promise<T[]> {
  const result = await client.query<T & pg.QueryResultRow>({
    name: `misi_${name}`,
    text: statementText(name),
    values,
    types,
  });
  return result.rows;
}

/** Runs `work` in one transaction on one pooled connection (a broken connection is dropped, not returned to the pool). */
export async function flowTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await dbPool().connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const out = await work(client);
    await client.query("COMMIT");
    return out;
  } catch (err) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
