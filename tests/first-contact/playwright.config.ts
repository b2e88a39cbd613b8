import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

// The first-contact test starts its own servers in a temporary copy of the repo (no webServer here).
export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  timeout: 15 * 60_000,
  workers: 1,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: { launchOptions: base.use?.launchOptions, trace: "retain-on-failure" },
});
