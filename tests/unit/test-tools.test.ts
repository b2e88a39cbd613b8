// How `npm test` finds its browser and nginx (scripts/test-tools.mts): Debian's Chromium first, then Playwright's own
// (installed by the runner when missing), else one line saying what to install; nginx from NGINX_PATH, /usr/sbin or PATH.
import { describe, expect, it } from "vitest";
import { findBrowser, findNginx, type BrowserDeps } from "../../scripts/test-tools.mts";

const MANAGED = "/home/u/.cache/ms-playwright/chromium-1/chrome-linux64/chrome";

function deps(present: string[], installWorks: boolean | string): BrowserDeps & { installs: number } {
  const files = new Set(present);
  const d = {
    installs: 0,
    managedPath: () => MANAGED,
    install: () => {
      d.installs++;
      if (installWorks === true) {
        files.add(MANAGED);
        return null;
      }
      return typeof installWorks === "string" ? installWorks : "exit 1";
    },
    exists: (f: string) => files.has(f),
  };
  return d;
}

describe("findBrowser", () => {
  it("uses Debian's chromium where it is (or CHROMIUM_PATH), without installing anything", () => {
    const d = deps(["/usr/bin/chromium", MANAGED, "/opt/chrome"], true);
    expect(findBrowser({}, d)).toEqual({ ok: true, path: "/usr/bin/chromium", note: "Debian's chromium" });
    expect(findBrowser({ CHROMIUM_PATH: "/opt/chrome" }, d)).toEqual({
      ok: true,
      path: "/opt/chrome",
      note: "CHROMIUM_PATH",
    });
    expect(d.installs).toBe(0);
  });

  it("a CHROMIUM_PATH that does not exist is one clear line", () => {
    const r = findBrowser({ CHROMIUM_PATH: "/nowhere/chrome" }, deps([], true));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toContain("CHROMIUM_PATH=/nowhere/chrome does not exist");
      expect(r.message).toContain("apt-get install chromium");
      expect(r.message).not.toContain("\n");
    }
  });

  it("without a system Chromium: Playwright's own, installed when missing", () => {
    const env = {};
    const has = deps([MANAGED], false);
    expect(findBrowser(env, has)).toEqual({ ok: true, path: MANAGED, note: "Playwright's chromium" });
    expect(has.installs).toBe(0);
    const fresh = deps([], true);
    expect(findBrowser(env, fresh)).toEqual({ ok: true, path: MANAGED, note: "Playwright's chromium, installed now" });
    expect(fresh.installs).toBe(1);
    const offline = findBrowser(env, deps([], "exit 1"));
    expect(offline.ok).toBe(false);
    if (!offline.ok) {
      expect(offline.message).toMatch(
        /^No browser for the browser tests: .*playwright install chromium` failed \(exit 1\).*apt-get install chromium.*SKIP_E2E=1/,
      );
      expect(offline.message).not.toContain("\n");
    }
  });
});

describe("findNginx", () => {
  it("NGINX_PATH, else /usr/sbin, else PATH", () => {
    expect(findNginx({ NGINX_PATH: "/opt/nginx" }, (f) => f === "/opt/nginx")).toMatchObject({
      ok: true,
      path: "/opt/nginx",
    });
    expect(findNginx({ PATH: "/usr/bin" }, (f) => f === "/usr/sbin/nginx")).toMatchObject({
      ok: true,
      path: "/usr/sbin/nginx",
    });
    expect(findNginx({ PATH: "/a:/usr/local/bin" }, (f) => f === "/usr/local/bin/nginx")).toMatchObject({
      ok: true,
      path: "/usr/local/bin/nginx",
    });
  });

  it("missing nginx is a failure naming the Debian package, never a skip", () => {
    const r = findNginx({ PATH: "/usr/bin:/bin" }, () => false);
    expect(r).toEqual({
      ok: false,
      message: expect.stringContaining("install Debian's nginx package (apt-get install nginx)"),
    });
    const wrong = findNginx({ NGINX_PATH: "/x/nginx" }, () => false);
    expect(wrong.ok).toBe(false);
  });
});
