import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

// Browser benchmarks (not part of `npm test`): `npm run bench:participant` (builds first).
const root = path.resolve(import.meta.dirname, "..");
const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "*.bench.ts",
  timeout: 180_000,
  reporter: [["list"]],
  webServer: { ...webServer, cwd: root },
});
