import fs from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { SHARED_DIR_VARIABLE, sharedStructuresDir } from "./shared-location";

/**
 * Real structure files shared between projects, read in place (never copied into the repo).
 * The repo and `shared/` are siblings: /work/main beside /work/shared locally, `<clone>/../shared` in CI;
 * MISI_SHARED_DIR points elsewhere. Without the folder, tests that need it are skipped, never failed
 * (see tests/helpers/shared-location.ts and scripts/test-all.mts).
 */
export const SHARED_STRUCTURES_DIR = sharedStructuresDir();
export const SHARED_AVAILABLE = fs.existsSync(SHARED_STRUCTURES_DIR);
export const SHARED_SKIP_NOTE = `needs ${SHARED_STRUCTURES_DIR} (set ${SHARED_DIR_VARIABLE} to the shared/ folder)`;

/** `it` for a test that reads the shared structures: skipped, with the reason in its name, when they are absent. */
export const itWithShared = SHARED_AVAILABLE
  ? it
  : (name: string, ..._rest: unknown[]) => it.skip(`${name} — ${SHARED_SKIP_NOTE}`, () => {});
/** `describe` whose tests all read the shared structures (only inside tests, not while collecting). */
export const describeWithShared = describe.skipIf(!SHARED_AVAILABLE);

/** Absolute path of a file under the shared structures folder, e.g. sharedStructurePath("plip-test-pdb", "1n7g.pdb"). */
export function sharedStructurePath(...parts: string[]): string {
  return path.join(SHARED_STRUCTURES_DIR, ...parts);
}

/** PDBbind-style pairs under posebusters-conftest/: folder, protein PDB, separate ligand file (SDF or MOL2). */
export const SPLIT_COMPLEXES: readonly (readonly [string, string, string])[] = [
  ["1G9V_RQ3", "1G9V_RQ3_protein.pdb", "1G9V_RQ3_ligand.sdf"],
  ["1IA1_TQ3", "1IA1_TQ3_no_ligand_no_solvent.pdb", "1IA1_TQ3_ligand.sdf"],
  ["1W1P_GIO", "1W1P_GIO_protein.pdb", "1W1P_GIO_ligand.sdf"],
  ["1s3v", "1s3v_protein_one_lig_removed.pdb", "1s3v_ligand.sdf"],
  ["1uou", "1uou_protein_one_lig_removed.pdb", "1uou_ligand.sdf"],
  ["5ze6", "5ze6_cond.pdb", "5ze6_true.mol2"],
  ["7ECR_SIN", "7ECR_SIN_protein.pdb", "7ECR_SIN_ligand.sdf"],
  ["7ZTL_BCN", "7ZTL_BCN_protein.pdb", "7ZTL_BCN_ligand.sdf"],
  ["misc", "mol_2bm2_protein_one_ligand_removed.pdb", "mol_2bm2_ligand.sdf"],
];

/** Ligands named by the literature table of the data README (PLIP's test suite); other entries use the automatic choice. */
export const LITERATURE_LIGANDS: Readonly<Record<string, string>> = {
  "1osn": "BVP:A:500",
  "1vsn": "NFT:A:283",
  "1bma": "0QH:A:256",
  "4qnb": "1B0:A:301",
  "1n7g": "NDP:A:701",
  "4alw": "HY7:A:1308",
  "3r0t": "FU9:A:338",
  "1aku": "FMN:A:150",
  "4pjt": "2YQ:D:1104",
  "2efj": "37T:A:502",
  "2iuz": "D1H:A:1440",
  "3shy": "5FO:A:1",
  "4rdl": "FUC:A:601",
  "1bju": "GP6:A:910",
  "1hii": "C20:B:101",
  "1hpx": "KNI:B:900",
  "3og7": "032:A:1",
};

/**
 * Literature-validated residues from PLIP's test suite (data README): entry, ligand, residue numbers
 * (with the chain appended where the entry needs it) that H-bond the ligand.
 */
export const LITERATURE_RESIDUES: readonly (readonly [string, string, readonly string[]])[] = [
  ["1osn", "BVP:A:500", ["90"]],
  ["1vsn", "NFT:A:283", ["66"]],
  ["1bma", "0QH:A:256", ["200", "224"]],
  ["4qnb", "1B0:A:301", ["57", "70"]],
  ["1n7g", "NDP:A:701", ["37", "38", "39", "40", "63", "92", "115", "117", "185", "189", "215", "220"]],
  ["4alw", "HY7:A:1308", ["186"]],
  ["3r0t", "FU9:A:338", ["116"]],
  ["1aku", "FMN:A:150", ["59"]],
  ["4pjt", "2YQ:D:1104", ["863"]],
  ["2efj", "37T:A:502", ["237"]],
  ["2iuz", "D1H:A:1440", ["137", "138"]],
  ["3shy", "5FO:A:1", ["817"]],
  ["4rdl", "FUC:A:601", ["347", "348", "395"]],
  ["1bju", "GP6:A:910", ["189A", "195A"]],
  ["1hii", "C20:B:101", ["27A", "27B", "29A", "48A", "48B"]],
  ["1hpx", "KNI:B:900", ["25A", "27B", "29B", "48B"]],
  ["3og7", "032:A:1", ["594A"]],
];
