import path from "node:path";

/**
 * Public-domain (wwPDB, CC0) complexes shipped with the app for the demo study; where each came from:
 * docs/decisions/0006-demo-study-at-first-start.md. Generate a demo bundle with
 * `npm run generate -- --structures prisma/demo/structures --tasks all --per-task 5 --seed demo --out <dir>`.
 */
export const DEMO_STRUCTURES_DIR = path.resolve(import.meta.dirname, "structures");

/** The demo complexes: file name, PDB id, and the ligand `prepareComplex` picks automatically. */
export const DEMO_STRUCTURES = [
  { file: "3aid.pdb", pdbId: "3aid", ligand: "ARQ:A:401" },
  { file: "3mht.pdb", pdbId: "3mht", ligand: "SAH:A:328" },
] as const;
