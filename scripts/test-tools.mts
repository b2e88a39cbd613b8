// What the browser steps of `npm test` need besides Node: a Chromium and (for the reverse-proxy step) nginx. Each is
// found or, for the browser, installed where the network allows; when it cannot be had the answer is one line saying
// what to install (the step then counts as failed, never silently skipped).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromiumExecutable, DEBIAN_CHROMIUM } from "../tests/helpers/browser.ts";

export type Found = { ok: true; path: string; note: string } | { ok: false; message: string };

export interface BrowserDeps {
  /** Where Playwright's own Chromium is (or would be, once installed). */
  managedPath(): string;
  /** Runs `playwright install chromium`; returns what went wrong, or null. */
  install(): string | null;
  exists(file: string): boolean;
}

export const BROWSER_HELP =
  "install Debian's chromium package (apt-get install chromium), or run `npx playwright install chromium` where the network allows, or set CHROMIUM_PATH; SKIP_E2E=1 leaves the browser steps out";

/** Debian's Chromium (or CHROMIUM_PATH), else Playwright's managed one, installed now if missing. */
export function findBrowser(env: Record<string, string | undefined>, deps: BrowserDeps): Found {
  const chosen = chromiumExecutable(env, deps.exists);
  if (chosen) {
    if (deps.exists(chosen))
      return { ok: true, path: chosen, note: env.CHROMIUM_PATH ? "CHROMIUM_PATH" : "Debian's chromium" };
    return {
      ok: false,
      message: `No browser for the browser tests: CHROMIUM_PATH=${chosen} does not exist; ${BROWSER_HELP}.`,
    };
  }
  const managed = deps.managedPath();
  if (deps.exists(managed)) return { ok: true, path: managed, note: "Playwright's chromium" };
  const failure = deps.install();
  if (failure === null && deps.exists(managed))
    return { ok: true, path: managed, note: "Playwright's chromium, installed now" };
  return {
    ok: false,
    message: `No browser for the browser tests: no ${DEBIAN_CHROMIUM}, and \`playwright install chromium\` failed (${failure ?? "no browser afterwards"}); ${BROWSER_HELP}.`,
  };
}

export const realBrowserDeps: BrowserDeps = {
  managedPath() {
    const r = spawnSync(
      process.execPath,
      ["-e", "import('playwright-core').then((m) => process.stdout.write(m.chromium.executablePath()))"],
      { encoding: "utf8" },
    );
    return r.stdout.trim();
  },
  install() {
    console.log("No Chromium found: running `playwright install chromium`…");
    const r = spawnSync(path.join("node_modules", ".bin", "playwright"), ["install", "chromium"], {
      stdio: "inherit",
      timeout: 15 * 60_000,
    });
    return r.status === 0 ? null : `exit ${r.status ?? r.signal ?? r.error?.message}`;
  },
  exists: (file) => fs.existsSync(file),
};

export const NGINX_HELP = "install Debian's nginx package (apt-get install nginx) or set NGINX_PATH";

/** NGINX_PATH, else nginx in /usr/sbin or on PATH. */
export function findNginx(
  env: Record<string, string | undefined>,
  exists: (file: string) => boolean = fs.existsSync,
): Found {
  if (env.NGINX_PATH) {
    return exists(env.NGINX_PATH)
      ? { ok: true, path: env.NGINX_PATH, note: "NGINX_PATH" }
      : { ok: false, message: `nginx not found: NGINX_PATH=${env.NGINX_PATH} does not exist; ${NGINX_HELP}.` };
  }
  const dirs = ["/usr/sbin", ...(env.PATH ?? "").split(path.delimiter).filter(Boolean)];
  for (const dir of dirs) {
    const file = path.join(dir, "nginx");
    if (exists(file)) return { ok: true, path: file, note: file };
  }
  return { ok: false, message: `nginx not found (the reverse-proxy tests put it in front of the app): ${NGINX_HELP}.` };
}
