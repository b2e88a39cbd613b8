// Where the shared structures live, and which test files cannot even be loaded without them.
// Plain Node (no vitest import): read by vitest.config.ts and scripts/test-all.mts as well as the tests.
import fs from "node:fs";
import path from "node:path";

export const SHARED_DIR_VARIABLE = "MISI_SHARED_DIR";
const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

/** The shared/ folder: $MISI_SHARED_DIR, else the sibling of the repo (../shared). */
export function sharedDir(): string {
  const fromEnv = process.env[SHARED_DIR_VARIABLE];
  return fromEnv ? path.resolve(fromEnv) : path.resolve(REPO_ROOT, "../shared");
}

export function sharedStructuresDir(): string {
  return path.join(sharedDir(), "data/structures");
}

/**
 * A test file whose module-level code reads the shared structures starts with this marker comment. Without the
 * folder such a file cannot be loaded, so vitest.config.ts leaves it out and scripts/test-all.mts counts it as
 * skipped (one line per file). Files that read the folder only inside tests use itWithShared/describeWithShared.
 */
export const NEEDS_SHARED_MARKER = "// needs-shared-structures: whole file";

/** Test files (relative to the repo root) that carry the marker. */
export function filesNeedingShared(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.ts") && fs.readFileSync(full, "utf8").startsWith(NEEDS_SHARED_MARKER)) {
        out.push(path.relative(REPO_ROOT, full));
      }
    }
  };
  walk(path.join(REPO_ROOT, "tests"));
  return out.sort();
}
