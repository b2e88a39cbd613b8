// `npm test`: typecheck, lint, unit + integration tests (real PostgreSQL), production build, Playwright e2e (Debian Chromium),
// the reverse-proxy e2e, then the first-contact test (tests/first-contact: the README's first command in a temporary copy).
// Ends with one plain "N passed, N failed, N skipped" line (CI's log reader does not parse Vitest's or Playwright's
// summaries). A test file that fails to load counts as failed (at least one test); it is never silently gone.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { countPlaywright, countVitest } from "./test-report.mts";
import { filesNeedingShared, SHARED_DIR_VARIABLE, sharedStructuresDir } from "../tests/helpers/shared-location.ts";

const started = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "misi-test-"));
let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];

function run(label: string, cmd: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n━━ ${label}: ${cmd} ${args.join(" ")}`);
  const t = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  console.log(`━━ ${label}: ${r.status === 0 ? "ok" : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

/** A check that is not a test runner (typecheck, lint, build) counts as one passed or failed item. */
function check(label: string, cmd: string, args: string[], env?: Record<string, string>): boolean {
  const ok = run(label, cmd, args, env);
  if (ok) passed++;
  else {
    failed++;
    failures.push(label);
  }
  return ok;
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

// Test files that cannot load without the shared structures are left out by vitest.config.ts: one line each, counted
// as skipped (files, since their tests cannot be listed without loading them).
if (!fs.existsSync(sharedStructuresDir())) {
  const files = filesNeedingShared();
  for (const file of files) console.log(`SKIPPED ${file}: needs ${sharedStructuresDir()} (set ${SHARED_DIR_VARIABLE} to the shared/ folder)`);
  skipped += files.length;
}

check("typecheck", bin("tsc"), ["--noEmit"]);
check("lint", bin("eslint"), [".", "--max-warnings", "0"]);

for (const project of ["unit", "integration"] as const) {
  const out = path.join(tmp, `${project}.json`);
  const ok = run(project, bin("vitest"), ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  countJson(project, out, "vitest", ok);
}

if (process.env.SKIP_E2E !== "1" && check("build", bin("next"), ["build"])) {
  const server = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `misi_e2e_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const out = path.join(tmp, "e2e.json");
  const proxyName = `misi_proxy_${randomBytes(4).toString("hex")}`;
  const proxyUrl = new URL(server);
  proxyUrl.pathname = `/${proxyName}`;
  try {
    const ok = run("e2e", bin("playwright"), ["test"], { CI: "1", E2E_DATABASE_URL: url.toString(), PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    countJson("e2e", out, "playwright", ok);
    // The same build behind a real nginx (tests/proxy): forwarded headers, a participant session and a staff sign-in.
    await admin.query(`CREATE DATABASE ${proxyName}`);
    const proxyOut = path.join(tmp, "proxy.json");
    const proxyOk = run("proxy", bin("playwright"), ["test", "--config", "tests/proxy/playwright.config.ts"], {
      CI: "1",
      PROXY_DATABASE_URL: proxyUrl.toString(),
      PLAYWRIGHT_JSON_OUTPUT_NAME: proxyOut,
    });
    countJson("proxy", proxyOut, "playwright", proxyOk);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${proxyName} WITH (FORCE)`);
    await admin.end();
  }
}

// First contact (tests/first-contact): the README's `npm install && npm run dev` in a temporary copy, in Chromium, on its
// own ports (tests/first-contact/ports.ts). Needs the browser like e2e, so SKIP_E2E=1 leaves it out too.
if (process.env.SKIP_E2E !== "1") {
  const out = path.join(tmp, "first-contact.json");
  const ok = run("first-contact", bin("playwright"), ["test", "--config", "tests/first-contact/playwright.config.ts"], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  countJson("first-contact", out, "playwright", ok);
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(0)} s.${failures.length ? ` Failed: ${failures.join("; ")}` : ""}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
