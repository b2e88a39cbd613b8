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
