// The database functions (sql/functions/*.sql) are source files, not migrations: the migrate
// step installs them after the schema migrations, so a function is edited in place and reviewed as a diff. A file is
// run again only when its text changed (sha256 recorded in "_misi_sql_functions"); before it runs, every existing
// overload of each function it defines is dropped, so a changed signature or result type needs no hand-written DROP.
// All in one transaction under an advisory lock: two deploys at once install one after the other, and a failing file
// leaves the previous functions in place.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

export const FUNCTIONS_DIR = "sql/functions";

export interface InstallResult {
  /** Files run (changed or new), in order. */
  installed: string[];
  /** Functions dropped because no file defines them any more. */
  dropped: string[];
  ms: number;
}

interface FunctionFile {
  file: string;
  sql: string;
  sha256: string;
  functions: string[];
}

const DEFINES = /\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:public\.)?"?([a-z_][a-z0-9_]*)"?\s*\(/gi;

/** The function files of `dir` in name order (their order of installation), with the functions each defines. */
export function readFunctionFiles(dir: string): FunctionFile[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return files.map((file) => {
    const sql = fs.readFileSync(path.join(dir, file), "utf8");
    const functions = [...new Set([...sql.matchAll(DEFINES)].map((m) => m[1]!.toLowerCase()))];
    if (functions.length === 0)
      throw new Error(`${path.join(dir, file)}: defines no function (CREATE OR REPLACE FUNCTION name(...))`);
    return { file, sql, sha256: createHash("sha256").update(sql).digest("hex"), functions };
  });
}

async function dropOverloads(client: pg.Client, name: string): Promise<void> {
  const { rows } = await client.query<{ sig: string }>(
    `SELECT p.oid::regprocedure::text AS sig FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace AND p.proname = $1`,
    [name],
  );
  for (const r of rows) await client.query(`DROP FUNCTION ${r.sig}`);
}

/** Installs the changed function files of `dir` into the database at databaseUrl (see the top of this file). */
export async function installFunctions(
  databaseUrl: string,
  options: { dir?: string; log?: (line: string) => void } = {},
): Promise<InstallResult> {
  const t0 = performance.now();
  const dir = options.dir ? path.resolve(options.dir) : path.resolve(import.meta.dirname, "..", FUNCTIONS_DIR);
  const files = readFunctionFiles(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('misi_install_functions'))`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "_misi_sql_functions" (file text PRIMARY KEY, sha256 text NOT NULL, functions text[] NOT NULL, "installedAt" timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ file: string; sha256: string; functions: string[] }>(
      `SELECT file, sha256, functions FROM "_misi_sql_functions"`,
    );
    const recorded = new Map(rows.map((r) => [r.file, r]));
    const changed = files.filter((f) => recorded.get(f.file)?.sha256 !== f.sha256);
    const defined = new Set(files.flatMap((f) => f.functions));
    const gone = [...new Set(rows.flatMap((r) => r.functions))].filter((name) => !defined.has(name));
    const removedFiles = rows.filter((r) => !files.some((f) => f.file === r.file)).map((r) => r.file);
    for (const name of gone) await dropOverloads(client, name);
    for (const f of changed) {
      for (const name of f.functions) await dropOverloads(client, name);
      try {
        await client.query(f.sql);
      } catch (err) {
        throw new Error(`${path.join(dir, f.file)}: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
      await client.query(
        `INSERT INTO "_misi_sql_functions" (file, sha256, functions) VALUES ($1, $2, $3)
         ON CONFLICT (file) DO UPDATE SET sha256 = EXCLUDED.sha256, functions = EXCLUDED.functions, "installedAt" = now()`,
        [f.file, f.sha256, f.functions],
      );
    }
    if (removedFiles.length)
      await client.query(`DELETE FROM "_misi_sql_functions" WHERE file = ANY($1::text[])`, [removedFiles]);
    await client.query("COMMIT");
    const result = { installed: changed.map((f) => f.file), dropped: gone, ms: performance.now() - t0 };
    options.log?.(
      `Database functions: ${result.installed.length ? `installed ${result.installed.join(", ")}` : "(none changed)"}${gone.length ? `; dropped ${gone.join(", ")}` : ""} in ${result.ms.toFixed(0)} ms`,
    );
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}
