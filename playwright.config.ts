import { defineConfig } from "@playwright/test";
import { chromiumExecutable } from "./tests/helpers/browser";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// scripts/test-all.mts passes a fresh PostgreSQL database; run directly, the suite uses its own embedded database
// folder and port (so it never meets the dev database).
const databaseEnv: Record<string, string> = process.env.E2E_DATABASE_URL
  ? { DATABASE_URL: process.env.E2E_DATABASE_URL }
  : { EMBEDDED_DB_DIR: process.env.E2E_EMBEDDED_DB_DIR ?? ".data/e2e", EMBEDDED_DB_PORT: String(PORT + 10_000) };

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--use-gl=angle",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
      ],
    },
  },
  webServer: {
    command: `npm run db:migrate && npm run db:seed && node .next/misi-server.mjs --port ${PORT}`,
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NEXTAUTH_URL: `http://localhost:${PORT}`,
      NEXTAUTH_SECRET: process.env.E2E_SECRET ?? "e2e-secret-not-for-production-0123456789",
      ADMIN_EMAIL: "admin@e2e.test",
      ADMIN_PASSWORD: "e2e-admin-password",
      // tests/e2e/security.spec.ts acts from its own client addresses through X-Forwarded-For (one trusted hop).
      TRUSTED_PROXY_HOPS: "1",
      ...databaseEnv,
    },
  },
});
