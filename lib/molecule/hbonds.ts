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
import { IDATM_TYPES, type TypedGraph, assignIdatmTypes, geometryOf, isPlanar, isTetrahedral } from "./chemistry/idatm";
import { createSpatialGrid, findNeighbours } from "./geometry/spatial-grid";
import {
  type SynAntiParams,
  type Slop,
  angleMax,
  angleMin,
  distanceLimit2,
  genericAcceptorTest,
  phiPsiAcceptorTest,
  planeProjector,
  processTau,
  synAntiAcceptorTest,
  tauTest,
  thetaTauAcceptorTest,
  thetaTest,
} from "./hbond-geometry";
import { type Vec3, addVec, angleAtDeg, crossVec, distanceSquaredVec, distanceVec, dotVec, lengthVec, normalizeVec, scaleVec, subtractVec } from "./geometry/vec3";

export interface HBondCriteria {
  /** Added to every distance limit (ChimeraX `relax true`: 0.4 Å; MiSI-Bench used the default). */
  distSlopA: number;
  /** Subtracted from every angle minimum, added to every angle maximum (ChimeraX default 20°). */
  angleSlopDeg: number;
}

/** ChimeraX's default relaxation, which MiSI-Bench used (spec §1.4). */
export const DEFAULT_HBOND_CRITERIA: HBondCriteria = { distSlopA: 0.4, angleSlopDeg: 20 };
/** ChimeraX `relax false`. */
export const STRICT_HBOND_CRITERIA: HBondCriteria = { distSlopA: 0, angleSlopDeg: 0 };

/** Acceptors within this distance of a metal are metal-coordinated (spec §7; not relaxed). */
export const METAL_COORDINATION_RADIUS_A = 4.0;
/** A donor on the metal's side of a coordinated acceptor (∠(D, A, M) below this) is vetoed. */
const METAL_VETO_DEG = 45;
/**
 * A planar N this close to a metal is bound to it and carries no hydrogen (a porphyrin N on its iron). Deviation from
 * the spec's donor rule, which looks only at N typed as acceptors: our ring typing is simpler than ChimeraX's
 * bond-order enumeration and typed heme NB/ND of 2q8q as N–H donors, giving two "H-bonds" from the iron-bound
 * pyrrole N to the iron-bound HIS NE2 (an outside review of issue 13).
 */
const METAL_BOND_A = 2.6;
/** Sulfur compensation added to relaxed distance limits (spec §1.5). */
const SULFUR_COMP_A = 0.35;
/** Superset of every candidate search radius of spec §1.3 (3.65 + 0.4 + 1.25 + 0.35 Å). */
const SEARCH_RADIUS_A = 5.7;
/** X–H bond length r(X) + r(H) (spec §0): N, O 0.91 Å; S 1.25 Å. */
const hydrogenBondLength = (element: string) => (element === "S" ? 1.25 : element === "P" ? 1.28 : 0.91);

// ---------------------------------------------------------------------------------------------
// Group tables (raw values from spec §3 and §4; slop is applied by the tests)

type PhiPsi = readonly [r: number, phi: number, theta: number];
type ThetaTauAcc = readonly [r: number, upsilonLow: number, upsilonHigh: number, theta: number];

export type AcceptorSpec = { group: string } & (
  | { test: "syn/anti"; syn: number; plane: number; params: SynAntiParams }
  | { test: "phi-psi"; b1: number | null; b2: number | null; params: PhiPsi }
  | { test: "theta-tau"; partner: number | "LP"; params: ThetaTauAcc; anilineTau?: true }
  | { test: "generic"; params: readonly [r: number, betaMin: number] }
);

/** Theta-tau donor tuple: rp[sp2 O], θ[sp2 O], rp[sp3 O], θ[sp3 O], φ[sp3 O], rp[sp3 N], θ[sp3 N], υN[sp3 N] (spec §4.1). */
type ThetaTauDon = readonly [number, number, number, number, number, number, number, number];
/** Upsilon-tau rows: (r, υlow, −υhigh, θ, τ) for sp2 O; + φ (unused) for sp3 O; + υN for sp3 N. */
interface UpsilonTauDon {
  sp2O: readonly [number, number, number, number, number | null];
  sp3O: readonly [number, number, number, number, number | null, number];
  sp3N: readonly [number, number, number, number, number | null, number];
  tauSymmetry: number;
}

export type DonorSpec = { group: string } & (
  | { test: "theta-tau"; params: ThetaTauDon }
  | { test: "upsilon-tau"; params: UpsilonTauDon }
  | { test: "generic"; rp: readonly [number, number, number]; r: readonly [number, number, number] }
);

const SYN_ANTI = {
  phosphate3: { syn: [3.03, 110, 145], anti: [3.03, 110, 135] },
  carboxylate: { syn: [3.17, 90, 145], anti: [3.17, 110, 145] },
  acid: { syn: [3.17, 110, 130], anti: [3.17, 110, 135] },
  amide: { syn: [3.3, 110, 135], anti: [3.3, 110, 130] },
  nitro: { syn: [3.42, 90, 145], anti: [3.53, 110, 130] },
  sulfone: { syn: [3.3, 110, 130], anti: [3.3, 120, 135] },
} as const satisfies Record<string, SynAntiParams>;

const D2_D3: UpsilonTauDon = { sp2O: [3.17, 90, -146, 140, -30], sp3O: [3.17, 90, -146, 140, -22.5, 150], sp3N: [3.17, 113, -161, 125, null, 140], tauSymmetry: 4 };
const DONOR_UT: Readonly<Record<string, UpsilonTauDon>> = {
  D1: { sp2O: [2.87, 103, -128, 140, -30], sp3O: [2.87, 103, -128, 155, -30, 150], sp3N: [2.87, 103, -128, 140, -30, 150], tauSymmetry: 2 },
  D2: D2_D3,
  D3: D2_D3,
  D4: { sp2O: [3.17, 90, -136, 140, 20], sp3O: [3.17, 90, -132, 150, 25, 130], sp3N: [3.17, 90, -124, 155, 15, 150], tauSymmetry: 6 },
  D5: { sp2O: [3.17, 90, -141, 130, null], sp3O: [3.03, 90, -141, 135, null, 140], sp3N: [3.03, 100, -132, 145, null, 150], tauSymmetry: 6 },
  D6: { sp2O: [3.3, 103, -153, 135, -45], sp3O: [3.3, 109, -141, 140, -30, 140], sp3N: [3.3, 113, -161, 125, -30, 145], tauSymmetry: 4 },
  // D7's sp3-N upper bound is +161 in ChimeraX (spec §10 Q2): aniline N never donates to sp3 N. Kept for parity.
  D7: { sp2O: [3.3, 100, -146, 145, -37.5], sp3O: [3.3, 103, -146, 140, -37.5, 130], sp3N: [3.42, 90, 161, 125, null, 140], tauSymmetry: 4 },
  D8: { sp2O: [3.03, 103, -136, 145, -37.5], sp3O: [3.03, 103, -136, 150, -45.0, 140], sp3N: [2.87, 109, -128, 145, -52.5, 150], tauSymmetry: 4 },
  D9: { sp2O: [3.3, 90, -128, 150, 30], sp3O: [3.42, 90, -124, 155, 25, 130], sp3N: [3.42, 90, -132, 155, 20, 140], tauSymmetry: 6 },
  genericPlanarN: { sp2O: [3.3, 90, -153, 135, -45], sp3O: [3.3, 90, -146, 140, -37.5, 130], sp3N: [3.4, 108, -166, 125, -35, 140], tauSymmetry: 4 },
};
const DONOR_TT: Readonly<Record<string, ThetaTauDon>> = {
  D10: [1.92, 146, 1.92, 153, 150, 2.48, 141, 145],
  D11: [2.09, 141, 2.09, 141, 155, 2.48, 141, 145],
  D13: [2.23, 146, 2.23, 146, 140, 2.36, 141, 145],
  D14: [1.92, 146, 2.09, 146, 140, 2.48, 141, 145],
  D15: [2.23, 132, 2.36, 146, 140, 2.48, 141, 145],
  D16: [2.36, 141, 2.48, 146, 150, 2.48, 153, 155],
  D17: [2.09, 146, 2.09, 141, 140, 2.48, 141, 145],
  D18: [2.23, 136, 2.23, 141, 150, 2.48, 141, 145],
  genericPlanarN: [2.23, 136, 2.23, 141, 140, 2.46, 136, 140],
};
/** Generic class of every theta-tau donor (rp, θ) and upsilon-tau donor (r, υlow, −υhigh, θ) (spec §4.1). */
const THETA_TAU_GENERIC = [2.48, 132] as const;
const UPSILON_TAU_GENERIC = [3.42, 90, -161, 125] as const;
/** Generic donors by element: rp and r for sp2 O, sp3 O, sp3 N (spec §4.3); generic class (2.48, 3.42), β 90°, θ 130°. */
const GENERIC_DONOR: Readonly<Record<string, { rp: readonly [number, number, number]; r: readonly [number, number, number] }>> = {
  O: { rp: [2.41, 2.28, 2.28], r: [3.27, 3.14, 3.14] },
  N: { rp: [2.36, 2.48, 2.48], r: [3.3, 3.42, 3.42] },
  S: { rp: [2.42, 2.42, 2.42], r: [3.65, 3.65, 3.65] },
};
const GENERIC_DONOR_CLASS = { rp: 2.48, r: 3.42, thetaMin: 130, betaMin: 90 } as const;

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
  slop: Slop;
}

const pos = (a: Atom): Vec3 => [a.x, a.y, a.z];

/** Reference perpendicular p̂(u) (spec §5.5): world +Y made perpendicular to u. */
function perpendicular(u: Vec3): Vec3 {
  const y: Vec3 = [0, 1, 0];
  const p = subtractVec(y, scaleVec(u, dotVec(y, u)));
  if (lengthVec(p) < 1e-9) return [0, 0, -Math.sign(u[1])];
  return normalizeVec(p);
}

/** Unit directions of the known substituents, and a way to add a new one (its position is collected at length L). */
function positionBuilder(c: Vec3, known: readonly Vec3[], L: number) {
  const units = known.map((k) => normalizeVec(subtractVec(k, c)));
  const added: Vec3[] = [];
  const push = (u: Vec3) => {
    units.push(u);
    added.push(addVec(c, scaleVec(u, L)));
  };
  return { units, added, push };
}

/** Missing tetrahedral positions around c (spec §5.5 constructions), length L, from known substituent positions. */
export function tetrahedralPositions(c: Vec3, known: readonly Vec3[], L: number): Vec3[] {
  const { units, added, push } = positionBuilder(c, known, L);
  if (units.length === 0) push([1, 0, 0]);
  if (units.length === 1) {
    const t = (109.5 * Math.PI) / 180;
    push(normalizeVec(addVec(scaleVec(units[0]!, Math.cos(t)), scaleVec(perpendicular(units[0]!), Math.sin(t)))));
  }
  if (units.length === 2) {
    const b = normalizeVec(scaleVec(addVec(units[0]!, units[1]!), -1));
    const n = normalizeVec(crossVec(units[0]!, units[1]!));
    const h = (54.75 * Math.PI) / 180;
    push(normalizeVec(addVec(scaleVec(b, Math.cos(h)), scaleVec(n, Math.sin(h)))));
  }
  if (units.length === 3) {
    const p = units.map((u) => addVec(c, u));
    let n = normalizeVec(crossVec(subtractVec(p[1]!, p[0]!), subtractVec(p[2]!, p[1]!)));
    if (dotVec(n, subtractVec(c, p[0]!)) < 0) n = scaleVec(n, -1);
    push(n);
  }
  return added;
}

/** Missing trigonal positions around c; `coplanar` are reference points in the plane (spec §5.5). */
export function trigonalPositions(c: Vec3, known: readonly Vec3[], L: number, coplanar: readonly Vec3[]): Vec3[] {
  const { units, added, push } = positionBuilder(c, known, L);
  if (units.length === 0) push([1, 0, 0]);
  if (units.length === 1) {
    const u = units[0]!;
    const t = (120 * Math.PI) / 180;
    const along = (w: Vec3): Vec3 => {
      const perp = subtractVec(w, scaleVec(u, dotVec(w, u)));
      const wHat = lengthVec(perp) < 1e-9 ? perpendicular(u) : normalizeVec(perp);
      return normalizeVec(addVec(scaleVec(u, Math.cos(t)), scaleVec(wHat, Math.sin(t))));
    };
    if (coplanar.length === 0) push(along(perpendicular(u)));
    else if (coplanar.length === 1) push(along(subtractVec(coplanar[0]!, c)));
    else push(normalizeVec(addVec(along(subtractVec(coplanar[0]!, c)), along(scaleVec(subtractVec(coplanar[1]!, c), -1)))));
  }
  if (units.length === 2) push(normalizeVec(scaleVec(addVec(units[0]!, units[1]!), -1)));
  return added;
}

function linearPositions(c: Vec3, known: readonly Vec3[], L: number): Vec3[] {
  if (known.length === 0) return [addVec(c, [L, 0, 0]), addVec(c, [-L, 0, 0])];
  if (known.length === 1) return [subtractVec(c, scaleVec(normalizeVec(subtractVec(known[0]!, c)), L))];
  return [];
}

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

/** Points opposite the tetrahedral lone pairs of A (1 Å, from all of A's neighbours). */
function oppositeLonePairs(ctx: HBondContext, a: number): Vec3[] {
  const c = pos(ctx.atoms[a]!);
  const known = ctx.graph.adj[a]!.map((j) => pos(ctx.atoms[j]!));
  if (known.length >= 4) return [];
  return tetrahedralPositions(c, known, 1).map((l) => subtractVec(c, subtractVec(l, c)));
}

// ---------------------------------------------------------------------------------------------
// Group matching (spec §2–§4), written per atom: the first group in table order that claims it wins.

/** What the group patterns read about atom i: types (T), elements (E), heavy neighbours, the only neighbour (−1 if not one). */
function patternView(g: TypedGraph, atoms: readonly Atom[], i: number) {
  const T = (j: number) => g.types[j]!;
  const nb = g.adj[i]!;
  return {
    T,
    E: (j: number) => atoms[j]!.element,
    nb,
    t: T(i),
    tet: (j: number) => isTetrahedral(T(j)),
    only: nb.length === 1 ? nb[0]! : -1,
  };
}

function classifyAcceptor(g: TypedGraph, atoms: readonly Atom[], i: number): AcceptorSpec | null {
  const { T, E, nb, t, tet, only } = patternView(g, atoms, i);
  const others = (x: number) => g.adj[x]!.filter((j) => j !== i);
  const inRing = g.ringsOf[i]!.length > 0;
  if (g.truncated[i] || isMetal(E(i)) || E(i) === "C") return null;

  // A1/A2/A11 phosphates
  const pac = nb.find((j) => T(j) === "Pac");
  if (pac !== undefined && (only === pac || t === "O3")) {
    const p = pac;
    const pn = g.adj[p]!;
    const charged = pn.filter((j) => T(j) === "O3-");
    const rest = pn.filter((j) => T(j) !== "O3-");
    if (t === "O3-" && charged.length >= 3 && rest.length <= 1 && rest.every(tet)) {
      // Q1: only the O3- the matcher puts in the acceptor slot: the first (3 O3-) or first two (4 O3-) in P's bond order.
      const designated = charged.slice(0, charged.length === 4 ? 2 : 1);
      if (designated.includes(i)) return { group: "A1 phosphate O-", test: "syn/anti", syn: charged[(charged.indexOf(i) + 1) % charged.length]!, plane: p, params: SYN_ANTI.phosphate3 };
    } else if (t === "O3-" && charged.length === 2 && rest.length <= 2 && rest.every((j) => tet(j) && T(j) !== "O3-")) {
      return { group: "A2 phosphodiester O-", test: "syn/anti", syn: charged.find((j) => j !== i)!, plane: p, params: SYN_ANTI.phosphate3 };
    }
    if (t === "O3" && charged.length === 2 && pn.length <= 4 && pn.filter((j) => j !== i && T(j) !== "O3-").every(tet)) {
      return { group: "A11 phosphate ester/P-OH O", test: "theta-tau", partner: p, params: [3.03, 103, 146, 145] };
    }
  }
  // A3 carboxylate
  if (t === "O2-" && only >= 0 && T(only) === "Cac") {
    const os = g.adj[only]!.filter((j) => T(j) === "O2-");
    const rest = g.adj[only]!.filter((j) => T(j) !== "O2-");
    if (os.length === 2 && rest.length <= 1 && rest.every(tet)) return { group: "A3 carboxylate", test: "syn/anti", syn: os.find((j) => j !== i)!, plane: only, params: SYN_ANTI.carboxylate };
  }
  // A4 thiocarbonyl
  if (t === "S2" && only >= 0 && E(only) === "C") return { group: "A4 thiocarbonyl", test: "phi-psi", b1: only, b2: null, params: [3.73, 90, 145] };
  if (t === "O2" && only >= 0 && E(only) === "C") {
    const c = only;
    const o = others(c);
    // A5 carboxylic acid C=O: C with [O2], [O3 with no other heavy neighbour], esb
    const acidO = o.find((j) => T(j) === "O3" && g.adj[j]!.length === 1);
    if (acidO !== undefined && o.length <= 2 && o.filter((j) => j !== acidO).every(tet)) return { group: "A5 carboxylic acid C=O", test: "syn/anti", syn: acidO, plane: c, params: SYN_ANTI.acid };
    if (T(c) === "C2") {
      // A6 amide C=O: C2 with O2, Npl, esb
      const npl = o.find((j) => T(j) === "Npl");
      if (npl !== undefined && o.length <= 2 && o.filter((j) => j !== npl).every(tet)) return { group: "A6 amide C=O", test: "syn/anti", syn: npl, plane: c, params: SYN_ANTI.amide };
      // A7 ketone/aldehyde: C2 with O2, C, R
      if (o.length >= 1 && o.length <= 2 && o.every((j) => E(j) === "C")) return { group: "A7 ketone/aldehyde C=O", test: "phi-psi", b1: c, b2: null, params: [3.3, 110, 130] };
      // A8 ester C=O: C2 with O2, [O3 whose only other neighbour is tet], C
      if (o.length === 2 && o.some((j) => E(j) === "C") && o.some((j) => T(j) === "O3" && g.adj[j]!.length === 2 && g.adj[j]!.filter((k) => k !== c).every(tet))) {
        return { group: "A8 ester C=O", test: "phi-psi", b1: c, b2: null, params: [3.17, 110, 135] };
      }
    }
  }
  // A9 nitro
  if (t === "O2-" && only >= 0 && T(only) === "Ntr") {
    const os = g.adj[only]!.filter((j) => T(j) === "O2-");
    const rest = g.adj[only]!.filter((j) => T(j) !== "O2-");
    if (os.length === 2 && rest.length <= 1 && rest.every(tet)) return { group: "A9 nitro", test: "syn/anti", syn: os.find((j) => j !== i)!, plane: only, params: SYN_ANTI.nitro };
  }
  // A10 sulfone, A12 P-oxide, A13 sulfoxide (fire only for O2 on these centres; spec §10 Q8)
  if (t === "O2" && only >= 0 && T(only) === "Son") {
    const os = g.adj[only]!.filter((j) => T(j) === "O2");
    if (os.length === 2 && g.adj[only]!.filter((j) => T(j) !== "O2").every(tet)) return { group: "A10 sulfone", test: "syn/anti", syn: os.find((j) => j !== i)!, plane: only, params: SYN_ANTI.sulfone };
  }
  if (t === "O2" && only >= 0 && T(only) === "Pox") return { group: "A12 P-oxide", test: "theta-tau", partner: only, params: [3.03, 109, 180, 145] };
  if (t === "O2" && only >= 0 && T(only) === "Sxd") return { group: "A13 sulfoxide", test: "theta-tau", partner: only, params: [3.03, 100, 180, 145] };
  // A14 primary amine N3: tet, H, H
  if (t === "N3" && only >= 0 && tet(only)) return { group: "A14 primary amine", test: "theta-tau", partner: only, params: [3.03, 103, 180, 155] };
  // A15 alcohol O3: tet≠Sac,Pac, H
  if (t === "O3" && only >= 0 && tet(only) && T(only) !== "Sac" && T(only) !== "Pac") return { group: "A15 hydroxyl", test: "theta-tau", partner: only, params: [3.03, 100, 161, 145] };
  // A16 sulfate/sulfonate ester O
  if (t === "O3" && nb.length <= 2 && nb.some((j) => T(j) === "Sac") && nb.every((j) => T(j) !== "Pac")) {
    const s = nb.find((j) => T(j) === "Sac")!;
    if (g.adj[s]!.filter((j) => T(j) === "O3-").length === 2) return { group: "A16 sulfate ester O", test: "theta-tau", partner: s, params: [3.17, 103, 180, 150] };
  }
  // A17 tertiary amine, A19 secondary amine (lone pair)
  if (t === "N3" && nb.length === 3 && nb.every(tet)) return { group: "A17 tertiary amine", test: "theta-tau", partner: "LP", params: [3.17, 153, 180, 145] };
  // A18 nitrile
  if (t === "N1" && only >= 0 && T(only) === "C1") return { group: "A18 nitrile", test: "theta-tau", partner: only, params: [3.3, 153, 180, 150] };
  if (t === "N3" && nb.length === 2 && nb.every(tet)) return { group: "A19 secondary amine", test: "theta-tau", partner: "LP", params: [3.3, 153, 180, 150] };
  // A20 phenol
  if (t === "O3" && only >= 0 && T(only) === "Car") return { group: "A20 phenol", test: "theta-tau", partner: only, params: [3.17, 100, 153, 150] };
  // A21 aniline N
  if ((t === "Npl" || t === "N3") && only >= 0 && T(only) === "Car") return { group: "A21 aniline N", test: "theta-tau", partner: only, params: [3.42, 90, 137, 140], anilineTau: true };
  // A22 water (O with hydrogens only)
  if (E(i) === "O" && nb.length === 0) return { group: "A22 water", test: "phi-psi", b1: null, b2: null, params: [3.03, 120, 145] };
  // A23 non-ring ether, A24 non-ring imine N
  if (t === "O3" && !inRing && nb.length === 2 && nb.every((j) => E(j) === "C")) return { group: "A23 ether", test: "phi-psi", b1: nb[0]!, b2: nb[1]!, params: [3.42, 140, 140] };
  if (t === "N2" && !inRing && nb.length === 2 && nb.every((j) => E(j) === "C")) return { group: "A24 imine N", test: "phi-psi", b1: nb[0]!, b2: nb[1]!, params: [3.42, 140, 140] };
  // Ring groups A25–A29
  const ring = g.ringsOf[i]!.length === 1 ? g.rings[g.ringsOf[i]![0]!]! : null;
  if (ring && E(i) === "N" && nb.length === 2) {
    const [x1, x2] = nb.filter((j) => ring.includes(j)) as [number, number];
    if (x1 !== undefined && x2 !== undefined) {
      if (ring.length === 6 && t === "N2") {
        const y1 = g.adj[x1]!.find((j) => j !== i && ring.includes(j));
        const y2 = g.adj[x2]!.find((j) => j !== i && ring.includes(j));
        const sym = E(x1) === E(x2) && y1 !== undefined && y2 !== undefined && E(y1) === E(y2);
        return sym
          ? { group: "A25 N in symmetric 6-ring", test: "phi-psi", b1: x1, b2: x2, params: [3.17, 150, 145] }
          : { group: "A27 N in asymmetric 6-ring", test: "phi-psi", b1: x1, b2: x2, params: [3.3, 140, 140] };
      }
      if (ring.length === 5 && (t === "N2" || ((t === "Npl" || t === "N2+") && ring.some((j) => j !== i && E(j) === "N")))) {
        const z = ring.filter((j) => j !== i && j !== x1 && j !== x2);
        const sym = E(x1) === E(x2) && z.length === 2 && E(z[0]!) === E(z[1]!);
        return sym
          ? { group: "A26 N in symmetric 5-ring", test: "phi-psi", b1: x1, b2: x2, params: [3.3, 140, 155] }
          : { group: "A28 N in asymmetric 5-ring", test: "phi-psi", b1: x1, b2: x2, params: [3.3, 150, 135] };
      }
    }
  }
  if (E(i) === "O" && g.ringsOf[i]!.some((k) => g.rings[k]!.length === 5)) {
    return { group: "A29 O in 5-ring", test: "phi-psi", b1: nb[0] ?? null, b2: nb[1] ?? null, params: [3.42, 150, 135] };
  }
  return genericAcceptor(g, atoms, i);
}

/** Generic acceptor rules by IDATM type (spec §3.3). */
function genericAcceptor(g: TypedGraph, atoms: readonly Atom[], i: number): AcceptorSpec | null {
  const t = g.types[i]!;
  const nb = g.adj[i]!;
  const first = nb[0];
  const firstGeom = first === undefined ? -1 : geometryOf(g.types[first]!) || 1;
  const lp = nb.length > 1 ? ("LP" as const) : (first ?? ("LP" as const));
  if (t === "O2-" || t === "O3-") {
    if (first === undefined) return null;
    return firstGeom === 3
      ? { group: `generic ${t}`, test: "phi-psi", b1: first, b2: null, params: [3.53, 90, 130] }
      : { group: `generic ${t}`, test: "generic", params: [3.53, 90] };
  }
  if (t === "O2") {
    if (first === undefined) return null;
    if (firstGeom === 3) return { group: "generic O2", test: "phi-psi", b1: first, b2: null, params: [3.3, 110, 130] };
    if (firstGeom === 4) return { group: "generic O2", test: "theta-tau", partner: first, params: [3.03, 100, 180, 145] };
    return { group: "generic O2", test: "generic", params: [3.53, 90] };
  }
  if (t === "O3") {
    if (nb.length === 0) return { group: "generic O3", test: "generic", params: [3.53, 90] };
    if (nb.length === 1) return { group: "generic O3", test: "theta-tau", partner: first!, params: [3.17, 100, 161, 145] };
    if (nb.length === 2) return { group: "generic O3", test: "phi-psi", b1: nb[0]!, b2: nb[1]!, params: [3.42, 120, 135] };
    return null;
  }
  if (t === "N2") return { group: "generic N2", test: "phi-psi", b1: nb[0] ?? null, b2: nb[1] ?? null, params: [3.42, 140, 135] };
  if (t === "N3") {
    if (nb.length === 0) return { group: "generic N3", test: "generic", params: [3.42, 90] };
    if (nb.length === 1) return { group: "generic N3", test: "theta-tau", partner: lp, params: [3.13, 98, 180, 150] };
    return { group: "generic N3", test: "theta-tau", partner: lp, params: [3.3, 153, 180, 145] };
  }
  if (t === "N1") return { group: "generic N1", test: "theta-tau", partner: lp, params: [3.4, 136, 180, 145] };
  if (t === "S2") return { group: "generic S2", test: "phi-psi", b1: nb[0] ?? null, b2: nb[1] ?? null, params: [3.83, 85, 140] };
  if (t === "Sar" || t === "S3-") return { group: `generic ${t}`, test: "generic", params: [3.83, 85] };
  if (atoms[i]!.element === "O") return { group: `generic O (${t})`, test: "generic", params: [3.53, 90] };
  return null;
}

function classifyDonor(g: TypedGraph, atoms: readonly Atom[], i: number): DonorSpec | null {
  const { T, E, nb, t, tet, only } = patternView(g, atoms, i);
  const ut = (group: string, key: string): DonorSpec => ({ group, test: "upsilon-tau", params: DONOR_UT[key]! });
  const tt = (group: string, key: string): DonorSpec => ({ group, test: "theta-tau", params: DONOR_TT[key]! });
  if (g.truncated[i] || !["N", "O", "S"].includes(E(i))) return null;

  if (t === "O3" && only >= 0 && T(only) === "Cac") return ut("D1 carboxylic acid OH", "D1");
  if (t === "Npl" && only >= 0 && T(only) === "C2" && g.adj[only]!.filter((j) => j !== i).every(tet)) return ut("D2 protonated N=C", "D2");
  if (t === "Ng+" && only >= 0 && T(only) === "C2") return ut("D3 guanidinium/amidinium NH2", "D3");
  if (t === "N3+" && only >= 0 && tet(only)) return ut("D4 primary ammonium", "D4");
  if (t === "O3" && only >= 0 && tet(only)) return ut("D5 hydroxyl", "D5");
  if (E(i) === "N" && only >= 0 && T(only) === "C2") {
    const o = g.adj[only]!.filter((j) => j !== i);
    if (o.some((j) => T(j) === "O2") && o.length <= 2 && o.filter((j) => T(j) !== "O2").every(tet)) return ut("D6 amide NH2", "D6");
  }
  if (t === "Npl" && only >= 0 && T(only) === "Car" && !g.aromatic[i]) return ut("D7 aniline NH2", "D7");
  if (t === "O3" && only >= 0 && T(only) === "Car") return ut("D8 phenol", "D8");
  if (t === "N3" && only >= 0 && tet(only)) return ut("D9 primary amine", "D9");
  if (t === "Npl" && nb.length === 2) {
    const tetN = nb.filter(tet);
    const pl = nb.filter((j) => isPlanar(T(j)));
    if (tetN.length === 1 && pl.length === 1 && g.adj[pl[0]!]!.filter((k) => k !== i).length <= 2 && g.adj[pl[0]!]!.filter((k) => k !== i).every(tet)) return tt("D10 planar N-H", "D10");
  }
  if (t === "N3+" && nb.length === 2 && nb.every(tet)) return tt("D11 secondary ammonium", "D11");
  if (E(i) === "O" && nb.length === 0) return { group: "D12 water", test: "generic", rp: [2.36, 2.23, 2.23], r: [3.27, 3.14, 3.14] };
  if (E(i) === "N" && nb.length === 2) {
    const c = nb.find((j) => T(j) === "C2");
    const other = nb.find((j) => j !== c);
    if (c !== undefined && other !== undefined && tet(other)) {
      const o = g.adj[c]!.filter((j) => j !== i);
      if (o.some((j) => T(j) === "O2") && o.length <= 2 && o.filter((j) => T(j) !== "O2").every(tet)) return tt("D13 amide N-H", "D13");
    }
  }
  if (t === "N3+" && nb.length === 3 && nb.every(tet)) return tt("D14 tertiary ammonium", "D14");
  if (t === "N2" && only >= 0 && isPlanar(T(only))) return tt("D15 imine N-H", "D15");
  if (t === "N3" && nb.length === 2 && nb.every(tet)) return tt("D16 secondary amine", "D16");
  if ((t === "Npl" || t === "N2+") && nb.length === 2 && g.ringsOf[i]!.length === 1) {
    const ring = g.rings[g.ringsOf[i]![0]!]!;
    if (ring.length === 5) return tt("D17 N-H in 5-ring", "D17");
    if (ring.length === 6 && ring.every((j) => E(j) !== "C" || T(j) === "Car")) return tt("D18 N-H in aromatic 6-ring", "D18");
  }
  // D19 generic: fewer bonds than the type's substituents (spec §4.3)
  const info = IDATM_TYPES[t];
  if (nb.length >= (info?.substituents ?? 0)) return null;
  if (t === "Npl" || t === "N2+") return nb.length > 1 ? tt("D19 generic planar N", "genericPlanarN") : ut("D19 generic planar N", "genericPlanarN");
  const row = GENERIC_DONOR[E(i)]!;
  return { group: `D19 generic ${E(i)}`, test: "generic", rp: row.rp, r: row.r };
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
  return { atoms, pocketCount, graph, acceptors, donors, metalsOf, slop: { distA: criteria.distSlopA, angleDeg: criteria.angleSlopDeg } };
}

// ---------------------------------------------------------------------------------------------
// Tests (spec §5)

type AcceptorClass = "sp2O" | "sp3O" | "sp3N" | "generic";

/** Acceptor class for the donor tests (spec §4.1); null for types outside the IDATM table (every donor test rejects). */
function acceptorClassOf(type: string, element: string): AcceptorClass | null {
  if (!IDATM_TYPES[type]) return null;
  const geom = geometryOf(type);
  if (element === "O" && geom === 3) return "sp2O";
  if ((element === "O" && geom === 4) || (element === "N" && geom === 3)) return "sp3O";
  if (element === "N" && geom === 4) return "sp3N";
  return "generic";
}

function acceptorTest(ctx: HBondContext, spec: AcceptorSpec, d: number, hs: readonly Vec3[], a: number): boolean {
  const { atoms, graph } = ctx;
  const A = pos(atoms[a]!);
  const D = pos(atoms[d]!);
  // Sulfur donors: +0.35 Å on the (already relaxed) distance limit (spec §1.5).
  const slop: Slop = atoms[d]!.element === "S" ? { distA: ctx.slop.distA + SULFUR_COMP_A, angleDeg: ctx.slop.angleDeg } : ctx.slop;
  switch (spec.test) {
    case "syn/anti":
      return synAntiAcceptorTest(A, pos(atoms[spec.syn]!), pos(atoms[spec.plane]!), D, hs, spec.params, slop);
    case "phi-psi": {
      let b1 = spec.b1;
      let b2 = spec.b2;
      if (b1 === null) [b1 = null, b2 = null] = graph.adj[a]!;
      const others = b1 === null ? [] : graph.adj[b1]!.filter((j) => j !== a).map((j) => pos(atoms[j]!));
      if (b1 !== null && b2 === null && others.length > 2) return false; // connectivity error: pair skipped (spec §5.2.2)
      return phiPsiAcceptorTest(A, b1 === null ? null : pos(atoms[b1]!), b2 === null ? null : pos(atoms[b2]!), others, D, hs, spec.params, slop);
    }
    case "theta-tau": {
      const refs = spec.partner === "LP" ? oppositeLonePairs(ctx, a) : [pos(atoms[spec.partner]!)];
      if (!thetaTauAcceptorTest(A, refs, D, hs, spec.params, slop)) return false;
      if (!spec.anilineTau) return true;
      // A21: every reference substituent seen down A→Car at least 37.5° from the donor (never relaxed).
      const x = graph.adj[a]![0]!;
      return tauTest(37.5, 4, A, donorHydrogens(ctx, a), pos(atoms[x]!), tauSubstituents(ctx, x, a), D);
    }
    case "generic":
      return genericAcceptorTest(A, graph.adj[a]!.map((j) => pos(atoms[j]!)), D, spec.params, slop);
  }
}

function anyH(hs: readonly Vec3[], a: Vec3, limit2: number, strict = false): boolean {
  return hs.some((h) => (strict ? distanceSquaredVec(h, a) < limit2 : distanceSquaredVec(h, a) <= limit2));
}

function donorTest(ctx: HBondContext, spec: DonorSpec, d: number, hs: readonly Vec3[], a: number): boolean {
  const { atoms, graph, slop } = ctx;
  const cls = acceptorClassOf(graph.types[a]!, atoms[a]!.element);
  if (cls === null) return false;
  const A = pos(atoms[a]!);
  const D = pos(atoms[d]!);
  const aIsS = atoms[a]!.element === "S";
  const aNb = graph.adj[a]!;
  if (spec.test === "theta-tau") {
    if (hs.length === 0) return false;
    const p = spec.params;
    let rp: number;
    let theta: number;
    if (cls === "sp2O") [rp, theta] = [p[0], p[1]];
    else if (cls === "sp3O") {
      [rp, theta] = [p[2], p[3]];
      if (aNb.length === 2) {
        const proj = planeProjector(A, pos(atoms[aNb[0]!]!), pos(atoms[aNb[1]!]!));
        const base = scaleVec(addVec(pos(atoms[aNb[0]!]!), pos(atoms[aNb[1]!]!)), 0.5);
        if (proj && angleAtDeg(proj(base), proj(A), proj(D)) < angleMin(p[4], slop)) return false;
      }
    } else if (cls === "sp3N") {
      [rp, theta] = [p[5], p[6]];
      const q = oppositeLonePairs(ctx, a);
      if (q.length > 0 && !q.some((x) => angleAtDeg(D, A, x) > angleMin(p[7], slop))) return false;
    } else [rp, theta] = THETA_TAU_GENERIC;
    const limit = (rp + slop.distA + (cls === "generic" && aIsS ? SULFUR_COMP_A : 0)) ** 2;
    if (!anyH(hs, A, limit)) return false;
    return thetaTest(hs, D, A, angleMin(theta, slop));
  }
  if (spec.test === "upsilon-tau") {
    const p = spec.params;
    let row: readonly [number, number, number, number, number | null];
    if (cls === "sp2O") row = p.sp2O;
    else if (cls === "sp3O") row = [p.sp3O[0], p.sp3O[1], p.sp3O[2], p.sp3O[3], p.sp3O[4]];
    else if (cls === "sp3N") {
      if (aNb.length > 1) {
        const q = oppositeLonePairs(ctx, a);
        if (q.length === 0 || !q.some((x) => angleAtDeg(x, A, D) >= angleMin(p.sp3N[5], slop))) return false;
      }
      row = [p.sp3N[0], p.sp3N[1], p.sp3N[2], p.sp3N[3], p.sp3N[4]];
    } else row = [...UPSILON_TAU_GENERIC, null];
    const [r, low, negHigh, theta, tau] = row;
    const limit = (r + slop.distA + (cls === "generic" && aIsS ? SULFUR_COMP_A : 0)) ** 2;
    if (distanceSquaredVec(D, A) > limit) return false;
    const heavy = graph.adj[d]!;
    if (heavy.length !== 1) return false;
    const x = heavy[0]!;
    const u = angleAtDeg(pos(atoms[x]!), D, A);
    // A positive "maximum" (D7's +161, spec §10 Q2) is processed like any angle ≥ 7.5: it becomes a minimum-shaped value that υ must not exceed as −v.
    const max = negHigh < 0 ? angleMax(negHigh, slop) : -angleMin(negHigh, slop);
    if (u < angleMin(low, slop) || u > max) return false;
    if (!thetaTest(hs, D, A, angleMin(theta, slop))) return false;
    return tauTest(processTau(tau, slop), p.tauSymmetry, D, hs, pos(atoms[x]!), tauSubstituents(ctx, x, d), A);
  }
  // generic donor (spec §5.4.3)
  const k: number = cls === "sp2O" ? 0 : cls === "sp3O" ? 1 : cls === "sp3N" ? 2 : -1;
  const rp = k >= 0 ? spec.rp[k]! : GENERIC_DONOR_CLASS.rp;
  const r = k >= 0 ? spec.r[k]! : GENERIC_DONOR_CLASS.r;
  const beta = GENERIC_DONOR_CLASS.betaMin - (k < 0 && aIsS ? 9 : 0);
  if (hs.length === 0 ? distanceSquaredVec(D, A) > distanceLimit2(r, slop) : !anyH(hs, A, distanceLimit2(rp, slop), true)) return false;
  if (!graph.adj[d]!.every((x) => angleAtDeg(pos(atoms[x]!), D, A) >= angleMin(beta, slop))) return false;
  return hs.length === 0 || hs.some((h) => angleAtDeg(D, h, A) >= angleMin(GENERIC_DONOR_CLASS.thetaMin, slop));
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
