// `npm test`'s own PostgreSQL (scripts/test-database.mts): the real runner (scripts/test-all.mts) is started with a
// temporary embedded server and then stopped the ways a run ends early: SIGTERM, and SIGKILL of its whole process group
// (nothing of the runner can clean up). Either way nothing may stay listening on the server's port and its temp folder
// must be gone. A keeper killed with SIGKILL takes the server down with it; the next run removes the folder it left.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  startTemporaryServer,
  sweepStaleTestDatabases,
  TEMP_PREFIX,
  unusableReason,
} from "../../scripts/test-database.mts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "misi-runner-test-"));
const started: ChildProcess[] = [];

afterAll(() => {
  for (const p of started) {
    try {
      process.kill(-p.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The runner as `npm test` starts it, with a temporary server forced and temp folders under this test's own folder. */
function startRunner(): { proc: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_EMBEDDED_DB: "1", SKIP_E2E: "1", TMPDIR: tmp };
  delete env.TEST_DATABASE_URL;
  // Its own process group, as in a terminal: a SIGKILL to the group kills the runner and its current step at once.
  const proc = spawn(process.execPath, ["--import", "tsx", "scripts/test-all.mts"], {
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(proc);
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  return { proc, output: () => out };
}

async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false,
  timeoutMs = 90_000,
  detail = () => "",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The temporary server the runner announced in its first lines: its URL and folder. */
async function announcedServer(output: () => string): Promise<{ url: string; port: number; dir: string }> {
  const m = await waitFor(
    "the runner's Database line",
    () => /Database: temporary embedded PostgreSQL at (\S+) \(data in (\S+), removed at the end/.exec(output()),
    120_000,
    output,
  );
  expect(await unusableReason(m[1]!)).toBeNull(); // it really serves
  return { url: m[1]!, port: Number(new URL(m[1]!).port), dir: m[2]! };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function expectGone(server: { port: number; dir: string }) {
  const until = Date.now() + 60_000;
  while ((fs.existsSync(server.dir) || (await listening(server.port))) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 200));
  expect(await listening(server.port), `something still listens on ${server.port}`).toBe(false);
  expect(fs.existsSync(server.dir), `${server.dir} still exists`).toBe(false);
}

describe("npm test's temporary PostgreSQL", () => {
  it(
    "the runner names it in its first lines and removes it when stopped with SIGTERM mid-run",
    { timeout: 180_000 },
    async () => {
      const runner = startRunner();
      const server = await announcedServer(runner.output);
      const firstLines = runner.output().split("\n").slice(0, 3).join("\n");
      expect(firstLines).toContain("Database: temporary embedded PostgreSQL");
      await waitFor("the first step", () => runner.output().includes("━━ typecheck"), 60_000, runner.output);
      const exit = new Promise<number | null>((r) => runner.proc.once("exit", (code) => r(code)));
      process.kill(runner.proc.pid!, "SIGTERM");
      expect(await exit).toBe(143);
      expect(runner.output()).toMatch(/\d+ passed, [1-9]\d* failed, \d+ skipped\s*$/);
      await expectGone(server);
    },
  );

  it(
    "a SIGKILL of the runner's whole process group still leaves nothing listening and no folder",
    { timeout: 180_000 },
    async () => {
      const runner = startRunner();
      const server = await announcedServer(runner.output);
      const exit = new Promise((r) => runner.proc.once("exit", r));
      process.kill(-runner.proc.pid!, "SIGKILL");
      await exit;
      await expectGone(server);
    },
  );

  it(
    "a keeper killed with SIGKILL takes its server down; the next run's sweep removes the folder it left",
    { timeout: 120_000 },
    async () => {
      const previous = process.env.TMPDIR;
      process.env.TMPDIR = tmp; // os.tmpdir() for the keeper this process starts
      let db: Awaited<ReturnType<typeof startTemporaryServer>>;
      try {
        db = await startTemporaryServer();
      } finally {
        if (previous === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = previous;
      }
      expect(path.basename(db.dir!)).toMatch(new RegExp(`^${TEMP_PREFIX}`));
      expect(await unusableReason(db.url)).toBeNull();
      expect(sweepStaleTestDatabases(() => {}, tmp)).toEqual([]); // a live keeper's folder is left alone
      process.kill(db.keeperPid!, "SIGKILL");
      if (process.platform === "linux") {
        // The server gets SIGQUIT when its parent (the keeper) dies: nothing listens even before any sweep.
        await waitFor("the server to stop", () => !fs.existsSync(`/proc/${db.serverPid}`), 30_000);
        expect(await listening(db.port!)).toBe(false);
      }
      expect(fs.existsSync(db.dir!)).toBe(true);
      await waitFor("the keeper to be reaped", () => !fs.existsSync(`/proc/${db.keeperPid}`), 10_000);
      expect(sweepStaleTestDatabases(() => {}, tmp)).toEqual([db.dir]);
      await expectGone({ port: db.port!, dir: db.dir! });
    },
  );

  it("stop() on a normal end: the server is stopped and its folder removed", { timeout: 120_000 }, async () => {
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    let db: Awaited<ReturnType<typeof startTemporaryServer>>;
    try {
      db = await startTemporaryServer();
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    expect(await unusableReason(db.url)).toBeNull();
    await db.stop();
    await expectGone({ port: db.port!, dir: db.dir! });
  });
});
