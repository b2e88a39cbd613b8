// The database functions are source files (sql/functions) that the migrate step installs
// after the schema migrations: editing a file and running the migrate step changes the function in a running database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrationCommand } from "../../../scripts/db.mts";
import { FUNCTIONS_DIR, installFunctions } from "../../../scripts/db-functions.mts";
import { ownDatabase } from "../../helpers/own-database";

const own = ownDatabase("misi_test_fn");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "misi-functions-"));
const source = path.resolve(import.meta.dirname, "../../..", FUNCTIONS_DIR);

let running: pg.Client;

beforeAll(async () => {
  for (const f of fs.readdirSync(source)) fs.copyFileSync(path.join(source, f), path.join(dir, f));
  fs.writeFileSync(
    path.join(dir, "90_probe.sql"),
    `CREATE OR REPLACE FUNCTION misi_probe() RETURNS int LANGUAGE sql STABLE AS $$ SELECT 1 $$;\n`,
  );
  await own.create();
  await runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true, functionsDir: dir });
  // A connection of the running app, open across the deploys below.
  running = new pg.Client({ connectionString: own.url });
  await running.connect();
}, 120_000);

afterAll(async () => {
  await running?.end();
  await own.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const probe = async () => (await running.query(`SELECT misi_probe() AS v`)).rows[0].v;
const overloads = async (fn: string) =>
  (
    await running.query<{ sig: string }>(
      `SELECT oid::regprocedure::text AS sig FROM pg_proc WHERE proname = $1 ORDER BY 1`,
      [fn],
    )
  ).rows.map((r) => r.sig);
const deploy = () => runMigrationCommand("deploy", { databaseUrl: own.url, quiet: true, functionsDir: dir });

describe("the migrate step installs the function files", () => {
  it("installs every file after the migrations, and none again while unchanged", async () => {
    const { rows } = await running.query(`SELECT file FROM "_misi_sql_functions" ORDER BY file`);
    expect(rows.map((r) => r.file)).toEqual(fs.readdirSync(dir).sort());
    expect(await overloads("misi_open_assignments")).toEqual(["misi_open_assignments(text)"]);
    // The start's former signature (created by an older migration) is gone: one definition per function.
    expect(await overloads("misi_start_participant")).toHaveLength(1);
    const again = await installFunctions(own.url, { dir });
    expect(again.installed).toEqual([]);
    console.log(`function install with nothing changed: ${again.ms.toFixed(0)} ms (connect, lock, one read)`);
  });

  it("an edited body changes the function for a connection that is already open, and for its prepared statements", async () => {
    await running.query(`PREPARE probe_stmt AS SELECT misi_probe() AS v`);
    expect((await running.query(`EXECUTE probe_stmt`)).rows[0].v).toBe(1);
    fs.writeFileSync(
      path.join(dir, "90_probe.sql"),
      `CREATE OR REPLACE FUNCTION misi_probe() RETURNS int LANGUAGE sql STABLE AS $$ SELECT 2 $$;\n`,
    );
    await deploy();
    expect(await probe()).toBe(2);
    expect((await running.query(`EXECUTE probe_stmt`)).rows[0].v).toBe(2);
    await running.query(`DEALLOCATE probe_stmt`);
  });

  it("an edit to a real function file reaches the database", async () => {
    const file = path.join(dir, "00_open_assignments.sql");
    fs.writeFileSync(
      file,
      fs.readFileSync(file, "utf8").replace('  FROM "Assignment" a\n', '  FROM "Assignment" a -- edited\n'),
    );
    await deploy();
    const { rows } = await running.query(`SELECT prosrc FROM pg_proc WHERE proname = 'misi_open_assignments'`);
    expect(rows[0].prosrc).toContain("-- edited");
  });

  it("a changed signature or result type replaces the function (no hand-written DROP), a removed file drops it", async () => {
    fs.writeFileSync(
      path.join(dir, "90_probe.sql"),
      `CREATE OR REPLACE FUNCTION misi_probe(p_add int DEFAULT 40) RETURNS text LANGUAGE sql STABLE AS $$ SELECT (2 + p_add)::text $$;\n`,
    );
    await deploy();
    expect(await overloads("misi_probe")).toEqual(["misi_probe(integer)"]);
    expect(await probe()).toBe("42");
    fs.rmSync(path.join(dir, "90_probe.sql"));
    await deploy();
    expect(await overloads("misi_probe")).toEqual([]);
  });

  it("a file that fails is named, and nothing of that deploy is installed", async () => {
    fs.writeFileSync(
      path.join(dir, "90_probe.sql"),
      `CREATE OR REPLACE FUNCTION misi_probe() RETURNS int LANGUAGE sql STABLE AS $$ SELECT 3 $$;\n`,
    );
    fs.writeFileSync(
      path.join(dir, "95_broken.sql"),
      `CREATE OR REPLACE FUNCTION misi_broken() RETURNS int LANGUAGE sql AS $$ SELECT no_such_column FROM "Assignment" $$;\n`,
    );
    await expect(deploy()).rejects.toThrow(/95_broken\.sql: .*no_such_column/);
    expect(await overloads("misi_probe")).toEqual([]);
    fs.rmSync(path.join(dir, "95_broken.sql"));
    await deploy();
    expect(await probe()).toBe(3);
  });
});
