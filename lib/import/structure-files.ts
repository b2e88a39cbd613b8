import path from "node:path/posix";
import type { StructureFormat } from "@/lib/molecule/types";
import { extractPdbId } from "./item-plan";
import type { ReportEntry } from "./report";

/** Extensions of structure files (lib/molecule's parsers). */
const STRUCTURE_EXTENSIONS: Readonly<Record<string, StructureFormat>> = {
  pdb: "pdb",
  ent: "pdb",
  sdf: "sdf",
  sd: "sdf",
  mol: "sdf",
  mol2: "mol2",
};

/** Largest structure file read (the biggest entry in the shared test set, 4pjt, is 1.8 MB). */
export const MAX_STRUCTURE_FILE_BYTES = 50 * 1024 * 1024;

export function structureFormatOf(filePath: string): StructureFormat | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filePath)?.[1]?.toLowerCase();
  return ext ? (STRUCTURE_EXTENSIONS[ext] ?? null) : null;
}

export function isStructureFile(filePath: string): boolean {
  return structureFormatOf(filePath) !== null;
}

/** One complex to import: a PDB file, and the ligand in its own file when the layout splits it (PDBbind, PoseBusters). */
export interface ComplexFiles {
  protein: string;
  ligand: string | null;
  /** Other files of the same complex that were not used (e.g. the SDF beside a MOL2), for the report. */
  unused: string[];
}

/** PDBbind/PoseBusters name suffixes: `1abc_protein.pdb`, `1abc_pocket.pdb`, `1abc_ligand.sdf`. */
const ROLE_SUFFIX =
  /[_-](protein|pocket|receptor|complex|ligand|ligands|crystal|true|cond|no_ligand_no_solvent|protein_one_lig_removed|protein_one_ligand_removed)$/i;

function stemOf(filePath: string): string {
  const base = path.basename(filePath).replace(/\.[^.]+$/, "");
  return base.replace(ROLE_SUFFIX, "").toLowerCase();
}

function isPocket(filePath: string): boolean {
  return /[_-]pocket\.[^.]+$/i.test(filePath);
}

/**
 * Groups structure files into complexes, folder by folder. A ligand file (SDF/MOL2) pairs with the
 * PDB of the same stem (`1abc_ligand.sdf` with `1abc_protein.pdb`), or with the PDB of a folder
 * that holds just one PDB and one ligand. MiSI uses pocket + ligand, so a `_pocket.pdb` wins over a `_protein.pdb`; MOL2 wins over
 * SDF because MOL2 keeps the ligand's atom names (the answers name ligand atoms). A PDB without a
 * ligand file is a complex whose ligand is picked from its HETATM records.
 */
export function groupStructureFiles(files: readonly string[]): { complexes: ComplexFiles[]; skipped: ReportEntry[] } {
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    if (!isStructureFile(f)) continue;
    const dir = path.dirname(f);
    byDir.set(dir, [...(byDir.get(dir) ?? []), f]);
  }
  const complexes: ComplexFiles[] = [];
  const skipped: ReportEntry[] = [];
  // Byte order, not locale order: the same listing gives the same report everywhere.
  for (const [, list] of [...byDir].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sorted = [...list].sort();
    const pdbs = sorted.filter((f) => structureFormatOf(f) === "pdb");
    const ligands = sorted.filter((f) => structureFormatOf(f) !== "pdb");
    const pdbsByStem = new Map<string, string[]>();
    for (const p of pdbs) pdbsByStem.set(stemOf(p), [...(pdbsByStem.get(stemOf(p)) ?? []), p]);
    const ligandsByStem = new Map<string, string[]>();
    for (const l of ligands) ligandsByStem.set(stemOf(l), [...(ligandsByStem.get(stemOf(l)) ?? []), l]);

    // Generic names (`receptor.pdb` + `ligand.sdf`) pair only when the folder holds one of each.
    const loneFolderPair = pdbs.length === 1 && ligandsByStem.size === 1;
    const usedPdbs = new Set<string>();
    for (const [stem, ligs] of ligandsByStem) {
      const sameStem = pdbsByStem.get(stem);
      const partners = sameStem ?? (loneFolderPair ? pdbs : []);
      if (partners.length === 0) {
        for (const l of ligs) {
          const why =
            pdbs.length === 0 ? "no PDB file beside it" : `no PDB file named like it (${pdbs.length} in its folder)`;
          skipped.push({
            file: l,
            line: 0,
            field: "structure",
            problem: `ligand file without its protein: ${why} (a complex needs the protein/pocket PDB)`,
          });
        }
        continue;
      }
      const protein = partners.find(isPocket) ?? partners[0]!;
      const ligand = ligs.find((l) => structureFormatOf(l) === "mol2") ?? ligs[0]!;
      partners.forEach((p) => usedPdbs.add(p));
      complexes.push({
        protein,
        ligand,
        unused: [...partners.filter((p) => p !== protein), ...ligs.filter((l) => l !== ligand)],
      });
    }
    for (const p of pdbs) if (!usedPdbs.has(p)) complexes.push({ protein: p, ligand: null, unused: [] });
  }
  return { complexes, skipped };
}

/** PDB id from the HEADER record (columns 63–66), else from the file or folder name. */
export function findStructurePdbId(filePath: string, text: string): string | null {
  const header = /^HEADER.{56}([0-9][A-Za-z0-9]{3})/m.exec(text.slice(0, 4096));
  if (header) return header[1]!.toLowerCase();
  const segments = filePath.split("/").reverse();
  for (const s of segments) {
    const id = extractPdbId(s.replace(/\.[^.]+$/, ""));
    if (id) return id;
  }
  return null;
}
