// The default first admin (admin@localhost, password generated and printed by the seed) must be able to sign in,
// and `npm run user:create -- --update` must repair it. Runs the real seed and CLI as a newcomer would, on a fresh
// database, then signs in through next-auth's credentials provider.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runMigrationCommand } from "../../scripts/db.mts";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `misi_test_staff_${randomBytes(4).toString("hex")}`;
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
const suiteUrl = process.env.DATABASE_URL;

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: SERVER_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function npmRun(args: string[], env: Record<string, string> = {}): string {
  const clean = { ...process.env };
  delete clean.ADMIN_EMAIL;
  delete clean.ADMIN_PASSWORD;
  return execFileSync("npm", ["run", "--silent", ...args], {
    encoding: "utf8",
    env: { ...clean, DATABASE_URL: url.toString(), SEED_DEMO: "0", NODE_ENV: "development", ...env },
  });
}

async function signIn(email: string, password: string) {
  // lib/server/db reads DATABASE_URL once per module instance: load a fresh copy pointed at this test's database.
  const { disconnectDb } = await import("@/lib/server/db");
  await disconnectDb();
  process.env.DATABASE_URL = url.toString();
  vi.resetModules();
  const { getAuthOptions } = await import("@/lib/server/auth");
  const provider = getAuthOptions().providers[0] as unknown as {
    options: {
      authorize: (c: Record<string, string>, req: unknown) => Promise<{ email: string; role: string } | null>;
    };
  };
  try {
    return await provider.options.authorize({ email, password }, { headers: {} });
  } finally {
    const fresh = await import("@/lib/server/db");
    await fresh.disconnectDb();
  }
}

beforeAll(async () => {
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  await runMigrationCommand("deploy", { databaseUrl: url.toString(), quiet: true });
}, 120_000);

afterAll(async () => {
  process.env.DATABASE_URL = suiteUrl;
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
});

describe("default first admin", () => {
  it("signs in with the password the seed prints, and user:create --update repairs it", async () => {
    const out = npmRun(["db:seed"]);
    const printed = /email (\S+)\s+password (\S+)/.exec(out);
    expect(printed, out).not.toBeNull();
    const [, email, password] = printed!;
    expect(email).toBe("admin@localhost");

    expect(await signIn(email!, password!)).toMatchObject({ email: "admin@localhost", role: "admin" });
    expect(await signIn(email!, `${password}x`)).toBeNull();
    // Any case the person types is the same account.
    expect(await signIn("Admin@LocalHost", password!)).toMatchObject({ email: "admin@localhost" });

    const repaired = npmRun([
      "user:create",
      "--",
      "--email",
      "admin@localhost",
      "--role",
      "admin",
      "--update",
      "--reset-password",
    ]);
    const newPassword = /Password \(generated now, shown only once\): (\S+)/.exec(repaired)?.[1];
    expect(newPassword, repaired).toBeTruthy();
    expect(await signIn("admin@localhost", newPassword!)).toMatchObject({ role: "admin" });
    expect(await signIn("admin@localhost", password!)).toBeNull();
  }, 120_000);

  it("user:create refuses an address outside the rule, naming the rule", async () => {
    let message = "";
    try {
      npmRun(["user:create", "--", "--email", "new@bad..host", "--role", "researcher"]);
    } catch (err) {
      message = String((err as { stderr?: string }).stderr);
    }
    expect(message).toMatch(/--email: an email address like name@example\.org or admin@localhost/);
  }, 60_000);
});
