// Offline replacement for `prisma migrate dev --create-only | migrate deploy | migrate reset | migrate diff`.
// Prisma 7.10's CLI needs a native schema-engine binary downloaded from outside npm; this script uses the
// npm-published @prisma/schema-engine-wasm through driver adapters instead (see README, Decisions).
//   DATABASE_URL set   -> @prisma/adapter-pg (real PostgreSQL)
//   DATABASE_URL unset -> embedded PGlite in $PGLITE_DIR (default .data/pglite)
// The shadow database (for `create`) is ALWAYS an in-memory PGlite: adapter-pg 7.10.1's own
// connectToShadowDb() reuses the connection string and would reset the MAIN database.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

/* eslint-disable @typescript-eslint/no-explicit-any -- the wasm engine's glue is untyped */

export interface MigrateResult {
  applied: string[];
}

const root = process.cwd();
const schemaPath = path.join(root, "prisma/schema.prisma");
const migrationsDir = path.join(root, "prisma/migrations");
const filters = { externalTables: [], externalEnums: [] };

async function loadEngineModule(): Promise<any> {
  const require = createRequire(import.meta.url);
  const bg: any = await import("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
  // Node 20 cannot `import` a .wasm ES module, so instantiate by hand with the JS glue as its import object.
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as any).__wbindgen_start();
  return bg;
}

function migrationsList() {
  const dirs = fs.existsSync(migrationsDir)
    ? fs.readdirSync(migrationsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : [];
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((d) => {
      const p = path.join(migrationsDir, d, "migration.sql");
      return {
        path: d,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(p) ? { tag: "ok" as const, value: fs.readFileSync(p, "utf8") } : { tag: "error" as const, value: "missing" },
        },
      };
    }),
  };
}

/** adapter-pg 7.10.1 cannot type Postgres's internal "char" (OID 18) that the schema describer reads: report it as text. */
function patchCharType(adapter: any): any {
  const performIO = adapter.performIO.bind(adapter);
  adapter.performIO = async (...args: any[]) => {
    const result = await performIO(...args);
    for (const field of result.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    return result;
  };
  const startTransaction = adapter.startTransaction?.bind(adapter);
  if (startTransaction) adapter.startTransaction = async (...args: any[]) => patchCharType(await startTransaction(...args));
  return adapter;
}

/**
 * Runs one migration command against DATABASE_URL (or the PGlite at pgliteDir) and closes every connection.
 * Exported so tests and the seed script can migrate a database without spawning a process.
 */
export async function runMigrationCommand(
  cmd: "deploy" | "reset" | "create" | "diff",
  options: { databaseUrl?: string; pgliteDir?: string; name?: string; quiet?: boolean } = {},
): Promise<MigrateResult> {
  const log = options.quiet ? () => {} : (...a: unknown[]) => console.log(...a);
  const toClose: PGlite[] = [];
  const toEnd: Array<() => Promise<void>> = [];
  const memoryShadow = () => {
    const db = new PGlite();
    toClose.push(db);
    return new PrismaPGlite(db).connect();
  };
  let factory: any;
  if (options.databaseUrl) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const main = new PrismaPg({ connectionString: options.databaseUrl });
    factory = {
      adapterName: main.adapterName,
      provider: main.provider,
      connect: async () => {
        const adapter = await main.connect();
        toEnd.push(() => adapter.dispose());
        return patchCharType(adapter);
      },
      connectToShadowDb: memoryShadow,
    };
  } else {
    const dir = options.pgliteDir ?? ".data/pglite";
    fs.mkdirSync(dir, { recursive: true });
    const db = new PGlite(dir);
    toClose.push(db);
    const f = new PrismaPGlite(db);
    factory = { adapterName: f.adapterName, provider: f.provider, connect: () => f.connect(), connectToShadowDb: memoryShadow };
  }
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
      const from = list.migrationDirectories.length ? { tag: "migrations" as const, ...list } : { tag: "empty" as const };
      const r = await engine.diff({ from, to: { tag: "schemaDatamodel", files }, script: true, exitCode: true, filters });
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
        fs.writeFileSync(lock, `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n`);
      }
      log("Created", path.relative(root, dir));
      return { applied: [] };
    }
    if (cmd === "deploy" || cmd === "reset") {
      if (cmd === "reset") await engine.reset({ filter: filters });
      const r = await engine.applyMigrations({ migrationsList: migrationsList(), filters });
      const applied: string[] = r.appliedMigrationNames;
      log(`Migrations applied: ${applied.length ? applied.join(", ") : "(none pending)"}`);
      return { applied };
    }
    const r = await engine.diff({ from: { tag: "empty" }, to: { tag: "schemaDatamodel", files }, script: true, exitCode: null, filters });
    process.stdout.write(r.stdout);
    return { applied: [] };
  } finally {
    engine.free?.();
    for (const end of toEnd) await end().catch(() => {});
    for (const db of toClose) await db.close();
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const [cmd, arg] = process.argv.slice(2);
  if (cmd !== "deploy" && cmd !== "reset" && cmd !== "create" && cmd !== "diff") {
    console.error("usage: tsx scripts/db.mts deploy | reset | create <name> | diff");
    process.exit(2);
  }
  runMigrationCommand(cmd, { databaseUrl: process.env.DATABASE_URL || undefined, pgliteDir: process.env.PGLITE_DIR, name: arg }).catch(
    (err: unknown) => {
      console.error(`Migration '${cmd}' failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
