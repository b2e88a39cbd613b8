import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { findStructurePdbId, groupStructureFiles } from "@/lib/import/structure-files";
import { itWithShared, SHARED_STRUCTURES_DIR, sharedStructurePath } from "../../helpers/shared-data";

function listPosebusters(): string[] {
  const root = `${SHARED_STRUCTURES_DIR}/posebusters-conftest`;
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => `${d.parentPath.slice(root.length + 1)}/${d.name}`.replace(/^\//, ""));
}

describe("grouping structure files into complexes", () => {
  itWithShared("pairs the PoseBusters proteins with their ligand files and skips lone ligands", () => {
    const { complexes, skipped } = groupStructureFiles(listPosebusters());
    expect(complexes.map((c) => [c.protein, c.ligand])).toEqual([
      ["1G9V_RQ3/1G9V_RQ3_protein.pdb", "1G9V_RQ3/1G9V_RQ3_ligand.sdf"],
      ["1IA1_TQ3/1IA1_TQ3_no_ligand_no_solvent.pdb", "1IA1_TQ3/1IA1_TQ3_ligand.sdf"],
      ["1W1P_GIO/1W1P_GIO_protein.pdb", "1W1P_GIO/1W1P_GIO_ligand.sdf"],
      ["1s3v/1s3v_protein_one_lig_removed.pdb", "1s3v/1s3v_ligand.sdf"],
      ["1uou/1uou_protein_one_lig_removed.pdb", "1uou/1uou_ligand.sdf"],
      ["5ze6/5ze6_cond.pdb", "5ze6/5ze6_true.mol2"],
      ["7ECR_SIN/7ECR_SIN_protein.pdb", "7ECR_SIN/7ECR_SIN_ligand.sdf"],
      ["7ZTL_BCN/7ZTL_BCN_protein.pdb", "7ZTL_BCN/7ZTL_BCN_ligand.sdf"],
      ["misc/mol_2bm2_protein_one_ligand_removed.pdb", "misc/mol_2bm2_ligand.sdf"],
    ]);
    expect(skipped.map((s) => s.file)).toEqual([
      "1MMV_3AR/1MMV_3AR_crystal.sdf",
      "1OF6_DTY/1OF6_DTY_crystal.sdf",
      "1Q1G_MTI/1Q1G_MTI_crystal.sdf",
      "6YR2_T1C/6YR2_T1C_crystal.sdf",
      "misc/mol_1a30_ligand.mol2",
      "misc/mol_cholesterol.sdf",
    ]);
    expect(skipped.find((s) => s.file === "misc/mol_cholesterol.sdf")?.problem).toBe(
      "ligand file without its protein: no PDB file named like it (1 in its folder) (a complex needs the protein/pocket PDB)",
    );
  });

  it("prefers the pocket over the protein and MOL2 (atom names) over SDF, listing what it left", () => {
    const { complexes } = groupStructureFiles([
      "1abc/1abc_protein.pdb",
      "1abc/1abc_pocket.pdb",
      "1abc/1abc_ligand.sdf",
      "1abc/1abc_ligand.mol2",
      "1abc/readme.txt",
    ]);
    expect(complexes).toEqual([
      {
        protein: "1abc/1abc_pocket.pdb",
        ligand: "1abc/1abc_ligand.mol2",
        unused: ["1abc/1abc_protein.pdb", "1abc/1abc_ligand.sdf"],
      },
    ]);
  });

  it("pairs generic names only when a folder holds one protein and one ligand", () => {
    expect(groupStructureFiles(["x/receptor.pdb", "x/ligand.sdf"]).complexes).toEqual([
      { protein: "x/receptor.pdb", ligand: "x/ligand.sdf", unused: [] },
    ]);
    expect(groupStructureFiles(["a.pdb", "b.pdb"]).complexes).toEqual([
      { protein: "a.pdb", ligand: null, unused: [] },
      { protein: "b.pdb", ligand: null, unused: [] },
    ]);
  });

  itWithShared("reads the PDB id from the HEADER record, else from the names", () => {
    const text = fs.readFileSync(sharedStructurePath("plip-test-pdb", "1acj.pdb"), "utf8");
    expect(findStructurePdbId("renamed.pdb", text)).toBe("1acj");
    expect(findStructurePdbId("1G9V_RQ3/1G9V_RQ3_protein.pdb", "ATOM      1  N   ALA A   1")).toBe("1g9v");
    expect(findStructurePdbId("misc/receptor.pdb", "ATOM")).toBeNull();
  });
});
