import path from "node:path";
import fs from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";
import { filesNeedingShared, sharedStructuresDir } from "./tests/helpers/shared-location";

// Without the shared structures, test files that read them at load time are left out (scripts/test-all.mts counts
// them as skipped and names the folder); tests that read them inside a test skip themselves (tests/helpers/shared-data.ts).
const withoutShared = [
  ...configDefaults.exclude,
  ...(fs.existsSync(sharedStructuresDir()) ? [] : filesNeedingShared()),
];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/helpers/server-only-stub.ts"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          exclude: withoutShared,
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: withoutShared,
          environment: "node",
          globalSetup: ["tests/helpers/integration-global-setup.ts"],
          setupFiles: ["tests/helpers/integration-setup.ts"],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
