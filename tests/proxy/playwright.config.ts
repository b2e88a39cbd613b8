import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

// The production build behind a real nginx (tests/proxy/nginx.mjs) that forwards Host and X-Forwarded-Proto: https.
// scripts/test-all.mts runs it after the e2e suite, on a fresh PostgreSQL database (PROXY_DATABASE_URL).
export const APP_PORT = Number(process.env.PROXY_APP_PORT ?? 3102);
export const PROXY_PORT = Number(process.env.PROXY_PORT ?? 3103);
export const PUBLIC_URL = `http://localhost:${PROXY_PORT}`;
/** Shared by the app (which signs image links) and nginx (which verifies them): IMAGE_URL_SECRET. */
export const IMAGE_URL_SECRET = "proxy-e2e-image-links-not-for-production-0123";
/** The app's cap on one address's participant requests in flight (its default, set here so the tests can read it). */
export const PARTICIPANT_IN_FLIGHT_PER_ADDRESS = 32;
/** Web servers run in the repo root (Playwright's default is this config's folder). */
const ROOT = path.resolve(import.meta.dirname, "../..");

const databaseEnv: Record<string, string> = process.env.PROXY_DATABASE_URL
  ? { DATABASE_URL: process.env.PROXY_DATABASE_URL }
  : { EMBEDDED_DB_DIR: ".data/proxy-e2e", EMBEDDED_DB_PORT: String(APP_PORT + 10_000) };

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  timeout: 180_000,
  expect: { timeout: 15_000 },
  workers: 1,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: { baseURL: PUBLIC_URL, launchOptions: base.use?.launchOptions, trace: "retain-on-failure" },
  webServer: [
    {
      command: `npm run db:migrate && npm run db:seed && node .next/misi-server.mjs --port ${APP_PORT}`,
      url: `http://127.0.0.1:${APP_PORT}/api/health`,
      cwd: ROOT,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: "pipe",
      env: {
        NEXT_TELEMETRY_DISABLED: "1",
        // The one configured public URL: the proxy's, not the port Next binds.
        NEXTAUTH_URL: PUBLIC_URL,
        NEXTAUTH_SECRET: "proxy-e2e-secret-not-for-production-0123",
        ADMIN_EMAIL: "admin@localhost",
        ADMIN_PASSWORD: "proxy-admin-password",
        // nginx appends the client to X-Forwarded-For: one trusted hop (docs/security.md).
        TRUSTED_PROXY_HOPS: "1",
        IMAGE_URL_SECRET,
        PARTICIPANT_IN_FLIGHT_PER_ADDRESS: String(PARTICIPANT_IN_FLIGHT_PER_ADDRESS),
        ...databaseEnv,
      },
    },
    {
      command: `node tests/proxy/nginx.mjs ${PROXY_PORT} ${APP_PORT}`,
      url: `${PUBLIC_URL}/api/health`,
      cwd: ROOT,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { IMAGE_URL_SECRET },
    },
  ],
});
