// The PostgreSQL server `npm test` uses: TEST_DATABASE_URL when set; else a server already answering on the default
// address (127.0.0.1:5432, trust auth, user postgres); else a temporary embedded server (the same npm binaries as
// `npm run dev`) in a fresh temp folder on a free port, removed at the end. TEST_EMBEDDED_DB=1 forces the temporary one.
//
// The temporary server belongs to a keeper process (this file run with `keeper`), started in its own session and tied
// to the test runner by a pipe on its stdin. Whatever ends the runner (normal end, failure, Ctrl-C, SIGTERM, SIGKILL),
// the pipe closes and the keeper stops PostgreSQL and deletes the folder; a Ctrl-C in the terminal never reaches the
// keeper or PostgreSQL directly, so their shutdown is not cut short. On Linux the server also gets SIGQUIT (immediate
// shutdown) if the keeper itself is killed (setpriv --pdeathsig), so nothing is left listening; the folder such a kill
// leaves is removed by the next run (sweepStaleTestDatabases).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";
import { binaries as embeddedBinaries, makeTraversable, runAs as embeddedRunAs } from "./embedded-postgres.mts";

export const DEFAULT_TEST_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";
/** Temp folders of temporary servers start with this (the sweep only ever touches these). */
export const TEMP_PREFIX = "misi-test-db-";
const KEEPER_PID_FILE = "keeper.pid";

export interface TestDatabase {
  /** Maintenance-database URL of the server (tests create their own databases on it). */
  url: string;
  kind: "given" | "running" | "temporary";
  /** One line for the start of the run's output. */
  description: string;
  /** Temporary server only: its folder, port, postmaster PID and keeper PID. */
  dir?: string;
  port?: number;
  serverPid?: number;
  keeperPid?: number;
  /** Stops and removes a temporary server (waits for the keeper to finish); nothing for the others. Idempotent. */
  stop(): Promise<void>;
}

/** Why the server at `url` cannot be used, or null when it can (connects and answers a query within 3 s). */
export async function unusableReason(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (err) {
    return err instanceof Error ? err.message || err.constructor.name : String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The server for this run (see the top of this file). `log` gets a line when a temporary server is being created. */
export async function testDatabase(
  env: NodeJS.ProcessEnv = process.env,
  log: (line: string) => void = () => {},
): Promise<TestDatabase> {
  const none = async () => {};
  if (env.TEST_DATABASE_URL) {
    return {
      url: env.TEST_DATABASE_URL,
      kind: "given",
      description: `Database: ${redact(env.TEST_DATABASE_URL)} (TEST_DATABASE_URL)`,
      stop: none,
    };
  }
  let why = "TEST_EMBEDDED_DB=1";
  if (env.TEST_EMBEDDED_DB !== "1") {
    const reason = await unusableReason(DEFAULT_TEST_SERVER);
    if (reason === null) {
      return {
        url: DEFAULT_TEST_SERVER,
        kind: "running",
        description: `Database: the PostgreSQL server running at ${DEFAULT_TEST_SERVER} (set TEST_DATABASE_URL for another, TEST_EMBEDDED_DB=1 for a temporary one)`,
        stop: none,
      };
    }
    why = `nothing usable at ${DEFAULT_TEST_SERVER}: ${reason}`;
  }
  sweepStaleTestDatabases(log);
  log(`Starting a temporary embedded PostgreSQL (${why})…`);
  const db = await startTemporaryServer();
  db.description = `Database: temporary embedded PostgreSQL at ${db.url} (data in ${db.dir}, removed at the end; ${why})`;
  return db;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}

/** Starts the keeper and waits for its server to accept connections. */
export async function startTemporaryServer(): Promise<TestDatabase> {
  const keeper = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "test-database.mts"), "keeper"],
    {
      // Own session: a Ctrl-C (SIGINT to the terminal's process group) reaches the runner, which then closes the pipe.
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  keeper.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => keeper.once("exit", () => resolve()));
  const info = await new Promise<{ url: string; dir: string; port: number; serverPid: number }>((resolve, reject) => {
    const lines = readline.createInterface({ input: keeper.stdout! });
    lines.once("line", (line) => {
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`the test database keeper said: ${line}\n${stderr}`));
      }
    });
    keeper.once("exit", (code, signal) =>
      reject(new Error(`the temporary PostgreSQL did not start (keeper exit ${code ?? signal}):\n${stderr.trim()}`)),
    );
    keeper.once("error", reject);
  });
  // Keep the keeper's later output visible (a server that dies mid-run says so).
  keeper.stderr!.on("data", (d: Buffer) => process.stderr.write(d));
  let stopping: Promise<void> | null = null;
  return {
    ...info,
    kind: "temporary",
    keeperPid: keeper.pid,
    description: "",
    stop() {
      stopping ??= (async () => {
        keeper.stdin!.end();
        await exited;
      })();
      return stopping;
    },
  };
}

/** A free TCP port on loopback (the kernel's pick; the server retries with another if it loses a race for it). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes temp folders of temporary servers whose keeper is gone (a keeper killed with SIGKILL cannot clean up): stops
 * a server still running in one (immediate shutdown), then deletes the folder. Folders of live keepers are left alone.
 */
export function sweepStaleTestDatabases(log: (line: string) => void = () => {}, tmp = os.tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const dir = path.join(tmp, name);
    try {
      const keeperPid = Number(fs.readFileSync(path.join(dir, KEEPER_PID_FILE), "utf8"));
      if (Number.isInteger(keeperPid) && keeperPid > 0 && alive(keeperPid)) continue;
    } catch {
      // No PID file: a keeper that died before writing it, or one writing it right now; only sweep it when old.
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 60_000) continue;
      } catch {
        continue;
      }
    }
    const pidFile = path.join(dir, "data", "postmaster.pid");
    try {
      const serverPid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
      if (Number.isInteger(serverPid) && serverPid > 0 && alive(serverPid) && isPostgresOf(serverPid, dir))
        process.kill(serverPid, "SIGQUIT");
    } catch {
      /* no server ran in it */
    }
    fs.rmSync(dir, { recursive: true, force: true });
    log(`Removed ${dir}, left by an earlier test run that was killed`);
    removed.push(dir);
  }
  return removed;
}

/** The PID is a postgres process whose command line names this folder (PIDs get reused). */
function isPostgresOf(pid: number, dir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(dir);
  } catch {
    return process.platform !== "linux"; // no /proc to check: trust the PID file
  }
}

/** The keeper: creates, runs and finally removes one temporary server. Prints one JSON line when the server is ready. */
async function keeper() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  fs.writeFileSync(path.join(dir, KEEPER_PID_FILE), String(process.pid));
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  let server: ChildProcess | null = null;
  let done = false;
  const cleanUp = async (code: number) => {
    if (done) return;
    done = true;
    if (server && server.exitCode === null && server.signalCode === null) {
      const gone = new Promise((r) => server!.once("exit", r));
      server.kill("SIGINT"); // fast shutdown: clients are disconnected, nothing is written to disk that matters here
      const timer = setTimeout(() => server?.kill("SIGKILL"), 30_000);
      await gone;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  };
  // The pipe to the runner closes when the runner ends, however it ends.
  process.stdin.on("end", () => void cleanUp(0));
  process.stdin.on("error", () => void cleanUp(0));
  process.stdin.resume();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void cleanUp(0));
  try {
    const bins = embeddedBinaries();
    const user = embeddedRunAs();
    makeTraversable(user, bins.initdb);
    fs.mkdirSync(dataDir, { mode: 0o700 });
    if (user) {
      spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, dir]);
      makeTraversable(user, dataDir);
    }
    const env = { ...process.env, LC_ALL: "C", LANG: "C" };
    const init = spawnSync(
      bins.initdb,
      ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-instructions", "--no-sync"],
      {
        encoding: "utf8",
        env,
        ...(user ?? {}),
      },
    );
    if (init.status !== 0)
      throw new Error(
        `initdb failed (exit ${init.status ?? init.signal}): ${String(init.stderr || init.stdout || init.error?.message).trim()}`,
      );
    const postgres = path.join(path.dirname(bins.initdb), "postgres");
    // A throwaway server: no durability settings (fsync and friends off), loopback only, no Unix socket. Autovacuum on,
    // as in production: the tests see the plans that statistics give (a benchmark that wants none switches it off).
    const settings = [
      "listen_addresses=127.0.0.1",
      "unix_socket_directories=",
      "fsync=off",
      "synchronous_commit=off",
      "full_page_writes=off",
      "max_connections=200",
      "autovacuum=on",
    ];
    const pdeath = process.platform === "linux" && spawnSync("setpriv", ["--help"]).status === 0;
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const args = ["-D", dataDir, "-p", String(port), ...settings.flatMap((s) => ["-c", s])];
      const out = fs.openSync(logFile, "a");
      if (user) fs.fchownSync(out, user.uid, user.gid);
      server = pdeath
        ? spawn("setpriv", ["--pdeathsig", "SIGQUIT", "--", postgres, ...args], {
            stdio: ["ignore", out, out],
            env,
            ...(user ?? {}),
          })
        : spawn(postgres, args, { stdio: ["ignore", out, out], env, ...(user ?? {}) });
      fs.closeSync(out);
      const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
      const started = Date.now();
      let ready = false;
      while (!ready && server.exitCode === null && server.signalCode === null && Date.now() - started < 60_000) {
        ready = (await unusableReason(url)) === null;
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      if (ready) {
        process.stdout.write(`${JSON.stringify({ url, dir, port, serverPid: server.pid })}\n`);
        server.once("exit", (code, signal) => {
          if (done) return;
          process.stderr.write(
            `The temporary PostgreSQL stopped by itself (exit ${code ?? signal}). Its log:\n${tail(logFile)}\n`,
          );
          void cleanUp(1);
        });
        return;
      }
      server.kill("SIGKILL");
      await new Promise((r) =>
        server!.exitCode !== null || server!.signalCode !== null ? r(null) : server!.once("exit", r),
      );
      if (attempt >= 3) throw new Error(`PostgreSQL did not start. Its log:\n${tail(logFile)}`);
    }
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    await cleanUp(1);
  }
}

function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain && process.argv[2] === "keeper") void keeper();
