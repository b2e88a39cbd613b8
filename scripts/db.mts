// Offline replacement for `prisma migrate dev --create-only | migrate deploy | migrate reset | migrate diff`, plus the
// embedded database's lifecycle (start | stop | status | backup | restore FILE).
// Prisma 7.10's CLI needs a native schema-engine binary downloaded from outside npm; this script uses the
// npm-published @prisma/schema-engine-wasm through driver adapters instead (docs/decisions/0001-migrations-wasm-schema-engine.md).
//   DATABASE_URL set   -> that PostgreSQL server
//   DATABASE_URL unset -> the embedded PostgreSQL server (scripts/embedded-postgres.mts), started when needed;
//                         before migrations run on an existing embedded database, a backup goes to .data/backups/.
// After the schema migrations, deploy and reset install the database functions (scripts/db-functions.mts).
// The shadow database (for `create`) is ALWAYS an in-memory PGlite: adapter-pg 7.10.1's own
// connectToShadowDb() reuses the connection string and would reset the MAIN database.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import { installFunctions } from "./db-functions.mts";
import {
  backupEmbedded,
  embeddedConfig,
  EmbeddedDbError,
  ensureEmbedded,
  listBackups,
  recoveryAdvice,
  restoreEmbedded,
  stopEmbedded,
} from "./embedded-postgres.mts";

/* eslint-disable @typescript-eslint/no-explicit-any -- the wasm engine's glue is untyped */

export interface MigrateResult {
  applied: string[];
}

const root = process.cwd();
const schemaPath = path.join(root, "prisma/schema.prisma");
const migrationsDir = path.join(root, "prisma/migrations");
const filters = { externalTables: [], externalEnums: [] };

// Instantiated once per process: a second instance of the wasm module panics on its first call.
let engineModule: Promise<any> | undefined;
function loadEngineModule(): Promise<any> {
  return (engineModule ??= instantiateEngineModule());
}

async function instantiateEngineModule(): Promise<any> {
  const require = createRequire(import.meta.url);
  const bg: any = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = path.join(
    path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
    "schema_engine_bg.wasm",
  );
  // Node 20 cannot `import` a .wasm ES module, so instantiate by hand with the JS glue as its import object.
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as any).__wbindgen_start();
  return bg;
}

function migrationsList() {
  const dirs = fs.existsSync(migrationsDir)
    ? fs
        .readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((d) => {
      const p = path.join(migrationsDir, d, "migration.sql");
      return {
        path: d,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(p)
            ? { tag: "ok" as const, value: fs.readFileSync(p, "utf8") }
            : { tag: "error" as const, value: "missing" },
        },
      };
    }),
  };
}

/**
 * Two fixes to adapter-pg 7.10.1 for the migration engine:
 * - it cannot type Postgres's internal "char" (OID 18) that the schema describer reads: report it as text;
 * - its executeScript splits a migration on every ";" (inside PL/pgSQL bodies and string literals too) and runs the
 *   pieces one by one: send the script whole instead, as Prisma's native engine does. PostgreSQL's simple-query
 *   protocol runs the statements in order as one implicit transaction, so a migration also applies all or nothing.
 */
function patchAdapter(adapter: any): any {
  if (typeof adapter.executeScript === "function" && adapter.client?.query) {
    adapter.executeScript = async (script: string) => {
      try {
        await adapter.client.query(script);
      } catch (error) {
        adapter.onError(error);
      }
    };
  }
  const performIO = adapter.performIO.bind(adapter);
  adapter.performIO = async (...args: any[]) => {
    const result = await performIO(...args);
    for (const field of result.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
  const startTransaction = adapter.startTransaction?.bind(adapter);
  if (startTransaction)
    adapter.startTransaction = async (...args: any[]) => patchAdapter(await startTransaction(...args));
  return adapter;
}

/** Migration folder names not yet recorded as finished in the database (all of them for an empty database). */
export async function pendingMigrations(databaseUrl: string): Promise<{ pending: string[]; applied: number }> {
  const local = migrationsList().migrationDirectories.map((d) => d.path);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const exists = await client.query(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS ok`);
    if (!exists.rows[0].ok) return { pending: local, applied: 0 };
    const { rows } = await client.query(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Set(rows.map((r) => r.migration_name as string));
    return { pending: local.filter((m) => !done.has(m)), applied: done.size };
  } finally {
    await client.end();
  }
}

/**
 * Runs one migration command against the database at databaseUrl and closes every connection.
 * Exported so tests and the seed script can migrate a database without spawning a process.
 */
export async function runMigrationCommand(
  cmd: "deploy" | "reset" | "create" | "diff",
  options: { databaseUrl: string; name?: string; quiet?: boolean; functionsDir?: string },
): Promise<MigrateResult> {
  const log = options.quiet ? () => {} : (...a: unknown[]) => console.log(...a);
  // Loaded here, not at the top: `db:start` and the CLIs' pre-scripts should not pay for the migration engine.
  const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const toClose: InstanceType<typeof PGlite>[] = [];
  const toEnd: Array<() => Promise<void>> = [];
  const memoryShadow = () => {
    const db = new PGlite();
    toClose.push(db);
    return new PrismaPGlite(db).connect();
  };
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const main = new PrismaPg({ connectionString: options.databaseUrl });
  const factory: any = {
    adapterName: main.adapterName,
    provider: main.provider,
    connect: async () => {
      const adapter = await main.connect();
      toEnd.push(() => adapter.dispose());
      return patchAdapter(adapter);
    },
    connectToShadowDb: memoryShadow,
  };
  const bg = await loadEngineModule();
  const files = [{ path: schemaPath, content: fs.readFileSync(schemaPath, "utf8") }];
  const engine = await bg.SchemaEngine.new(
    { datamodels: files.map((f) => [f.path, f.content]) },
    (line: string) => {
      if (process.env.DEBUG_SE) console.error(line);
    },
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    if (cmd === "create") {
      const name = (options.name ?? "migration").replace(/[^a-zA-Z0-9_]/g, "_");
      const list = migrationsList();
      const from = list.migrationDirectories.length
        ? { tag: "migrations" as const, ...list }
        : { tag: "empty" as const };
      const r = await engine.diff({
        from,
        to: { tag: "schemaDatamodel", files },
        script: true,
        exitCode: true,
        filters,
      });
      if (r.exitCode !== 2) {
        log("No schema changes.");
        return { applied: [] };
      }
      const ts = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
      const dir = path.join(migrationsDir, `${ts}_${name}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "migration.sql"), r.stdout);
      const lock = path.join(migrationsDir, "migration_lock.toml");
      if (!fs.existsSync(lock)) {
        fs.writeFileSync(
          lock,
          `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n`,
        );
      }
      log("Created", path.relative(root, dir));
      return { applied: [] };
    }
    if (cmd === "deploy" || cmd === "reset") {
      if (cmd === "reset") await engine.reset({ filter: filters });
      const r = await engine.applyMigrations({ migrationsList: migrationsList(), filters });
      const applied: string[] = r.appliedMigrationNames;
      log(`Migrations applied: ${applied.length ? applied.join(", ") : "(none pending)"}`);
      // Functions after the schema they use: migrations hold schema only, the function files are the source of truth.
      await installFunctions(options.databaseUrl, { dir: options.functionsDir, log });
      return { applied };
    }
    const r = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      filters,
    });
    process.stdout.write(r.stdout);
    return { applied: [] };
  } finally {
    engine.free?.();
    for (const end of toEnd) await end().catch(() => {});
    for (const db of toClose) await db.close();
  }
}

const USAGE =
  "usage: tsx scripts/db.mts deploy | reset | create <name> | diff | start | stop | status | backup | restore <file>";

/** The database this command works on: DATABASE_URL, else the embedded server (started if needed). */
async function databaseUrl(): Promise<{ url: string; embedded: boolean }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: false };
  const { url } = await ensureEmbedded({ log: (l) => console.log(l) });
  return { url, embedded: true };
}

async function main(cmd: string | undefined, arg: string | undefined): Promise<void> {
  const log = (l: string) => console.log(l);
  switch (cmd) {
    case "start": {
      if (process.env.DATABASE_URL) return console.log("DATABASE_URL is set: no embedded database to start.");
      await ensureEmbedded({ log });
      return;
    }
    case "stop":
      console.log(stopEmbedded() ? "Embedded PostgreSQL stopped." : "Embedded PostgreSQL was not running.");
      return;
    case "status": {
      const cfg = embeddedConfig();
      const backups = listBackups(cfg);
      console.log(
        `data ${cfg.dataDir}\nport ${cfg.port}\nrunning ${fs.existsSync(path.join(cfg.dataDir, "postmaster.pid"))}\nbackups ${backups.length ? backups.join(", ") : "none"}`,
      );
      return;
    }
    case "backup":
      await backupEmbedded("manual", { log });
      return;
    case "restore":
      if (!arg)
        throw new EmbeddedDbError(
          `usage: npm run db:restore -- FILE (backups: ${listBackups(embeddedConfig()).join(", ") || "none"})`,
        );
      await restoreEmbedded(arg, { log });
      return;
    case "deploy": {
      const db = await databaseUrl();
      if (db.embedded) {
        const { pending, applied } = await pendingMigrations(db.url);
        if (pending.length && applied > 0) await backupEmbedded(`before-${pending[0]}`, { log });
      }
      await runMigrationCommand("deploy", { databaseUrl: db.url });
      return;
    }
    case "reset": {
      const db = await databaseUrl();
      if (db.embedded) await backupEmbedded("before-reset", { log });
      await runMigrationCommand("reset", { databaseUrl: db.url });
      return;
    }
    case "create":
    case "diff":
      await runMigrationCommand(cmd, { databaseUrl: (await databaseUrl()).url, name: arg });
      return;
    default:
      console.error(USAGE);
      process.exit(2);
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const [cmd, arg] = process.argv.slice(2);
  main(cmd, arg).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`Database '${cmd}' failed: ${message}`);
    if (!(err instanceof EmbeddedDbError) && !process.env.DATABASE_URL && cmd !== "create" && cmd !== "diff")
      console.error(recoveryAdvice(embeddedConfig()));
    process.exit(1);
  });
}
