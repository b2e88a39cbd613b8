// The embedded database as a newcomer gets it (no DATABASE_URL): one PostgreSQL server per data folder, everything
// else connects over the wire. Proves: many concurrent connections, kill -9 of the server loses no acknowledged
// write and the next start recovers by itself, backups restore exactly, and a start that fails says what to do.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backupEmbedded,
  embeddedConfig,
  EmbeddedDbError,
  ensureEmbedded,
  KEEP_BACKUPS,
  listBackups,
  restoreEmbedded,
  stopEmbedded,
} from "../../scripts/embedded-postgres.mts";
import { runMigrationCommand } from "../../scripts/db.mts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "misi-embedded-"));
const env = {
  ...process.env,
  EMBEDDED_DB_DIR: path.join(root, "postgres"),
  EMBEDDED_DB_PORT: process.env.EMBEDDED_TEST_PORT ?? "4102",
};
const cfg = embeddedConfig(env);

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: cfg.url });
  c.on("error", () => {});
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => {});
  }
}

const count = (sql: string) => withClient(async (c) => Number((await c.query(sql)).rows[0].n));

beforeAll(async () => {
  const first = await ensureEmbedded({ env });
  expect(first.initialised).toBe(true);
  await runMigrationCommand("deploy", { databaseUrl: first.url, quiet: true });
  await withClient((c) => c.query("CREATE TABLE probe (id text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())"));
}, 180_000);

afterAll(() => {
  stopEmbedded(env);
  fs.rmSync(root, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("is already running for a second caller, and refuses a port that belongs to another data folder", async () => {
    expect((await ensureEmbedded({ env })).started).toBe(false);
    const other = { ...env, EMBEDDED_DB_DIR: path.join(root, "other") };
    await expect(ensureEmbedded({ env: other })).rejects.toThrow(/used by another PostgreSQL .*Set EMBEDDED_DB_PORT/);
    expect(fs.existsSync(path.join(root, "other"))).toBe(false);
  });

  it("serves 40 concurrent connections writing in transactions, all committed", async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        withClient(async (c) => {
          for (let j = 0; j < 10; j++) {
            await c.query("BEGIN");
            await c.query("INSERT INTO probe (id) VALUES ($1)", [`c${i}-${j}`]);
            await c.query("COMMIT");
          }
        }),
      ),
    );
    expect(await count("SELECT count(*) AS n FROM probe WHERE id LIKE 'c%'")).toBe(400);
  }, 120_000);

  it("loses no acknowledged write when the server is killed with SIGKILL, and the next start recovers by itself", async () => {
    const acked: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      const c = new pg.Client({ connectionString: cfg.url });
      c.on("error", () => {});
      await c.connect();
      for (let j = 0; !stop; j++) {
        try {
          await c.query("INSERT INTO probe (id) VALUES ($1)", [`k${w}-${j}`]);
          acked.push(`k${w}-${j}`);
        } catch {
          break;
        }
      }
      await c.end().catch(() => {});
    });
    while (acked.length < 200) await new Promise((r) => setTimeout(r, 20));
    const postmaster = Number(fs.readFileSync(path.join(cfg.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(postmaster, "SIGKILL");
    await Promise.allSettled(writers);
    stop = true;
    // Backends die with their postmaster; wait until the port is free.
    for (let i = 0; i < 100; i++) {
      try {
        await withClient((c) => c.query("SELECT 1"));
        await new Promise((r) => setTimeout(r, 100));
      } catch {
        break;
      }
    }

    const again = await ensureEmbedded({ env });
    expect(again.started).toBe(true);
    const rows = await withClient(async (c) =>
      (await c.query("SELECT id FROM probe WHERE id LIKE 'k%'")).rows.map((r) => r.id as string),
    );
    const have = new Set(rows);
    expect(acked.length).toBeGreaterThanOrEqual(200);
    expect(acked.filter((id) => !have.has(id))).toEqual([]);
    expect(fs.readFileSync(cfg.logFile, "utf8")).toMatch(/not properly shut down|automatic recovery/);
  }, 180_000);

  it("backs up the data folder and restores it exactly, keeping the replaced folder", async () => {
    const before = await count("SELECT count(*) AS n FROM probe");
    const file = await backupEmbedded("test", { env });
    expect(listBackups(cfg)[0]).toBe(file);
    await withClient((c) => c.query("INSERT INTO probe (id) VALUES ('after-backup')"));
    expect(await count("SELECT count(*) AS n FROM probe")).toBe(before + 1);

    await restoreEmbedded(file, { env });
    expect(await count("SELECT count(*) AS n FROM probe")).toBe(before);
    expect(await count(`SELECT count(*) AS n FROM "_prisma_migrations"`)).toBeGreaterThan(0);
    expect(fs.readdirSync(root).some((f) => f.startsWith("postgres.before-restore-"))).toBe(true);

    await expect(restoreEmbedded(path.join(root, "nope.tar.gz"), { env })).rejects.toThrow(/No such backup/);
  }, 180_000);

  it("before migrations change the existing database a backup goes to backups/ (last few kept); db:restore brings it back", async () => {
    // A project whose migrations are the repo's plus one new one: what `npm run dev` meets after a `git pull`.
    const project = path.join(root, "project");
    fs.mkdirSync(path.join(project, "prisma"), { recursive: true });
    fs.copyFileSync(path.resolve("prisma/schema.prisma"), path.join(project, "prisma/schema.prisma"));
    fs.cpSync(path.resolve("prisma/migrations"), path.join(project, "prisma/migrations"), { recursive: true });
    const added = "20991231000000_backup_probe";
    fs.mkdirSync(path.join(project, "prisma/migrations", added));
    fs.writeFileSync(
      path.join(project, "prisma/migrations", added, "migration.sql"),
      `CREATE TABLE "backup_probe" (id integer);\n`,
    );
    const cliEnv: NodeJS.ProcessEnv = { ...env };
    delete cliEnv.DATABASE_URL; // the integration setup points it at the suite's server database
    const cli = (...args: string[]) =>
      spawnSync(path.resolve("node_modules/.bin/tsx"), [path.resolve("scripts/db.mts"), ...args], {
        cwd: project,
        env: cliEnv,
        encoding: "utf8",
        timeout: 120_000,
      });
    const probeExists = () =>
      withClient(
        async (c) =>
          (await c.query(`SELECT to_regclass('public.backup_probe') IS NOT NULL AS ok`)).rows[0].ok as boolean,
      );

    await withClient((c) => c.query("INSERT INTO probe (id) VALUES ('before-migration')"));
    const rowsBefore = await count("SELECT count(*) AS n FROM probe");
    const before = listBackups(cfg);
    const deployed = cli("deploy");
    expect(deployed.status, deployed.stdout + deployed.stderr).toBe(0);
    expect(deployed.stdout).toMatch(/Backup of the embedded database: .*before-20991231000000_backup_probe\.tar\.gz/);
    const backup = listBackups(cfg)[0]!;
    expect(before).not.toContain(backup);
    expect(path.basename(backup)).toMatch(new RegExp(`-before-${added}\\.tar\\.gz$`));
    expect(await probeExists()).toBe(true);

    // Nothing pending: no backup.
    const again = cli("deploy");
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(listBackups(cfg)[0]).toBe(backup);

    // `npm run db:restore -- FILE`: the database as it was before the migration, the replaced folder kept beside it.
    await withClient((c) => c.query("INSERT INTO probe (id) VALUES ('after-migration')"));
    const asideBefore = fs.readdirSync(root).filter((f) => f.startsWith("postgres.before-restore-")).length;
    const restored = cli("restore", backup);
    expect(restored.status, restored.stdout + restored.stderr).toBe(0);
    expect(await probeExists()).toBe(false);
    expect(await count("SELECT count(*) AS n FROM probe")).toBe(rowsBefore);
    expect(await count("SELECT count(*) AS n FROM probe WHERE id = 'before-migration'")).toBe(1);
    expect(fs.readdirSync(root).filter((f) => f.startsWith("postgres.before-restore-")).length).toBe(asideBefore + 1);

    // The last KEEP_BACKUPS are kept, the oldest go first.
    const made: string[] = [];
    for (let i = 0; i <= KEEP_BACKUPS; i++) made.push(await backupEmbedded(`keep-${i}`, { env }));
    expect(listBackups(cfg)).toEqual(made.slice(1).reverse());
  }, 300_000);

  it("a start that fails names the log lines and what to do (restore or start over)", async () => {
    const broken = {
      ...env,
      EMBEDDED_DB_DIR: path.join(root, "broken"),
      EMBEDDED_DB_PORT: String(Number(env.EMBEDDED_DB_PORT) + 1),
    };
    const dir = path.join(root, "broken");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "PG_VERSION"), "18\n"); // a cluster folder with everything else missing
    const err = await ensureEmbedded({ env: broken }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddedDbError);
    expect(String((err as Error).message)).toMatch(
      /did not start[\s\S]*Last lines of its log[\s\S]*npm run db:restore|No backup exists/,
    );
    expect(String((err as Error).message)).toMatch(
      /start over with an empty database \(LOSES all studies and responses\)/,
    );
  }, 120_000);
});
