// `npm test`: typecheck, lint, format check (Prettier), unit + integration tests (real PostgreSQL), production build, Playwright e2e (Chromium),
// the reverse-proxy e2e (nginx), then the first-contact test (tests/first-contact: the README's first command in a
// temporary copy, with its own embedded database as a newcomer's run has).
// The PostgreSQL server comes from scripts/test-database.mts (TEST_DATABASE_URL, else one running on 127.0.0.1:5432,
// else a temporary embedded server removed at the end); the first lines of the output say which. Chromium and nginx
// come from scripts/test-tools.mts; a missing one is a counted failure with one line saying what to install.
// Ends with one plain "N passed, N failed, N skipped" line (CI's log reader does not parse Vitest's or Playwright's
// summaries). A test file that fails to load counts as failed (at least one test); it is never silently gone.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { testDatabase, type TestDatabase } from "./test-database.mts";
import { countPlaywright, countVitest } from "./test-report.mts";
import { findBrowser, findNginx, realBrowserDeps } from "./test-tools.mts";
import { filesNeedingShared, SHARED_DIR_VARIABLE, sharedStructuresDir } from "../tests/helpers/shared-location.ts";

const started = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "misi-test-"));
let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];

let current: ChildProcess | null = null;
let interrupted: NodeJS.Signals | null = null;

/** Runs one step with the terminal attached; resolves with whether it exited 0. After a signal, starts nothing new. */
function run(label: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<boolean> {
  if (interrupted) return new Promise(() => {});
  console.log(`\n━━ ${label}: ${cmd} ${args.join(" ")}`);
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
    current = child;
    const done = (status: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      current = null;
      console.log(
        `━━ ${label}: ${status === 0 ? "ok" : `FAILED (${error ? error.message : `exit ${status ?? signal}`})`} in ${((Date.now() - t) / 1000).toFixed(1)} s`,
      );
      resolve(status === 0);
    };
    child.once("error", (err) => done(null, null, err));
    child.once("exit", (status, signal) => done(status, signal));
  });
}

/** A check that is not a test runner (typecheck, lint, build) counts as one passed or failed item. */
async function check(label: string, cmd: string, args: string[], env?: Record<string, string>): Promise<boolean> {
  const ok = await run(label, cmd, args, env);
  if (ok) passed++;
  else fail(label);
  return ok;
}

/** A step that could not run at all (a missing browser, nginx, database) counts as one failed item. */
function fail(label: string, message?: string) {
  if (message) console.log(`\n━━ ${label}: FAILED: ${message}`);
  failed++;
  failures.push(message ? `${label} (${message})` : label);
}

function countJson(label: string, file: string, kind: "vitest" | "playwright", ok: boolean) {
  if (!fs.existsSync(file)) {
    failed++;
    failures.push(`${label} (no report)`);
    return;
  }
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  const counts = kind === "vitest" ? countVitest(report) : countPlaywright(report);
  for (const line of counts.unloadable) console.log(`FAILED TO LOAD ${line}`);
  const p = counts.passed;
  let f = counts.failed;
  const s = counts.skipped;
  if (!ok && f === 0) f = 1; // the runner failed outside any test (setup, collection)
  passed += p;
  failed += f;
  skipped += s;
  if (f) failures.push(`${label}: ${f} failed`);
}

const bin = (name: string) => path.join("node_modules", ".bin", name);
const browserSteps = process.env.SKIP_E2E !== "1";

async function main(db: TestDatabase) {
  // Test files that cannot load without the shared structures are left out by vitest.config.ts: one line each, counted
  // as skipped (files, since their tests cannot be listed without loading them).
  if (!fs.existsSync(sharedStructuresDir())) {
    const files = filesNeedingShared();
    for (const file of files)
      console.log(`SKIPPED ${file}: needs ${sharedStructuresDir()} (set ${SHARED_DIR_VARIABLE} to the shared/ folder)`);
    skipped += files.length;
  }

  await check("typecheck", bin("tsc"), ["--noEmit"]);
  await check("lint", bin("eslint"), [".", "--max-warnings", "0"]);
  // Prettier names every file that is not formatted as .prettierrc says; `npm run format` rewrites them.
  if (!(await check("format", bin("prettier"), ["--check", "."])))
    console.log("━━ format: run `npm run format` to rewrite the files listed above");

  for (const project of ["unit", "integration"] as const) {
    const out = path.join(tmp, `${project}.json`);
    const ok = await run(
      project,
      bin("vitest"),
      ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
      {
        TEST_DATABASE_URL: db.url,
      },
    );
    countJson(project, out, "vitest", ok);
  }

  if (!browserSteps) return;
  const browser = findBrowser(process.env, realBrowserDeps);
  if (!browser.ok) {
    // Build, e2e, proxy and first contact all need it: one failure, one line saying what to install.
    fail("browser", browser.message);
    return;
  }
  console.log(`\nBrowser: ${browser.path} (${browser.note})`);
  const browserEnv: Record<string, string> = browser.note.startsWith("Playwright")
    ? {}
    : { CHROMIUM_PATH: browser.path };

  if (
    (await check("build", bin("next"), ["build"])) &&
    (await check("server bundle", bin("tsx"), ["scripts/build-server.mts"]))
  ) {
    const name = `misi_e2e_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(db.url);
    url.pathname = `/${name}`;
    const out = path.join(tmp, "e2e.json");
    const proxyName = `misi_proxy_${randomBytes(4).toString("hex")}`;
    const proxyUrl = new URL(db.url);
    proxyUrl.pathname = `/${proxyName}`;
    try {
      const ok = await run("e2e", bin("playwright"), ["test"], {
        CI: "1",
        E2E_DATABASE_URL: url.toString(),
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        ...browserEnv,
      });
      countJson("e2e", out, "playwright", ok);
      // The same build behind a real nginx (tests/proxy): forwarded headers, a participant session and a staff sign-in.
      const nginx = findNginx(process.env);
      if (!nginx.ok) fail("proxy", nginx.message);
      else {
        await admin.query(`CREATE DATABASE ${proxyName}`);
        const proxyOut = path.join(tmp, "proxy.json");
        const proxyOk = await run(
          "proxy",
          bin("playwright"),
          ["test", "--config", "tests/proxy/playwright.config.ts"],
          {
            CI: "1",
            PROXY_DATABASE_URL: proxyUrl.toString(),
            PLAYWRIGHT_JSON_OUTPUT_NAME: proxyOut,
            NGINX_PATH: nginx.path,
            ...browserEnv,
          },
        );
        countJson("proxy", proxyOut, "playwright", proxyOk);
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${proxyName} WITH (FORCE)`);
      await admin.end();
    }
  }

  // First contact (tests/first-contact): the README's `npm install && npm run dev` in a temporary copy, in Chromium, on
  // its own ports (tests/first-contact/ports.ts) and with the embedded database that command starts, as a newcomer's.
  const out = path.join(tmp, "first-contact.json");
  const ok = await run(
    "first-contact",
    bin("playwright"),
    ["test", "--config", "tests/first-contact/playwright.config.ts"],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      ...browserEnv,
    },
  );
  countJson("first-contact", out, "playwright", ok);
}

let db: TestDatabase | null = null;
let finishing: Promise<never> | null = null;

/** Stops the database, removes the temp folder, prints the summary line and exits: once, whatever called it first. */
function finish(code?: number): Promise<never> {
  finishing ??= (async () => {
    await db
      ?.stop()
      .catch((err: unknown) =>
        console.log(`Stopping the test database failed: ${err instanceof Error ? err.message : err}`),
      );
    fs.rmSync(tmp, { recursive: true, force: true });
    console.log(
      `\nTotal time ${((Date.now() - started) / 1000).toFixed(0)} s.${failures.length ? ` Failed: ${failures.join("; ")}` : ""}`,
    );
    console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
    process.exit(code ?? (failed ? 1 : 0));
  })();
  return finishing;
}

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
for (const signal of Object.keys(SIGNAL_CODES) as (keyof typeof SIGNAL_CODES)[]) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = signal;
    console.log(`\n${signal}: stopping the running step, then the test database`);
    void (async () => {
      // A Ctrl-C reaches the step itself (same process group); a signal sent to this process alone is passed on.
      const step = current;
      if (step) {
        const gone = new Promise((r) => step.once("exit", r));
        const term = setTimeout(() => step.kill("SIGTERM"), 10_000);
        const kill = setTimeout(() => step.kill("SIGKILL"), 40_000);
        if (signal !== "SIGINT") step.kill(signal);
        await gone;
        clearTimeout(term);
        clearTimeout(kill);
      }
      fail(`interrupted by ${signal}`);
      await finish(SIGNAL_CODES[signal]);
    })();
  });
}

try {
  db = await testDatabase(process.env, (line) => console.log(line));
  console.log(db.description);
  await main(db);
} catch (err) {
  console.log(`\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  fail(db ? "test run" : "test database", err instanceof Error ? err.message.split("\n")[0] : String(err));
}
await finish();
