/**
 * Pocket–ligand hydrogen bonds from heavy atoms, after the criteria MiSI-Bench used: ChimeraX
 * `hbonds` (geometric criteria from Mills & Dean, "Three-dimensional hydrogen-bond geometry and
 * probability information from a crystal survey", J. Comput.-Aided Mol. Des. 10 (1996) 607–622,
 * doi:10.1007/BF00134183; hydrogens inferred, not read) with ChimeraX's default relaxation, which
 * MiSI adopted: distance tolerance 0.4 Å and angle tolerance 20°, added to every distance upper
 * bound and subtracted from every angle lower bound.
 *
 * Written from the published description, not from ChimeraX's (LGPL) code. Per the ChimeraX/Chimera
 * FindHBond documentation, each donor/acceptor category has an upper distance bound and one or more
 * angular ranges, and donor hydrogens whose position is fixed by the heavy atoms are placed there,
 * while rotatable ones (O–H, NH3+) may sit anywhere they can reach, so every geometrically possible
 * bond is reported. This module implements that structure:
 *
 * 1. Distance: donor–acceptor heavy-atom distance ≤ MAX_DA[donor element][acceptor element] + slop.
 * 2. Donor angle: with the best inferred hydrogen position (`inferHydrogenDirections`; classes in
 *    chemistry/hbond-typing), D–H···A ≥ minDonorAngleDeg − slop (an optional H···A bound exists,
 *    off by default). Donors without heavy neighbours (water) skip this.
 * 3. Acceptor angle: every heavy neighbour X of the acceptor makes X–A···D ≥ minAcceptorAngleDeg −
 *    slop, and acceptors with one directed lone pair (sp2 ring N, nitrile N, tertiary amine N) have
 *    the donor within maxLonePairDeviationDeg + slop of that lone pair.
 *
 * Base values: Mills & Dean's Tables 5–8 (per donor/acceptor class limits) were not available to us,
 * so the bounds below are the ones their survey and the classic protein criteria agree on:
 * D–H···A ≥ 120° (Baker & Hubbard, Prog. Biophys. Mol. Biol. 44 (1984) 97,
 * doi:10.1016/0079-6107(84)90007-5; McDonald & Thornton, J. Mol. Biol. 238 (1994) 777,
 * doi:10.1006/jmbi.1994.1334), X–A···D ≥ 90° (acceptor-side angles in Mills & Dean's survey
 * cluster between 100° and 180°), and D···A within the "moderate" H-bond range of Jeffrey
 * (An Introduction to Hydrogen Bonding, 1997: 2.5–3.2 Å), 0.1 Å longer for N···N. With the 0.4 Å
 * and 20° relaxations this accepts D···A up to 3.6–3.7 Å, D–H···A down to 100°.
 */
import type { Atom, AtomRef, Bond } from "./types";
import { toAtomRef } from "./types";
import type { PreparedComplex } from "./prepare";
import { buildAdjacency, isMetal, perceiveBonds } from "./chemistry/bonds";
import { NUCLEOTIDES, isAminoAcid } from "./chemistry/residues";
import { type AcceptorGeometry, type DonorGeometry, type PolarType, typePolarAtoms } from "./chemistry/hbond-typing";
import { createSpatialGrid, findNeighbours } from "./geometry/spatial-grid";
import {
  type Vec3,
  addVec,
  angleBetweenDeg,
  crossVec,
  distanceVec,
  dotVec,
  lengthVec,
  normalizeVec,
  scaleVec,
  subtractVec,
} from "./geometry/vec3";

export interface HBondCriteria {
  /** Added to every distance upper bound. ChimeraX default 0.4 Å; MiSI-Bench used 0.4 Å. */
  distSlopA: number;
  /** Subtracted from every angle lower bound (added to deviation bounds). ChimeraX default 20°; MiSI used 20°. */
  angleSlopDeg: number;
  /** Precise donor–acceptor heavy-atom upper bound by donor element, then acceptor element. */
  maxDonorAcceptorA: Readonly<Record<"N" | "O", Readonly<Record<"N" | "O", number>>>>;
  /**
   * Optional H···A upper bound for inferred hydrogens (Baker & Hubbard's 2.5 Å). Off (null) by default:
   * ChimeraX's criteria have one distance bound per category, and with an inferred H the D···A bound
   * plus the D–H···A angle already limit H···A to about 3.0 Å.
   */
  maxHydrogenAcceptorA: number | null;
  /** Precise lower bound of the D–H···A angle (Baker & Hubbard 1984; McDonald & Thornton 1994). */
  minDonorAngleDeg: number;
  /** Precise lower bound of every X–A···D angle at the acceptor. */
  minAcceptorAngleDeg: number;
  /** Precise upper bound of the angle between a directed lone pair and the A→D direction. */
  maxLonePairDeviationDeg: number;
  /** Pairs closer than this are covalent or clashing, never H-bonds. */
  minDonorAcceptorA: number;
}

export const DEFAULT_HBOND_CRITERIA: HBondCriteria = {
  distSlopA: 0.4,
  angleSlopDeg: 20,
  maxDonorAcceptorA: { N: { N: 3.3, O: 3.2 }, O: { N: 3.2, O: 3.2 } },
  maxHydrogenAcceptorA: null,
  minDonorAngleDeg: 120,
  minAcceptorAngleDeg: 90,
  maxLonePairDeviationDeg: 45,
  minDonorAcceptorA: 2.2,
};

/** Metal–N/O coordination bonds are 1.9–2.4 Å (Harding, Acta Cryst. D 2006); 2.8 Å allows for error. */
export const METAL_COORDINATION_MAX_A = 2.8;

/** Neutron-diffraction X–H lengths (Allen et al. 1987): where inferred hydrogens are placed. */
const N_H_BOND_A = 1.01;
const O_H_BOND_A = 0.96;
/** X–D–H angle for a rotatable sp3 hydrogen (tetrahedral). */
const TETRAHEDRAL_DEG = 109.47;

// ---------------------------------------------------------------------------------------------
// Hydrogen directions

export type HydrogenDirections =
  | { kind: "fixed"; directions: Vec3[] }
  | { kind: "cone"; axis: Vec3; angleFromAxisDeg: number }
  | { kind: "free" };

const pos = (a: Atom): Vec3 => [a.x, a.y, a.z];

/**
 * Unit directions from the donor D where its hydrogens can be. `neighbours` are D's heavy-atom
 * neighbours; `planeReference` is another atom bonded to D's single neighbour (it fixes the plane of
 * an sp2 NH2). Fixed directions may list more candidates than hydrogens (one H in two possible
 * places); the finder takes the best, as ChimeraX reports every possible bond.
 */
export function inferHydrogenDirections(
  geometry: DonorGeometry,
  donor: Vec3,
  neighbours: readonly Vec3[],
  planeReference: Vec3 | null,
): HydrogenDirections {
  if (geometry === "free" || neighbours.length === 0) return { kind: "free" };
  const units = neighbours.map((n) => normalizeVec(subtractVec(n, donor)));
  const away = normalizeVec(scaleVec(units.reduce((s, u) => addVec(s, u), [0, 0, 0] as Vec3), -1));
  if (geometry === "sp2") {
    if (units.length >= 2) return { kind: "fixed", directions: [away] };
    // One neighbour X: both in-plane positions at 120° from D→X, plane set by X's other neighbour.
    const u = scaleVec(units[0]!, -1); // X→D direction
    if (planeReference) {
      const r = subtractVec(planeReference, neighbours[0]!);
      const w = normalizeVec(subtractVec(r, scaleVec(u, dotVec(r, u))));
      if (lengthVec(w) > 0) {
        const c = Math.cos(Math.PI / 3);
        const s = Math.sin(Math.PI / 3);
        return { kind: "fixed", directions: [addVec(scaleVec(u, c), scaleVec(w, s)), addVec(scaleVec(u, c), scaleVec(w, -s))] };
      }
    }
    return { kind: "cone", axis: u, angleFromAxisDeg: 60 };
  }
  if (geometry === "sp3" && units.length >= 3) return { kind: "fixed", directions: [away] };
  if (geometry === "sp3" && units.length === 2) {
    // The two remaining tetrahedral positions, either side of the X–D–X plane.
    const n = normalizeVec(crossVec(units[0]!, units[1]!));
    const half = (TETRAHEDRAL_DEG / 2) * (Math.PI / 180);
    return {
      kind: "fixed",
      directions: [addVec(scaleVec(away, Math.cos(half)), scaleVec(n, Math.sin(half))), addVec(scaleVec(away, Math.cos(half)), scaleVec(n, -Math.sin(half)))],
    };
  }
  // Rotor (or sp3 with one neighbour): anywhere on the cone about the X→D axis.
  return { kind: "cone", axis: scaleVec(units[0]!, -1), angleFromAxisDeg: 180 - TETRAHEDRAL_DEG };
}

interface DonorGeometryResult {
  donorAngleDeg: number;
  hydrogenAcceptorA: number;
  hydrogen: Vec3;
}

/** Best hydrogen position for a bond to `acceptor`: largest D–H···A angle among the allowed positions. */
function bestHydrogen(directions: HydrogenDirections, donor: Vec3, acceptor: Vec3, bondLengthA: number): DonorGeometryResult | null {
  if (directions.kind === "free") return null;
  let candidates: Vec3[];
  if (directions.kind === "fixed") candidates = directions.directions;
  else {
    // On a cone, the best H lies in the plane of the axis and the acceptor, on the acceptor's side.
    const a = normalizeVec(subtractVec(acceptor, donor));
    const u = directions.axis;
    let perp = subtractVec(a, scaleVec(u, dotVec(a, u)));
    if (lengthVec(perp) < 1e-9) perp = Math.abs(u[0]) < 0.9 ? crossVec(u, [1, 0, 0]) : crossVec(u, [0, 1, 0]);
    perp = normalizeVec(perp);
    const t = (directions.angleFromAxisDeg * Math.PI) / 180;
    candidates = [addVec(scaleVec(u, Math.cos(t)), scaleVec(perp, Math.sin(t)))];
  }
  let best: DonorGeometryResult | null = null;
  for (const dir of candidates) {
    const h = addVec(donor, scaleVec(dir, bondLengthA));
    const angle = angleBetweenDeg(subtractVec(donor, h), subtractVec(acceptor, h));
    if (!best || angle > best.donorAngleDeg) best = { donorAngleDeg: angle, hydrogenAcceptorA: distanceVec(h, acceptor), hydrogen: h };
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Pair evaluation

export interface PolarSite {
  atom: Atom;
  type: PolarType;
  neighbours: Vec3[];
  /** Another heavy atom bonded to the only neighbour (fixes the plane of sp2 NH2), or null. */
  planeReference: Vec3 | null;
}

export interface PairGeometry {
  distanceA: number;
  hydrogenAcceptorA: number | null;
  donorAngleDeg: number | null;
  acceptorAngleDeg: number | null;
  lonePairDeviationDeg: number | null;
}

function hasDirectedLonePair(geometry: AcceptorGeometry, neighbourCount: number): boolean {
  return (geometry === "sp2-N" && neighbourCount === 2) || geometry === "sp-N" || (geometry === "sp3-N" && neighbourCount === 3);
}

/** Geometry of donor→acceptor and whether it meets the criteria. */
export function evaluateHBond(donor: PolarSite, acceptor: PolarSite, criteria: HBondCriteria = DEFAULT_HBOND_CRITERIA): { accepted: boolean; geometry: PairGeometry } {
  const d = pos(donor.atom);
  const a = pos(acceptor.atom);
  const distanceA = distanceVec(d, a);
  const geometry: PairGeometry = { distanceA, hydrogenAcceptorA: null, donorAngleDeg: null, acceptorAngleDeg: null, lonePairDeviationDeg: null };
  const donorType = donor.type.donor;
  const acceptorType = acceptor.type.acceptor;
  const de = donor.atom.element as "N" | "O";
  const ae = acceptor.atom.element as "N" | "O";
  const maxDA = criteria.maxDonorAcceptorA[de]?.[ae];
  if (!donorType || !acceptorType || maxDA === undefined) return { accepted: false, geometry };
  let accepted = distanceA <= maxDA + criteria.distSlopA && distanceA >= criteria.minDonorAcceptorA;

  const directions = inferHydrogenDirections(donorType.geometry, d, donor.neighbours, donor.planeReference);
  const h = bestHydrogen(directions, d, a, de === "N" ? N_H_BOND_A : O_H_BOND_A);
  if (h) {
    geometry.donorAngleDeg = h.donorAngleDeg;
    geometry.hydrogenAcceptorA = h.hydrogenAcceptorA;
    if (h.donorAngleDeg < criteria.minDonorAngleDeg - criteria.angleSlopDeg) accepted = false;
    if (criteria.maxHydrogenAcceptorA !== null && h.hydrogenAcceptorA > criteria.maxHydrogenAcceptorA + criteria.distSlopA) accepted = false;
  }
  if (acceptor.neighbours.length > 0 && acceptorType.geometry !== "free") {
    const toDonor = subtractVec(d, a);
    let minAngle = 180;
    for (const x of acceptor.neighbours) minAngle = Math.min(minAngle, angleBetweenDeg(subtractVec(x, a), toDonor));
    geometry.acceptorAngleDeg = minAngle;
    if (minAngle < criteria.minAcceptorAngleDeg - criteria.angleSlopDeg) accepted = false;
    if (hasDirectedLonePair(acceptorType.geometry, acceptor.neighbours.length)) {
      const lonePair = scaleVec(acceptor.neighbours.map((x) => normalizeVec(subtractVec(x, a))).reduce((s, u) => addVec(s, u), [0, 0, 0] as Vec3), -1);
      if (lengthVec(lonePair) > 1e-6) {
        geometry.lonePairDeviationDeg = angleBetweenDeg(lonePair, toDonor);
        if (geometry.lonePairDeviationDeg > criteria.maxLonePairDeviationDeg + criteria.angleSlopDeg) accepted = false;
      }
    }
  }
  return { accepted, geometry };
}

// ---------------------------------------------------------------------------------------------
// Finder

export interface HBond {
  donor: AtomRef;
  acceptor: AtomRef;
  proteinAtom: AtomRef;
  ligandAtom: AtomRef;
  /** Which side donates. When both directions qualify (e.g. two hydroxyls) the better one is kept. */
  ligandIsDonor: boolean;
  bothDirections: boolean;
  /** Donor–acceptor heavy-atom distance. */
  distanceA: number;
  /** H···A for the best inferred hydrogen; null for donors without heavy neighbours. */
  hydrogenAcceptorA: number | null;
  /** D–H···A at the best inferred hydrogen; null for donors without heavy neighbours. */
  donorAngleDeg: number | null;
  /** Smallest X–A···D over the acceptor's heavy neighbours; null for a lone acceptor atom. */
  acceptorAngleDeg: number | null;
  donorType: string;
  acceptorType: string;
  /**
   * Whether the protein-side atom belongs to an amino-acid residue (a polymer residue that is not a
   * nucleotide). Answer keys name amino acids only by default (the paper's answer format starts
   * with the amino-acid type); bonds to cofactors, sulfates or other pocket groups are kept here so
   * a caller can ask for them (`partners: "all-pocket-groups"`).
   */
  proteinIsAminoAcid: boolean;
}

/** Which pocket groups an H-bond list names: amino acids only (default) or every pocket group. */
export type HBondPartners = "amino-acids" | "all-pocket-groups";
export const HBOND_PARTNERS = ["amino-acids", "all-pocket-groups"] as const satisfies readonly HBondPartners[];

export interface FindHBondsInput {
  /** Pocket heavy atoms (whole residues). */
  pocketAtoms: readonly Atom[];
  /** Ligand heavy atoms. */
  ligandAtoms: readonly Atom[];
  /** Bonds among ligandAtoms; perceived from distances when empty. */
  ligandBonds?: readonly Bond[];
  ligandHasBondOrders?: boolean;
  /** Hydrogens on each ligand atom in the source file (null: unknown). */
  ligandHydrogenCounts?: readonly (number | null)[];
  criteria?: Partial<HBondCriteria>;
  /** Whether a pocket atom belongs to an amino acid (default: its residue name is a known amino acid). */
  isAminoAcidAtom?: (atom: Atom) => boolean;
}

function buildSites(atoms: readonly Atom[], bonds: readonly Bond[], types: readonly (PolarType | null)[]): (PolarSite | null)[] {
  const adj = buildAdjacency(atoms.length, bonds).map((l) => l.filter((j) => atoms[j]!.element !== "H"));
  return atoms.map((atom, i) => {
    const type = types[i];
    if (!type) return null;
    const nb = adj[i]!;
    let planeReference: Vec3 | null = null;
    if (nb.length === 1) {
      const x = nb[0]!;
      const ref = adj[x]!.find((y) => y !== i);
      if (ref !== undefined) planeReference = pos(atoms[ref]!);
    }
    return { atom, type, neighbours: nb.map((j) => pos(atoms[j]!)), planeReference };
  });
}

/** Code-point order (not localeCompare, whose order depends on the ICU build). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRefs(a: AtomRef, b: AtomRef): number {
  return (
    compareText(a.chain, b.chain) ||
    a.resSeq - b.resSeq ||
    compareText(a.iCode, b.iCode) ||
    compareText(a.resName, b.resName) ||
    compareText(a.name, b.name) ||
    a.serial - b.serial
  );
}

/** Deterministic order: protein atom (chain, number, insertion code, name), then ligand atom. */
export function compareHBonds(a: HBond, b: HBond): number {
  return compareRefs(a.proteinAtom, b.proteinAtom) || compareRefs(a.ligandAtom, b.ligandAtom);
}

export interface PolarSites {
  /** Parallel to the input pocket atoms; null for atoms that neither donate nor accept. */
  pocket: (PolarSite | null)[];
  /** Parallel to the input ligand atoms. */
  ligand: (PolarSite | null)[];
  criteria: HBondCriteria;
}

/** Bonds, donor/acceptor types and neighbour geometry of both sides (what findHBonds evaluates). */
export function preparePolarSites(input: FindHBondsInput): PolarSites {
  const criteria: HBondCriteria = { ...DEFAULT_HBOND_CRITERIA, ...input.criteria };
  const pocketBonds = perceiveBonds(input.pocketAtoms);
  const ligandBonds = input.ligandBonds && input.ligandBonds.length > 0 ? input.ligandBonds : perceiveBonds(input.ligandAtoms);
  const hasOrders = (input.ligandHasBondOrders ?? false) && input.ligandBonds !== undefined && input.ligandBonds.length > 0;
  // Metals on either side (a haem iron in the ligand binds a pocket His; a pocket zinc binds the ligand).
  const metals = [...input.pocketAtoms, ...input.ligandAtoms].filter((a) => isMetal(a.element) && a.element !== "H");
  const metalGrid = createSpatialGrid(metals, METAL_COORDINATION_MAX_A);
  const metalBound = (atoms: readonly Atom[]) => atoms.map((a) => metals.length > 0 && !isMetal(a.element) && findNeighbours(metalGrid, a, METAL_COORDINATION_MAX_A).length > 0);
  const pocket = buildSites(
    input.pocketAtoms,
    pocketBonds,
    typePolarAtoms(input.pocketAtoms, pocketBonds, { hasBondOrders: false, metalBound: metalBound(input.pocketAtoms) }),
  );
  const ligand = buildSites(
    input.ligandAtoms,
    ligandBonds,
    typePolarAtoms(input.ligandAtoms, ligandBonds, {
      hasBondOrders: hasOrders,
      hydrogenCounts: input.ligandHydrogenCounts,
      useResidueTemplates: false,
      metalBound: metalBound(input.ligandAtoms),
    }),
  );
  return { pocket, ligand, criteria };
}

/** All pocket–ligand H-bonds, one per (protein atom, ligand atom) pair, sorted (see compareHBonds). */
export function findHBonds(input: FindHBondsInput): HBond[] {
  const { pocket: pocketSites, ligand: ligandSites, criteria } = preparePolarSites(input);
  const isAminoAcidAtom = input.isAminoAcidAtom ?? ((a: Atom) => isAminoAcid(a.resName));

  let maxReach = 0;
  for (const row of Object.values(criteria.maxDonorAcceptorA)) for (const v of Object.values(row)) maxReach = Math.max(maxReach, v);
  maxReach += criteria.distSlopA;
  const polarPocket = pocketSites.filter((s): s is PolarSite => s !== null);
  const grid = createSpatialGrid(polarPocket.map((s) => s.atom), maxReach);

  const out: HBond[] = [];
  for (const lig of ligandSites) {
    if (!lig) continue;
    for (const k of findNeighbours(grid, lig.atom, maxReach)) {
      const prot = polarPocket[k]!;
      const asAcceptor = evaluateHBond(prot, lig, criteria); // protein donates
      const asDonor = evaluateHBond(lig, prot, criteria); // ligand donates
      if (!asAcceptor.accepted && !asDonor.accepted) continue;
      const both = asAcceptor.accepted && asDonor.accepted;
      const ligandIsDonor = both
        ? (asDonor.geometry.donorAngleDeg ?? 180) > (asAcceptor.geometry.donorAngleDeg ?? 180)
        : asDonor.accepted;
      const g = ligandIsDonor ? asDonor.geometry : asAcceptor.geometry;
      const donor = ligandIsDonor ? lig : prot;
      const acceptor = ligandIsDonor ? prot : lig;
      out.push({
        donor: toAtomRef(donor.atom),
        acceptor: toAtomRef(acceptor.atom),
        proteinAtom: toAtomRef(prot.atom),
        ligandAtom: toAtomRef(lig.atom),
        ligandIsDonor,
        bothDirections: both,
        distanceA: g.distanceA,
        hydrogenAcceptorA: g.hydrogenAcceptorA,
        donorAngleDeg: g.donorAngleDeg,
        acceptorAngleDeg: g.acceptorAngleDeg,
        donorType: donor.type.label,
        acceptorType: acceptor.type.label,
        proteinIsAminoAcid: isAminoAcidAtom(prot.atom),
      });
    }
  }
  return out.sort(compareHBonds);
}

/** "ARG 45 NH2 A, O1B" (MiSI T9): residue, number with insertion code, protein atom, chain; ligand atom. */
export function formatHBondT9(bond: HBond): string {
  const p = bond.proteinAtom;
  const chain = p.chain === "" ? "" : ` ${p.chain}`;
  return `${p.resName} ${p.resSeq}${p.iCode} ${p.name}${chain}, ${bond.ligandAtom.name}`;
}

/** T9 answer text: unique bonds in the deterministic order, joined with "; ". */
export function formatHBondsT9(bonds: readonly HBond[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const b of [...bonds].sort(compareHBonds)) {
    const t = formatHBondT9(b);
    if (seen.has(t)) continue;
    seen.add(t);
    parts.push(t);
  }
  return parts.join("; ");
}

/** Amino-acid residues of a prepared pocket: polymer residues that are not nucleotides. */
function aminoAcidAtomTest(complex: PreparedComplex): (atom: Atom) => boolean {
  const keys = new Set(
    complex.pocketResidues.filter((g) => g.kind === "polymer" && !NUCLEOTIDES.has(g.key.resName)).map((g) => residueKeyText(g.key)),
  );
  return (atom) => keys.has(residueKeyText(atom));
}

function residueKeyText(k: { chain: string; resSeq: number; iCode: string; resName: string }): string {
  return `${k.chain}\u0000${k.resSeq}\u0000${k.iCode}\u0000${k.resName}`;
}

/** Keeps the bonds an answer key may name under the `partners` rule. */
export function filterHBondPartners(bonds: readonly HBond[], partners: HBondPartners): HBond[] {
  return partners === "all-pocket-groups" ? [...bonds] : bonds.filter((b) => b.proteinIsAminoAcid);
}

/**
 * H-bonds between the pocket and the ligand of a prepared complex. By default only bonds to
 * amino-acid residues (what an answer key names); `partners: "all-pocket-groups"` adds bonds to
 * cofactors, ions' ligands, sulfates and other hetero groups in the pocket.
 */
export function findComplexHBonds(complex: PreparedComplex, criteria?: Partial<HBondCriteria>, partners: HBondPartners = "amino-acids"): HBond[] {
  const bonds = findHBonds({
    isAminoAcidAtom: aminoAcidAtomTest(complex),
    pocketAtoms: complex.pocketAtoms,
    ligandAtoms: complex.ligand.atoms,
    ligandBonds: complex.ligand.bonds,
    ligandHasBondOrders: complex.ligand.hasBondOrders,
    ligandHydrogenCounts: complex.ligand.hydrogenCounts,
    criteria,
  });
  return filterHBondPartners(bonds, partners);
}
