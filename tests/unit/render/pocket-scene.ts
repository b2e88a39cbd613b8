/**
 * Test/bench helper: a real pocket + ligand from a shared PDB file, cut with a plain distance rule
 * and bonded by covalent radii. Stands in for lib/molecule's complex preparation and bond perception
 * so the renderer's tests don't depend on them; the renderer itself only takes bonds as input.
 */
import { readFileSync } from "node:fs";
import { covalentRadiusOf } from "@/lib/molecule/chemistry/elements";
import { parsePdb } from "@/lib/molecule/parse";
import { formatParseError } from "@/lib/molecule/parse/parse-result";
import type { Atom, Bond } from "@/lib/molecule/types";
import { sharedStructurePath } from "../../helpers/shared-data";

/** Bonded when closer than the sum of covalent radii plus this tolerance (a common perception rule). */
const BOND_TOLERANCE_A = 0.45;
const MIN_BOND_LENGTH_A = 0.4;

export interface PocketComplex {
  ligand: Atom[];
  pocket: Atom[];
  /** Bonds by index into ligand ++ pocket. */
  bonds: Bond[];
}

/** Distance-based bonds over all pairs (fine for a few hundred atoms in a test). */
export function perceiveBondsByDistance(atoms: readonly Atom[]): Bond[] {
  const bonds: Bond[] = [];
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    for (let j = i + 1; j < atoms.length; j++) {
      const b = atoms[j]!;
      const d = Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
      if (d > MIN_BOND_LENGTH_A && d < covalentRadiusOf(a.element) + covalentRadiusOf(b.element) + BOND_TOLERANCE_A) {
        bonds.push({ a: i, b: j, order: 1 });
      }
    }
  }
  return bonds;
}

/**
 * Ligand = every heavy atom of residue `ligandResName`; pocket = every heavy atom of each protein
 * residue (ATOM records) with at least one atom within `cutoffA` of a ligand atom.
 */
export function loadPocketComplex(file: string[], ligandResName: string, cutoffA: number): PocketComplex {
  const parsed = parsePdb(readFileSync(sharedStructurePath(...file), "utf8"), file.join("/"));
  if (!parsed.ok) throw new Error(formatParseError(parsed.error));
  const heavy = parsed.structure.atoms.filter((a) => a.element !== "H");
  const ligand = heavy.filter((a) => a.resName === ligandResName);
  if (ligand.length === 0) throw new Error(`${file.join("/")}: no ${ligandResName} atoms`);
  const cutoff2 = cutoffA * cutoffA;
  const residueId = (a: Atom) => `${a.chain}:${a.resSeq}${a.iCode}`;
  const near = new Set<string>();
  for (const a of heavy) {
    if (a.hetero) continue;
    if (ligand.some((l) => (l.x - a.x) ** 2 + (l.y - a.y) ** 2 + (l.z - a.z) ** 2 <= cutoff2)) near.add(residueId(a));
  }
  const pocket = heavy.filter((a) => !a.hetero && near.has(residueId(a)));
  return { ligand, pocket, bonds: perceiveBondsByDistance([...ligand, ...pocket]) };
}
