import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

// `npm run db:seed` on a database that was never migrated: it fails and says which command to run first.
const admin = new URL(process.env.DATABASE_URL!);
admin.pathname = "/postgres";
const name = `seed_empty_${randomBytes(4).toString("hex")}`;

afterAll(async () => {
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name}`);
  await c.end();
});

describe("db:seed before the first migration", () => {
  it("exits with 1 and names `npm run db:migrate`", async () => {
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const url = new URL(admin.toString());
    url.pathname = `/${name}`;
    const out = await run("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/seed.mts"], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        NEXTAUTH_SECRET: "seed-test-secret-0123456789abcdef",
        ADMIN_EMAIL: "admin@seed.test",
        ADMIN_PASSWORD: "seed-test-password",
        SEED_DEMO: "0",
      },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(
      "Seeding failed: the database has no tables yet. Run `npm run db:migrate` first, then `npm run db:seed` again.",
    );
  }, 60_000);
});
