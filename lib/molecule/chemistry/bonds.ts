/**
 * Bond perception for files without connectivity (PDB). Standard amino acids get their bonds from
 * residue templates (by atom name); everything else is bonded by distance: two atoms are bonded when
 * d ≤ r₁ + r₂ + COVALENT_TOLERANCE_A with Cordero covalent radii, the rule used by Open Babel and
 * RDKit's distance-based perception (tolerance 0.45 Å, see Open Babel `ConnectTheDots`).
 */
import { type Atom, type Bond, residueKeyText } from "../types";
import { covalentRadiusOf } from "./elements";
import { isAminoAcid, templateBondsOf } from "./residues";
import { createSpatialGrid, findNeighbours } from "../geometry/spatial-grid";

export const COVALENT_TOLERANCE_A = 0.45;
/** Closer than this is a clash or a duplicate atom, not a bond. */
export const MIN_BOND_LENGTH_A = 0.4;
/** Template bonds longer than this are broken chains or misplaced atoms, not bonds. */
export const MAX_TEMPLATE_BOND_LENGTH_A = 2.6;

/**
 * Elements that covalent perception leaves unbonded: metals make coordination bonds, which would
 * otherwise make a water or a carboxylate look like an ether or an ester to the donor/acceptor typing.
 */
const NON_METALS: ReadonlySet<string> = new Set([
  "H",
  "He",
  "B",
  "C",
  "N",
  "O",
  "F",
  "Ne",
  "Si",
  "P",
  "S",
  "Cl",
  "Ar",
  "As",
  "Se",
  "Br",
  "Kr",
  "Te",
  "I",
  "Xe",
]);

export function isMetal(element: string): boolean {
  return !NON_METALS.has(element);
}

/** Perceives single bonds (order 1: orders are unknown) between atoms, sorted by (a, b). */
export function perceiveBonds(atoms: readonly Atom[]): Bond[] {
  const residueOf = atoms.map(residueKeyText);
  const bonds = new Map<number, Bond>();
  const n = atoms.length;
  const add = (i: number, j: number) => {
    const a = Math.min(i, j);
    const b = Math.max(i, j);
    bonds.set(a * n + b, { a, b, order: 1 });
  };

  // 1. Templates for amino acids (heavy atoms only).
  const byResidue = new Map<string, number[]>();
  residueOf.forEach((key, i) => {
    const list = byResidue.get(key);
    if (list) list.push(i);
    else byResidue.set(key, [i]);
  });
  const templated = new Set<string>();
  for (const [key, indices] of byResidue) {
    const first = atoms[indices[0]!]!;
    const template = templateBondsOf(first.resName);
    if (!template) continue;
    templated.add(key);
    const byName = new Map<string, number>();
    for (const i of indices) if (atoms[i]!.element !== "H") byName.set(atoms[i]!.name, i);
    for (const [na, nb] of template) {
      const i = byName.get(na);
      const j = byName.get(nb);
      if (i === undefined || j === undefined) continue;
      const p = atoms[i]!;
      const q = atoms[j]!;
      if (Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z) <= MAX_TEMPLATE_BOND_LENGTH_A) add(i, j);
    }
  }

  // 2. Distance rule for everything else, through a grid (no all-pairs scan).
  let maxRadius = 0;
  for (const a of atoms) maxRadius = Math.max(maxRadius, covalentRadiusOf(a.element));
  const grid = createSpatialGrid(atoms, 2 * maxRadius + COVALENT_TOLERANCE_A);
  const bestHydrogenBond = new Map<number, { j: number; d: number }>();
  for (let i = 0; i < n; i++) {
    const p = atoms[i]!;
    if (isMetal(p.element)) continue;
    const ri = covalentRadiusOf(p.element);
    for (const j of findNeighbours(grid, p, ri + maxRadius + COVALENT_TOLERANCE_A)) {
      if (j <= i) continue;
      const q = atoms[j]!;
      if (isMetal(q.element)) continue;
      const d = Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z);
      if (d < MIN_BOND_LENGTH_A || d > ri + covalentRadiusOf(q.element) + COVALENT_TOLERANCE_A) continue;
      const pH = p.element === "H";
      const qH = q.element === "H";
      if (pH && qH) continue;
      if (pH || qH) {
        // A hydrogen has one bond: keep its nearest heavy atom.
        const h = pH ? i : j;
        const heavy = pH ? j : i;
        const best = bestHydrogenBond.get(h);
        if (!best || d < best.d) bestHydrogenBond.set(h, { j: heavy, d });
        continue;
      }
      const sameResidue = residueOf[i] === residueOf[j];
      if (sameResidue && templated.has(residueOf[i]!)) continue; // the template is authoritative
      if (!sameResidue && isAminoAcid(p.resName) && isAminoAcid(q.resName)) {
        // Between amino acids only peptide and disulfide bonds; anything else is a close contact.
        const peptide = (p.name === "C" && q.name === "N") || (p.name === "N" && q.name === "C");
        const disulfide = p.name === "SG" && q.name === "SG";
        if (!peptide && !disulfide) continue;
      }
      add(i, j);
    }
  }
  for (const [h, { j }] of bestHydrogenBond) add(h, j);
  return [...bonds.values()].sort((x, y) => x.a - y.a || x.b - y.b);
}

/** Neighbour lists (atom indices) from a bond list. */
export function buildAdjacency(atomCount: number, bonds: readonly Bond[]): number[][] {
  const adj: number[][] = Array.from({ length: atomCount }, () => []);
  for (const b of bonds) {
    adj[b.a]!.push(b.b);
    adj[b.b]!.push(b.a);
  }
  return adj;
}
