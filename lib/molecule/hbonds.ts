/**
 * Pocket–ligand hydrogen bonds with the criteria of UCSF ChimeraX `hbonds` (after Mills & Dean,
 * J. Comput.-Aided Mol. Des. 10 (1996) 607), MiSI-Bench's ground truth, written from
 * ../shared/spec/hbond-criteria.md (the tables are facts; the code is ours):
 *
 * 1. Atom typing (IDATM, spec §6; chemistry/idatm.ts): residue templates for amino acids, bond
 *    orders for SDF/MOL2 ligands, heavy-atom geometry for PDB HETATM ligands and other pocket groups.
 * 2. Acceptor groups A1–A29 and the generic acceptor rules (spec §3), donor groups D1–D18 and the
 *    generic donors (spec §4): the first group that matches an atom fixes its test and parameters.
 * 3. Hydrogens inferred where their position is fixed by the heavy atoms (spec §5.5); rotors
 *    (O–H, NH3+, primary amines) have none, so their theta tests pass and distances fall back to D···A.
 * 4. Geometry tests (spec §5; hbond-geometry.ts) with ChimeraX's default relaxation (`relax true`,
 *    used by MiSI-Bench): +0.4 Å on every distance limit, −20° on every angle minimum, +20° on every
 *    angle maximum (spec §1.4). A donor–acceptor pair is an H-bond when the acceptor test, the donor
 *    test and the metal veto (spec §1.1 step 5) all pass.
 *
 * The prepared complex has no hydrogens (dropped, like the paper's PDBbind pockets given to ChimeraX
 * without added H), so every donor uses inferred hydrogens. Only pocket–ligand pairs are examined.
 */
import type { Atom, AtomRef, Bond } from "./types";
import { toAtomRef } from "./types";
import type { PreparedComplex } from "./prepare";
import { isMetal, perceiveBonds } from "./chemistry/bonds";
import { NUCLEOTIDES, isAminoAcid } from "./chemistry/residues";
import { IDATM_TYPES, type TypedGraph, assignIdatmTypes, isPlanar } from "./chemistry/idatm";
import { createSpatialGrid, findNeighbours } from "./geometry/spatial-grid";
import {
  type AcceptorSite,
  DEFAULT_HBOND_CRITERIA,
  type HBondCriteria,
  STRICT_HBOND_CRITERIA,
  acceptorClassOf,
  genericAcceptorTest,
  genericDonorTest,
  linearPositions,
  oppositeLonePairs,
  phiPsiAcceptorTest,
  synAntiAcceptorTest,
  tauTest,
  tetrahedralPositions,
  thetaTauAcceptorTest,
  thetaTauDonorTest,
  trigonalPositions,
  upsilonTauDonorTest,
  waterDonorTest,
  withSulfurCompensation,
} from "./hbond-geometry";
import { type AcceptorSpec, type DonorSpec, classifyAcceptor, classifyDonor } from "./hbond-groups";
import { ANILINE_ACCEPTOR_TAU, METAL_COORDINATION_RADIUS_A, METAL_VETO_DEG } from "./hbond-tables";
import { type Vec3, angleAtDeg, distanceVec } from "./geometry/vec3";

export { DEFAULT_HBOND_CRITERIA, STRICT_HBOND_CRITERIA, METAL_COORDINATION_RADIUS_A, type HBondCriteria };

/**
 * A planar N this close to a metal is bound to it and carries no hydrogen (a porphyrin N on its iron). Deviation from
 * the spec's donor rule, which looks only at N typed as acceptors: without it the iron-bound pyrrole N of a heme
 * (2q8q NB/ND) are typed as N–H donors to the iron-bound HIS NE2.
 */
const METAL_BOND_A = 2.6;
/** Superset of every candidate search radius of spec §1.3 (3.65 + 0.4 + 1.25 + 0.35 Å). */
const SEARCH_RADIUS_A = 5.7;
/** X–H bond length r(X) + r(H) (spec §0): N, O 0.91 Å; S 1.25 Å. */
const hydrogenBondLength = (element: string) => (element === "S" ? 1.25 : element === "P" ? 1.28 : 0.91);

// ---------------------------------------------------------------------------------------------
// The prepared search: atoms, types, groups, hydrogens

export interface HBondContext {
  atoms: readonly Atom[];
  /** Atoms [0, pocketCount) are the pocket, the rest the ligand. */
  pocketCount: number;
  graph: TypedGraph;
  acceptors: (AcceptorSpec | null)[];
  donors: (DonorSpec | null)[];
  /** Metals within 4 Å of each acceptor (spec §1.1 step 3). */
  metalsOf: number[][];
  slop: HBondCriteria;
}

const pos = (a: Atom): Vec3 => [a.x, a.y, a.z];

function positionsByGeometry(ctx: HBondContext, i: number, geometry: number, L: number): Vec3[] {
  const { atoms, graph } = ctx;
  const c = pos(atoms[i]!);
  const known = graph.adj[i]!.map((j) => pos(atoms[j]!));
  if (geometry === 4) return tetrahedralPositions(c, known, L);
  if (geometry === 2) return linearPositions(c, known, L);
  if (geometry !== 3) return [];
  const coplanar: Vec3[] = [];
  for (const j of graph.adj[i]!) if (isPlanar(graph.types[j]!)) for (const k of graph.adj[j]!) if (k !== i) coplanar.push(pos(atoms[k]!));
  return trigonalPositions(c, known, L, coplanar);
}

const hydrogenCache = new WeakMap<HBondContext, Map<number, Vec3[]>>();

/** The donor's hydrogens: inferred where the heavy atoms fix them, none for rotors and lone-pair atoms (spec §5.5). */
export function donorHydrogens(ctx: HBondContext, i: number): Vec3[] {
  let cache = hydrogenCache.get(ctx);
  if (!cache) hydrogenCache.set(ctx, (cache = new Map()));
  const hit = cache.get(i);
  if (hit) return hit;
  const t = ctx.graph.types[i]!;
  const info = IDATM_TYPES[t];
  const k = ctx.graph.adj[i]!.length;
  let out: Vec3[] = [];
  if (info && k > 0 && k < info.substituents && !(k === 1 && info.geometry === 4) && info.geometry - info.substituents <= 0) {
    out = positionsByGeometry(ctx, i, info.geometry, hydrogenBondLength(ctx.atoms[i]!.element)).slice(0, info.substituents - k);
  }
  cache.set(i, out);
  return out;
}

/** "Hydrogen or lone pair" positions of a tau axis atom X plus its other heavy neighbours (spec §5.3 step 3). */
function tauSubstituents(ctx: HBondContext, x: number, centre: number): Vec3[] {
  const info = IDATM_TYPES[ctx.graph.types[x]!];
  const k = ctx.graph.adj[x]!.length;
  const computed = info && k > 0 && k < info.geometry && !(k === 1 && info.geometry === 4) ? positionsByGeometry(ctx, x, info.geometry, hydrogenBondLength(ctx.atoms[x]!.element)) : [];
  return [...computed, ...ctx.graph.adj[x]!.filter((j) => j !== centre).map((j) => pos(ctx.atoms[j]!))];
}

/** Types, groups and metal screen of pocket + ligand (what findHBonds evaluates). */
export function prepareHBondContext(input: FindHBondsInput): HBondContext {
  const criteria: HBondCriteria = { ...DEFAULT_HBOND_CRITERIA, ...input.criteria };
  const pocketCount = input.pocketAtoms.length;
  const atoms = [...input.pocketAtoms, ...input.ligandAtoms];
  const ligandBonds = input.ligandBonds && input.ligandBonds.length > 0 ? input.ligandBonds : perceiveBonds(input.ligandAtoms);
  const hasOrders = (input.ligandHasBondOrders ?? false) && input.ligandBonds !== undefined && input.ligandBonds.length > 0;
  const bonds: Bond[] = [...perceiveBonds(input.pocketAtoms), ...ligandBonds.map((b) => ({ a: b.a + pocketCount, b: b.b + pocketCount, order: b.order }))];
  const graph = assignIdatmTypes({
    atoms,
    bonds,
    bondOrderAtoms: hasOrders ? new Set(input.ligandAtoms.map((_, k) => k + pocketCount)) : undefined,
    hydrogenCounts: [...input.pocketAtoms.map(() => null), ...(input.ligandHydrogenCounts ?? input.ligandAtoms.map(() => null))],
  });
  const acceptors = atoms.map((_, i) => classifyAcceptor(graph, atoms, i));
  const metals = atoms.map((a, i) => (isMetal(a.element) && a.element !== "H" ? i : -1)).filter((i) => i >= 0);
  const metalGrid = createSpatialGrid(metals.map((i) => atoms[i]!), METAL_COORDINATION_RADIUS_A);
  const metalsOf = atoms.map((a, i) =>
    acceptors[i] && metals.length > 0
      ? findNeighbours(metalGrid, a, METAL_COORDINATION_RADIUS_A).map((k) => metals[k]!).filter((m) => distanceVec(pos(atoms[m]!), pos(a)) <= METAL_COORDINATION_RADIUS_A)
      : [],
  );
  const boundToMetal = (a: Atom) => metals.some((m) => distanceVec(pos(atoms[m]!), pos(a)) <= METAL_BOND_A);
  const donors = atoms.map((a, i) => {
    // A metal-coordinated planar N is no donor (spec §4.2, e.g. a His ring N binding zinc); nor is one bound to a metal.
    if (a.element === "N" && isPlanar(graph.types[i]!) && (metalsOf[i]!.length > 0 || boundToMetal(a))) return null;
    return classifyDonor(graph, atoms, i);
  });
  return { atoms, pocketCount, graph, acceptors, donors, metalsOf, slop: criteria };
}

// ---------------------------------------------------------------------------------------------
// Tests (spec §5)

function acceptorTest(ctx: HBondContext, spec: AcceptorSpec, d: number, hs: readonly Vec3[], a: number): boolean {
  const { atoms, graph } = ctx;
  const A = pos(atoms[a]!);
  const D = pos(atoms[d]!);
  const slop = atoms[d]!.element === "S" ? withSulfurCompensation(ctx.slop) : ctx.slop;
  switch (spec.test) {
    case "syn/anti":
      return synAntiAcceptorTest(A, pos(atoms[spec.syn]!), pos(atoms[spec.plane]!), D, hs, spec.params, slop);
    case "phi-psi": {
      let b1 = spec.b1;
      let b2 = spec.b2;
      if (b1 === null) [b1 = null, b2 = null] = graph.adj[a]!;
      const others = b1 === null ? [] : graph.adj[b1]!.filter((j) => j !== a).map((j) => pos(atoms[j]!));
      return phiPsiAcceptorTest(A, b1 === null ? null : pos(atoms[b1]!), b2 === null ? null : pos(atoms[b2]!), others, D, hs, spec.params, slop);
    }
    case "theta-tau": {
      const refs = spec.partner === "LP" ? oppositeLonePairs(A, graph.adj[a]!.map((j) => pos(atoms[j]!))) : [pos(atoms[spec.partner]!)];
      if (!thetaTauAcceptorTest(A, refs, D, hs, spec.params, slop)) return false;
      if (!spec.anilineTau) return true;
      // A21: every reference substituent seen down A→Car at least 37.5° from the donor (never relaxed).
      const x = graph.adj[a]![0]!;
      return tauTest(ANILINE_ACCEPTOR_TAU.tau, ANILINE_ACCEPTOR_TAU.symmetry, A, donorHydrogens(ctx, a), pos(atoms[x]!), tauSubstituents(ctx, x, a), D);
    }
    case "generic":
      return genericAcceptorTest(A, graph.adj[a]!.map((j) => pos(atoms[j]!)), D, spec.params, slop);
  }
}

function donorTest(ctx: HBondContext, spec: DonorSpec, d: number, hs: readonly Vec3[], a: number): boolean {
  const { atoms, graph, slop } = ctx;
  const cls = acceptorClassOf(graph.types[a]!, atoms[a]!.element);
  if (cls === null) return false;
  const acc: AcceptorSite = { pos: pos(atoms[a]!), neighbours: graph.adj[a]!.map((j) => pos(atoms[j]!)), cls, isSulfur: atoms[a]!.element === "S" };
  const D = pos(atoms[d]!);
  const heavy = () => graph.adj[d]!.map((j) => pos(atoms[j]!));
  switch (spec.test) {
    case "theta-tau":
      return thetaTauDonorTest(hs, D, acc, spec.params, slop);
    case "upsilon-tau": {
      const x = graph.adj[d]![0];
      return upsilonTauDonorTest(hs, D, heavy(), acc, spec.params, slop, () => (x === undefined ? [] : tauSubstituents(ctx, x, d)));
    }
    case "generic":
      return genericDonorTest(hs, D, heavy(), acc, spec.row, slop);
    case "water":
      return waterDonorTest(hs, D, acc, slop);
  }
}

export type PairVerdict = "accepted" | "no donor group" | "no acceptor group" | "acceptor test" | "donor test" | "metal veto";

/** Whether donor d → acceptor a is an H-bond, and which stage rejects it (spec §1.1 step 5). */
export function evaluatePair(ctx: HBondContext, d: number, a: number): PairVerdict {
  const donor = ctx.donors[d];
  const acceptor = ctx.acceptors[a];
  if (!donor) return "no donor group";
  if (!acceptor) return "no acceptor group";
  const hs = donorHydrogens(ctx, d);
  if (!acceptorTest(ctx, acceptor, d, hs, a)) return "acceptor test";
  if (!donorTest(ctx, donor, d, hs, a)) return "donor test";
  const A = pos(ctx.atoms[a]!);
  const D = pos(ctx.atoms[d]!);
  if (ctx.metalsOf[a]!.some((m) => angleAtDeg(D, A, pos(ctx.atoms[m]!)) < METAL_VETO_DEG)) return "metal veto";
  return "accepted";
}

/** "Npl D13 amide N-H": IDATM type and group of a donor or acceptor atom. */
export function describeRole(ctx: HBondContext, i: number, role: "donor" | "acceptor"): string {
  const spec = role === "donor" ? ctx.donors[i] : ctx.acceptors[i];
  return `${ctx.graph.types[i]} ${spec ? spec.group : `no ${role} group`}`;
}

// ---------------------------------------------------------------------------------------------
// Finder

export interface HBond {
  donor: AtomRef;
  acceptor: AtomRef;
  proteinAtom: AtomRef;
  ligandAtom: AtomRef;
  /** Which side donates. When both directions pass (e.g. two hydroxyls) the protein is reported as the donor. */
  ligandIsDonor: boolean;
  bothDirections: boolean;
  /** Donor–acceptor heavy-atom distance. */
  distanceA: number;
  /** H···A for the inferred hydrogen with the largest D–H···A angle; null for donors without inferable H (rotors). */
  hydrogenAcceptorA: number | null;
  /** D–H···A at that hydrogen; null without one. */
  donorAngleDeg: number | null;
  /** Smallest X–A···D over the acceptor's heavy neighbours; null for a lone acceptor atom. */
  acceptorAngleDeg: number | null;
  /** IDATM type and donor group ("Npl D13 amide N-H"). */
  donorType: string;
  /** IDATM type and acceptor group ("O2- A3 carboxylate"). */
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
  /** The ligand bonds carry real orders (SDF/MOL2): ligand atoms are typed from them. */
  ligandHasBondOrders?: boolean;
  /** Hydrogens on each ligand atom in the source file (null: unknown, implicit from valence). */
  ligandHydrogenCounts?: readonly (number | null)[];
  criteria?: Partial<HBondCriteria>;
  /** Whether a pocket atom belongs to an amino acid (default: its residue name is a known amino acid). */
  isAminoAcidAtom?: (atom: Atom) => boolean;
}

/** All pocket–ligand H-bonds, one per (protein atom, ligand atom) pair, sorted (see compareHBonds). */
export function findHBonds(input: FindHBondsInput): HBond[] {
  const ctx = prepareHBondContext(input);
  const isAminoAcidAtom = input.isAminoAcidAtom ?? ((a: Atom) => isAminoAcid(a.resName));
  const P = ctx.pocketCount;
  const pocketPolar = input.pocketAtoms.map((_, i) => i).filter((i) => ctx.donors[i] || ctx.acceptors[i]);
  const grid = createSpatialGrid(pocketPolar.map((i) => ctx.atoms[i]!), SEARCH_RADIUS_A);
  const out: HBond[] = [];
  for (let l = P; l < ctx.atoms.length; l++) {
    if (!ctx.donors[l] && !ctx.acceptors[l]) continue;
    for (const k of findNeighbours(grid, ctx.atoms[l]!, SEARCH_RADIUS_A)) {
      const p = pocketPolar[k]!;
      const proteinDonates = evaluatePair(ctx, p, l) === "accepted";
      const ligandDonates = evaluatePair(ctx, l, p) === "accepted";
      if (!proteinDonates && !ligandDonates) continue;
      const ligandIsDonor = !proteinDonates;
      const d = ligandIsDonor ? l : p;
      const a = ligandIsDonor ? p : l;
      const D = pos(ctx.atoms[d]!);
      const A = pos(ctx.atoms[a]!);
      let bestH: Vec3 | null = null;
      for (const h of donorHydrogens(ctx, d)) if (!bestH || angleAtDeg(D, h, A) > angleAtDeg(D, bestH, A)) bestH = h;
      const aNb = ctx.graph.adj[a]!;
      out.push({
        donor: toAtomRef(ctx.atoms[d]!),
        acceptor: toAtomRef(ctx.atoms[a]!),
        proteinAtom: toAtomRef(ctx.atoms[p]!),
        ligandAtom: toAtomRef(ctx.atoms[l]!),
        ligandIsDonor,
        bothDirections: proteinDonates && ligandDonates,
        distanceA: distanceVec(D, A),
        hydrogenAcceptorA: bestH ? distanceVec(bestH, A) : null,
        donorAngleDeg: bestH ? angleAtDeg(D, bestH, A) : null,
        acceptorAngleDeg: aNb.length === 0 ? null : Math.min(...aNb.map((x) => angleAtDeg(pos(ctx.atoms[x]!), A, D))),
        donorType: describeRole(ctx, d, "donor"),
        acceptorType: describeRole(ctx, a, "acceptor"),
        proteinIsAminoAcid: isAminoAcidAtom(ctx.atoms[p]!),
      });
    }
  }
  return out.sort(compareHBonds);
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
