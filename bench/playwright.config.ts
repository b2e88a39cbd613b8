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
  // No Playwright trace here: recording one (the e2e config's retain-on-failure) screencasts every frame the page
  // presents, which in SwiftShader cost as much as the 3D view itself (≈ 10 → 26+ fps turning the largest demo pocket,
  // docs/decisions/0011-3d-view-software-gl.md). A participant's browser records nothing.
  use: { ...base.use, trace: "off" },
  webServer: { ...webServer, cwd: root },
});
