import path from "node:path";

/**
 * Real structure files shared between projects, read in place (never copied into the repo).
 * The repo and `shared/` are siblings: /work/main beside /work/shared locally, `<clone>/../shared` in CI.
 */
export const SHARED_STRUCTURES_DIR = path.resolve(import.meta.dirname, "../../../shared/data/structures");

/** Absolute path of a file under the shared structures folder, e.g. sharedStructurePath("plip-test-pdb", "1n7g.pdb"). */
export function sharedStructurePath(...parts: string[]): string {
  return path.join(SHARED_STRUCTURES_DIR, ...parts);
}
