import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createSentinelStudy, e2eDatabaseUrl } from "./helpers/participant-fixtures";

/**
 * A second production instance (the custom server, .next/misi-server.mjs, as `npm start` runs it) on the suite's
 * database, flooded by participants who retry as soon as a request fails, killed with SIGKILL and restarted: it must
 * answer a health request within 5 s of its restart (it listens before Next has loaded, and sheds participant work
 * while warming up instead of queueing it), and no participant request may get a 5xx other than a shed 503 with
 * Retry-After.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100) + 21;
const ROOT = path.resolve(import.meta.dirname, "../..");

function startInstance(): ChildProcess {
  return spawn(
    process.execPath,
    [path.join(ROOT, ".next/misi-server.mjs"), "--port", String(PORT), "--hostname", "127.0.0.1"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: e2eDatabaseUrl(),
        NEXTAUTH_SECRET: process.env.E2E_SECRET ?? "e2e-secret-not-for-production-0123456789",
        NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
        TRUSTED_PROXY_HOPS: "1",
      },
      stdio: "ignore",
    },
  );
}

async function healthWithin(ms: number): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return Date.now() - t0;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return Infinity;
}

test("a restarted instance answers a health request within 5 s while participants retry", async () => {
  test.setTimeout(180_000);
  const { slug } = await createSentinelStudy({ count: 3 });
  let child = startInstance();
  try {
    expect(await healthWithin(90_000)).toBeLessThan(90_000);
    let running = true;
    const statuses = new Map<string, number>();
    const note = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1);
    const participant = async (i: number) => {
      const xff = `10.77.${i >> 8}.${i & 255}`;
      while (running) {
        try {
          const base = `http://127.0.0.1:${PORT}`;
          const join = await fetch(`${base}/s/${slug}?PROLIFIC_PID=restart-${i}`, {
            redirect: "manual",
            headers: { "X-Forwarded-For": xff },
            signal: AbortSignal.timeout(10_000),
          });
          note(`join ${join.status}${join.status === 503 && join.headers.get("retry-after") ? " shed" : ""}`);
          const cookie = (join.headers.get("set-cookie") ?? "").split(";")[0]!;
          if (!cookie) continue;
          const consent = await fetch(`${base}/api/participant/consent`, {
            method: "POST",
            headers: { Cookie: cookie, "Content-Type": "application/json", "X-Forwarded-For": xff },
            body: JSON.stringify({ accept: true, device: null }),
            signal: AbortSignal.timeout(10_000),
          });
          note(
            `consent ${consent.status}${consent.status === 503 && consent.headers.get("retry-after") ? " shed" : ""}`,
          );
          const session = await fetch(`${base}/api/participant/session`, {
            headers: { Cookie: cookie, "X-Forwarded-For": xff },
            signal: AbortSignal.timeout(10_000),
          });
          note(
            `session ${session.status}${session.status === 503 && session.headers.get("retry-after") ? " shed" : ""}`,
          );
        } catch {
          note("connection failed");
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const flood = Array.from({ length: 100 }, (_, i) => participant(i));
    await new Promise((r) => setTimeout(r, 3000));
    child.kill("SIGKILL");
    await once(child, "exit");
    child = startInstance();
    const elapsed = await healthWithin(30_000);
    await new Promise((r) => setTimeout(r, 3000));
    running = false;
    await Promise.all(flood);
    console.log(
      `restarted instance answered /api/health after ${elapsed} ms; participant responses: ${[...statuses].map(([k, v]) => `${k} ×${v}`).join(", ")}`,
    );
    expect(elapsed).toBeLessThan(5000);
    const fiveHundreds = [...statuses].filter(([k]) => / 5\d\d$/.test(k));
    expect(fiveHundreds).toEqual([]);
  } finally {
    child.kill("SIGKILL");
  }
});
