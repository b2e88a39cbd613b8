/**
 * Complex preparation as in MiSI-Bench (PDBbind-style pocket + ligand): pick the ligand, cut the
 * pocket (whole residues with any heavy atom within a distance of any ligand heavy atom), and drop
 * waters and hydrogens. Works on one PDB file (ligand named or chosen automatically) or on a protein
 * file plus a separate ligand file (PDBbind's protein/ligand split).
 */
import type { Atom, Bond, ResidueKey, Structure } from "./types";
import { formatResidueId, isSameResidue, parseResidueId, residueKeyOf, residueKeyText } from "./types";
import { createSpatialGrid, findNeighbours } from "./geometry/spatial-grid";
import { isAminoAcid, isBuffer, isCofactor, isIon, isPolymerResidueName, isSugar, isWater } from "./chemistry/residues";
import { covalentRadiusOf } from "./chemistry/elements";
import { COVALENT_TOLERANCE_A, isMetal } from "./chemistry/bonds";

/** PDBbind pockets and MiSI-Bench use residues within 10 Å of the ligand. */
export const DEFAULT_POCKET_CUTOFF_A = 10;
/** Peptide C–N is 1.33 Å; 2.0 Å still links a strained or low-resolution chain, never a contact. */
const PEPTIDE_LINK_MAX_A = 2.0;
/** A protein-file residue whose atoms sit on the ligand file's atoms is the ligand itself. */
const SAME_ATOM_MAX_A = 0.5;
/** Longest covalent link looked for between hetero residues (I–I: 1.39 + 1.39 + 0.45 Å). */
const LINK_SEARCH_A = 3.3;
/** A candidate with no protein heavy atom this close sits at a crystal contact or in solvent, not in a pocket. */
export const POCKET_CONTACT_A = 4.5;

export type ResidueKind = "polymer" | "water" | "ion" | "buffer" | "sugar" | "ligand";

export interface ResidueGroup {
  key: ResidueKey;
  /** "RES:CHAIN:NUM" */
  id: string;
  kind: ResidueKind;
  /** Indices into the structure's atoms, file order. */
  atomIndices: number[];
  heavyAtomCount: number;
}

/** Residues of a structure in file order, each classified (see ResidueKind). */
export function listResidues(structure: Structure): ResidueGroup[] {
  const { atoms } = structure;
  const groups = new Map<string, ResidueGroup>();
  atoms.forEach((atom, i) => {
    const k = residueKeyText(atom);
    let g = groups.get(k);
    if (!g) {
      const key = residueKeyOf(atom);
      g = { key, id: formatResidueId(key), kind: "ligand", atomIndices: [], heavyAtomCount: 0 };
      groups.set(k, g);
    }
    g.atomIndices.push(i);
    if (atom.element !== "H") g.heavyAtomCount += 1;
  });
  const list = [...groups.values()];

  // Backbone atoms by chain and number, to recognise modified residues linked into a chain.
  const backbone = new Map<string, Atom[]>();
  for (const atom of atoms) {
    if (atom.name !== "C" && atom.name !== "N") continue;
    const k = `${atom.chain}|${atom.resSeq}`;
    const l = backbone.get(k);
    if (l) l.push(atom);
    else backbone.set(k, [atom]);
  }
  const isPeptideLinked = (g: ResidueGroup): boolean => {
    for (const i of g.atomIndices) {
      const a = atoms[i]!;
      if (a.name !== "C" && a.name !== "N") continue;
      const partnerName = a.name === "C" ? "N" : "C";
      for (const seq of [g.key.resSeq - 1, g.key.resSeq, g.key.resSeq + 1]) {
        for (const b of backbone.get(`${g.key.chain}|${seq}`) ?? []) {
          if (b.name !== partnerName || (b.resSeq === a.resSeq && b.iCode === a.iCode && b.resName === a.resName))
            continue;
          if (Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) <= PEPTIDE_LINK_MAX_A) return true;
        }
      }
    }
    return false;
  };

  // A free amino acid (HETATM records, not linked into a chain) is a ligand, e.g. the arginine of a NOS or a
  // transporter; amino acids in ATOM records stay polymer even at a chain break.
  const isFreeAminoAcid = (g: ResidueGroup) =>
    isAminoAcid(g.key.resName) && g.atomIndices.every((i) => atoms[i]!.hetero) && !isPeptideLinked(g);

  for (const g of list) {
    const name = g.key.resName;
    if (isWater(name)) g.kind = "water";
    else if (isFreeAminoAcid(g)) g.kind = "ligand";
    else if (isPolymerResidueName(name)) g.kind = "polymer";
    else if (isIon(name) || g.heavyAtomCount === 1) g.kind = "ion";
    else if (isBuffer(name)) g.kind = "buffer";
    else if (isSugar(name)) g.kind = "sugar";
    else if (isPeptideLinked(g)) g.kind = "polymer";
    else g.kind = "ligand";
  }
  return list;
}

/** A ligand: one residue plus the non-polymer residues covalently linked to it (e.g. a glycan chain). */
export interface LigandCandidate {
  /** "RES:CHAIN:NUM" of the first residue in file order (PLIP names linked ligands the same way). */
  id: string;
  residues: ResidueGroup[];
  heavyAtomCount: number;
}

/**
 * Groups non-polymer, non-water, non-ion residues that are covalently linked (any heavy-atom pair
 * within the sum of covalent radii + 0.45 Å) into ligand candidates, in file order. A pair with a metal atom
 * never links: an azole on a heme iron is coordinated, not part of the heme, and must stay its own candidate.
 */
export function listLigandCandidates(
  structure: Structure,
  residues: ResidueGroup[] = listResidues(structure),
): LigandCandidate[] {
  const hetero = residues.filter((g) => g.kind === "ligand" || g.kind === "sugar" || g.kind === "buffer");
  const parent = hetero.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner: number[] = [];
  const points: Atom[] = [];
  hetero.forEach((g, gi) => {
    for (const i of g.atomIndices) {
      const a = structure.atoms[i]!;
      if (a.element === "H") continue;
      owner.push(gi);
      points.push(a);
    }
  });
  const grid = createSpatialGrid(points, LINK_SEARCH_A);
  points.forEach((a, k) => {
    for (const m of findNeighbours(grid, a, LINK_SEARCH_A)) {
      if (owner[m] === owner[k]) continue;
      const b = points[m]!;
      if (isMetal(a.element) || isMetal(b.element)) continue;
      const limit = covalentRadiusOf(a.element) + covalentRadiusOf(b.element) + COVALENT_TOLERANCE_A;
      if (Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) <= limit) parent[find(owner[k]!)] = find(owner[m]!);
    }
  });
  const clusters = new Map<number, ResidueGroup[]>();
  hetero.forEach((g, gi) => {
    const root = find(gi);
    const list = clusters.get(root);
    if (list) list.push(g);
    else clusters.set(root, [g]);
  });
  return [...clusters.values()].map((list) => ({
    id: list[0]!.id,
    residues: list,
    heavyAtomCount: list.reduce((n, g) => n + g.heavyAtomCount, 0),
  }));
}

export interface ChooseLigandOptions {
  /** "RES:CHAIN:NUM"; when absent the largest ligand-like candidate is taken. */
  ligandId?: string;
  /** Let sugar-only candidates compete in the automatic choice (glycans are skipped by default). */
  includeSugars?: boolean;
  /** Include hetero residues covalently linked to the ligand (default true, as PLIP does). */
  includeLinkedResidues?: boolean;
}

export type ChooseLigandResult =
  | { ok: true; residues: ResidueGroup[]; id: string; how: "named" | "largest"; reason: string }
  | { ok: false; reason: string };

/** How a chemist ranks a candidate as the ligand of interest: drug-like first, then a free amino acid, then a cofactor. */
type CandidateClass = "drug-like" | "amino acid" | "cofactor";
const CLASS_RANK: Readonly<Record<CandidateClass, number>> = { "drug-like": 0, "amino acid": 1, cofactor: 2 };

function classOf(c: LigandCandidate): CandidateClass {
  const own = c.residues.filter((g) => g.kind === "ligand");
  if (own.length > 0 && own.every((g) => isCofactor(g.key.resName))) return "cofactor";
  if (own.length > 0 && own.every((g) => isAminoAcid(g.key.resName))) return "amino acid";
  return "drug-like";
}

/**
 * The named residue (with its linked hetero residues), or the candidate a chemist would pick: among those that contain
 * a residue that is not polymer, water, ion, buffer or (unless asked) sugar, a drug-like one before a free amino acid
 * before a cofactor or prosthetic group (COFACTOR_RESIDUES), the largest (most heavy atoms) within a class, ties to the
 * first in file order. `reason` says why, naming the candidates passed over.
 */
export function chooseLigand(structure: Structure, options: ChooseLigandOptions = {}): ChooseLigandResult {
  const residues = listResidues(structure);
  const linked = options.includeLinkedResidues ?? true;
  if (options.ligandId !== undefined) {
    const parsed = parseResidueId(options.ligandId);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    const found = residues.find((g) => isSameResidue(g.key, parsed.key));
    if (!found) {
      const hetero = residues.filter((g) => g.kind !== "polymer" && g.kind !== "water").map((g) => g.id);
      return {
        ok: false,
        reason: `${structure.fileName}: no residue ${formatResidueId(parsed.key)}; non-polymer residues: ${hetero.join(", ") || "none"}`,
      };
    }
    const reason = "named by the caller";
    if (!linked) return { ok: true, residues: [found], id: found.id, how: "named", reason };
    const cluster = listLigandCandidates(structure, residues).find((c) => c.residues.includes(found));
    return { ok: true, residues: cluster?.residues ?? [found], id: found.id, how: "named", reason };
  }
  const candidates = linked
    ? listLigandCandidates(structure, residues)
    : residues
        .filter((g) => g.kind === "ligand" || g.kind === "sugar")
        .map((g) => ({ id: g.id, residues: [g], heavyAtomCount: g.heavyAtomCount }));
  const eligible = candidates.filter((c) =>
    c.residues.some((g) => g.kind === "ligand" || (options.includeSugars === true && g.kind === "sugar")),
  );
  const offPocket = candidatesOutsidePockets(structure, residues, eligible);
  // Not in a pocket ranks after every class; within that, the class, then size, then file order.
  const rank = (c: LigandCandidate) => (offPocket.has(c) ? 10 : 0) + CLASS_RANK[classOf(c)];
  let best: LigandCandidate | null = null;
  for (const c of eligible)
    if (!best || rank(c) < rank(best) || (rank(c) === rank(best) && c.heavyAtomCount > best.heavyAtomCount)) best = c;
  if (!best) {
    const skipped = residues
      .filter((g) => g.kind === "sugar" || g.kind === "buffer" || g.kind === "ion")
      .map((g) => `${g.id} (${g.kind})`);
    return {
      ok: false,
      reason: `${structure.fileName}: no ligand candidate (skipped: ${skipped.join(", ") || "nothing"}); name one as RES:CHAIN:NUM${skipped.some((t) => t.endsWith("(sugar)")) ? " or include sugars" : ""}`,
    };
  }
  const chosen = best;
  const offPocketText = `no protein atom within ${POCKET_CONTACT_A} Å`;
  const passedOver = eligible
    .filter((c) => c !== chosen)
    .map(
      (c) => `${c.id} (${classOf(c)}, ${c.heavyAtomCount} heavy atoms${offPocket.has(c) ? `, ${offPocketText}` : ""})`,
    );
  const why: Record<CandidateClass, string> = {
    "drug-like": "the largest drug-like candidate",
    "amino acid": "a free amino acid, the entry's ligand when nothing drug-like is bound",
    cofactor: "only cofactors or prosthetic groups are bound; the largest of them",
  };
  const reason = `${why[classOf(chosen)]} (${chosen.heavyAtomCount} heavy atoms${offPocket.has(chosen) ? `, ${offPocketText}` : ""})${passedOver.length > 0 ? `; passed over: ${passedOver.join(", ")}` : ""}`;
  return { ok: true, residues: chosen.residues, id: chosen.id, how: "largest", reason };
}

/**
 * Candidates with no protein heavy atom within POCKET_CONTACT_A of any of their heavy atoms (a crystal-contact or
 * solvent molecule). Empty when no candidate touches the protein (a file without protein, or all far): nothing to prefer.
 */
function candidatesOutsidePockets(
  structure: Structure,
  residues: readonly ResidueGroup[],
  candidates: readonly LigandCandidate[],
): Set<LigandCandidate> {
  const protein: Atom[] = [];
  for (const g of residues)
    if (g.kind === "polymer")
      for (const i of g.atomIndices) if (structure.atoms[i]!.element !== "H") protein.push(structure.atoms[i]!);
  if (protein.length === 0) return new Set();
  const grid = createSpatialGrid(protein, POCKET_CONTACT_A);
  const touches = (c: LigandCandidate) =>
    c.residues.some((g) =>
      g.atomIndices.some((i) => {
        const a = structure.atoms[i]!;
        return a.element !== "H" && findNeighbours(grid, a, POCKET_CONTACT_A).length > 0;
      }),
    );
  const outside = new Set(candidates.filter((c) => !touches(c)));
  return outside.size === candidates.length ? new Set() : outside;
}

export interface PrepareComplexOptions extends ChooseLigandOptions {
  /** Ligand from its own file (PDBbind-style split); overrides ligandId. */
  ligandStructure?: Structure;
  pocketCutoffA?: number;
  /** Keep non-polymer residues (ions, cofactors, additives) that fall in the pocket. Default true. */
  keepHeteroInPocket?: boolean;
}

export interface PreparedLigand {
  /** Heavy atoms only. */
  atoms: Atom[];
  /** Bonds among `atoms` (file bonds for SDF/MOL2 with orders, none for PDB: perceive them). */
  bonds: Bond[];
  hasBondOrders: boolean;
  /** Hydrogens each heavy atom carried in the file before they were dropped; null if the file had none. */
  hydrogenCounts: (number | null)[];
  /** "RES:CHAIN:NUM" when the ligand came from the complex file, else null. */
  id: string | null;
  /** Every residue of the ligand (linked hetero residues included); empty for a ligand file. */
  residueIds: string[];
  source: "named" | "largest" | "file";
  /** Why this ligand (ChooseLigandResult.reason; "the ligand's own file" for a split complex). */
  reason: string;
}

export interface PreparedComplex {
  ligand: PreparedLigand;
  /** Heavy atoms of whole pocket residues, file order. */
  pocketAtoms: Atom[];
  pocketResidues: ResidueGroup[];
  cutoffA: number;
  notes: string[];
}

export type PrepareComplexResult = { ok: true; complex: PreparedComplex } | { ok: false; reason: string };

/** Heavy atoms, their bonds re-indexed, and hydrogen counts, from a subset of a structure. */
function extractLigand(
  atoms: readonly Atom[],
  indices: readonly number[],
  bonds: readonly Bond[],
): { atoms: Atom[]; bonds: Bond[]; hydrogenCounts: (number | null)[] } {
  const hasHydrogens = indices.some((i) => atoms[i]!.element === "H");
  const newIndex = new Map<number, number>();
  const heavy: Atom[] = [];
  for (const i of indices) {
    if (atoms[i]!.element === "H") continue;
    newIndex.set(i, heavy.length);
    heavy.push(atoms[i]!);
  }
  const hydrogenCounts: (number | null)[] = heavy.map(() => (hasHydrogens ? 0 : null));
  const inSet = new Set(indices);
  const heavyBonds: Bond[] = [];
  for (const b of bonds) {
    if (!inSet.has(b.a) || !inSet.has(b.b)) continue;
    const ia = newIndex.get(b.a);
    const ib = newIndex.get(b.b);
    if (ia !== undefined && ib !== undefined)
      heavyBonds.push({ a: Math.min(ia, ib), b: Math.max(ia, ib), order: b.order });
    else if (ia !== undefined) hydrogenCounts[ia] = (hydrogenCounts[ia] ?? 0) + 1;
    else if (ib !== undefined) hydrogenCounts[ib] = (hydrogenCounts[ib] ?? 0) + 1;
  }
  return { atoms: heavy, bonds: heavyBonds, hydrogenCounts };
}

/** Attaches each hydrogen to its nearest heavy atom (PDB files state no bonds) and counts them. */
function attachHydrogensToNearest(atoms: readonly Atom[], indices: readonly number[]): Bond[] {
  const heavy = indices.filter((i) => atoms[i]!.element !== "H");
  const bonds: Bond[] = [];
  for (const h of indices) {
    const a = atoms[h]!;
    if (a.element !== "H") continue;
    let best = -1;
    let bestD = Infinity;
    for (const j of heavy) {
      const b = atoms[j]!;
      const d = Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
      if (d < bestD) {
        bestD = d;
        best = j;
      }
    }
    // 1.3 Å covers N–H, O–H, C–H (0.96-1.10 Å) with room for coordinate error.
    if (best >= 0 && bestD <= 1.3) bonds.push({ a: Math.min(h, best), b: Math.max(h, best), order: 1 });
  }
  return bonds;
}

/** Picks the ligand, cuts the pocket, drops waters and hydrogens. */
export function prepareComplex(structure: Structure, options: PrepareComplexOptions = {}): PrepareComplexResult {
  const cutoffA = options.pocketCutoffA ?? DEFAULT_POCKET_CUTOFF_A;
  if (!(cutoffA > 0)) return { ok: false, reason: `pocket cutoff must be a positive distance, got ${cutoffA}` };
  const notes: string[] = [];
  const residues = listResidues(structure);
  let ligand: PreparedLigand;
  const excluded = new Set<string>(); // residue ids kept out of the pocket

  if (options.ligandStructure) {
    const ls = options.ligandStructure;
    const all = ls.atoms.map((_, i) => i);
    const bonds = ls.format === "pdb" ? attachHydrogensToNearest(ls.atoms, all) : ls.bonds;
    const extracted = extractLigand(ls.atoms, all, bonds);
    if (extracted.atoms.length === 0) return { ok: false, reason: `${ls.fileName}: the ligand has no heavy atoms` };
    ligand = {
      ...extracted,
      bonds: ls.format === "pdb" ? [] : extracted.bonds,
      hasBondOrders: ls.hasBondOrders,
      id: null,
      residueIds: [],
      source: "file",
      reason: "the ligand's own file",
    };
    // A protein file that still contains this ligand would H-bond the ligand to itself.
    const ligandGrid = createSpatialGrid(ligand.atoms, 2);
    for (const g of residues) {
      if (g.kind === "polymer" || g.kind === "water") continue;
      const overlapping = g.atomIndices.filter(
        (i) => findNeighbours(ligandGrid, structure.atoms[i]!, SAME_ATOM_MAX_A).length > 0,
      );
      if (overlapping.length * 2 >= g.heavyAtomCount && g.heavyAtomCount > 0) {
        excluded.add(g.id);
        notes.push(
          `${g.id} in ${structure.fileName} coincides with the ligand file's atoms and was left out of the pocket`,
        );
      }
    }
  } else {
    const chosen = chooseLigand(structure, options);
    if (!chosen.ok) return { ok: false, reason: chosen.reason };
    for (const g of chosen.residues) excluded.add(g.id);
    const indices = chosen.residues.flatMap((g) => g.atomIndices);
    const bonds = attachHydrogensToNearest(structure.atoms, indices);
    const extracted = extractLigand(structure.atoms, indices, bonds);
    if (extracted.atoms.length === 0) return { ok: false, reason: `${chosen.id} has no heavy atoms` };
    ligand = {
      ...extracted,
      bonds: [],
      hasBondOrders: false,
      id: chosen.id,
      residueIds: chosen.residues.map((g) => g.id),
      source: chosen.how,
      reason: chosen.reason,
    };
    const size = extracted.atoms.length;
    if (chosen.residues.length > 1)
      notes.push(
        `ligand ${chosen.id} includes linked residues ${chosen.residues
          .slice(1)
          .map((g) => g.id)
          .join(", ")}`,
      );
    if (chosen.how === "largest")
      notes.push(
        `ligand chosen automatically: ${chosen.id} (${size} heavy atoms)`,
        `why this ligand: ${chosen.reason}`,
      );
  }

  const keepHetero = options.keepHeteroInPocket ?? true;
  const ligandGrid = createSpatialGrid(ligand.atoms, cutoffA);
  const pocketResidues: ResidueGroup[] = [];
  for (const g of residues) {
    if (excluded.has(g.id) || g.kind === "water") continue;
    if (!keepHetero && g.kind !== "polymer") continue;
    const near = g.atomIndices.some((i) => {
      const a = structure.atoms[i]!;
      return a.element !== "H" && findNeighbours(ligandGrid, a, cutoffA).length > 0;
    });
    if (near) pocketResidues.push(g);
  }
  const pocketAtoms = pocketResidues.flatMap((g) =>
    g.atomIndices.map((i) => structure.atoms[i]!).filter((a) => a.element !== "H"),
  );
  if (pocketAtoms.length === 0) notes.push(`no residue has a heavy atom within ${cutoffA} Å of the ligand`);
  return { ok: true, complex: { ligand, pocketAtoms, pocketResidues, cutoffA, notes } };
}
