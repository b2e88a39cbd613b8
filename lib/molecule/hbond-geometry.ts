/**
 * The geometry tests of ChimeraX `hbonds` (after Mills & Dean 1996) as pure functions on positions,
 * written from ../shared/spec/hbond-criteria.md (§1.4 slop processing, §5 acceptor and donor tests, §7
 * metal veto). `evaluatePair` (hbond-pair.ts) calls exactly these, with the rows of hbond-tables.ts.
 *
 * Conventions (spec §0): ∠(X, Y, Z) is the angle at Y in degrees, 0 when a vector has zero length;
 * distance tests compare squared distances with squared limits, inclusive (except the generic
 * donor's H···A test, strict).
 */
import { IDATM_TYPES, geometryOf } from "./chemistry/idatm";
import {
  type Vec3,
  addVec,
  angleAtDeg,
  crossVec,
  distanceSquaredVec,
  dotVec,
  lengthVec,
  normalizeVec,
  scaleVec,
  subtractVec,
} from "./geometry/vec3";
import {
  GENERIC_DONOR_CLASS,
  METAL_VETO_DEG,
  type GenericAcceptorRow,
  type GenericDonorRow,
  type PhiPsiRow,
  SULFUR_COMPENSATION_A,
  type SynAntiRow,
  THETA_TAU_DONOR_GENERIC,
  type ThetaTauAcceptorRow,
  type ThetaTauDonorRow,
  UPSILON_TAU_DONOR_GENERIC,
  type UpsilonTauDonorRow,
  WATER_DONOR,
} from "./hbond-tables";
import { oppositeLonePairs } from "./hbond-hydrogens";

/** The relaxation ("slop") of every test (spec §1.4). */
export interface HBondCriteria {
  /** Added to every distance limit (ChimeraX `relax true`: 0.4 Å; MiSI-Bench used the default). */
  distSlopA: number;
  /** Subtracted from every angle minimum, added to every angle maximum (ChimeraX default 20°). */
  angleSlopDeg: number;
}
/** ChimeraX's default relaxation (`relax true`), which MiSI-Bench used. */
export const DEFAULT_HBOND_CRITERIA: HBondCriteria = { distSlopA: 0.4, angleSlopDeg: 20 };
/** ChimeraX `relax false`. */
export const STRICT_HBOND_CRITERIA: HBondCriteria = { distSlopA: 0, angleSlopDeg: 0 };

/** A processed distance limit, squared (spec §1.4: (v + distSlop)²). */
function distanceLimit2(v: number, slop: HBondCriteria): number {
  return (v + slop.distSlopA) ** 2;
}

/** A processed angle minimum (v ≥ 7.5): v − angleSlop, floored at 0. */
function angleMin(v: number, slop: HBondCriteria): number {
  return Math.max(v - slop.angleSlopDeg, 0);
}

/** A processed angle maximum, stored as −|max| (v < 0): the test's maximum becomes min(|v| + angleSlop, 180). */
function angleMax(v: number, slop: HBondCriteria): number {
  return -Math.max(v - slop.angleSlopDeg, -180);
}

/** The same criteria with the sulfur compensation added to every distance limit (spec §1.5). */
export function withSulfurCompensation(slop: HBondCriteria): HBondCriteria {
  return { distSlopA: slop.distSlopA + SULFUR_COMPENSATION_A, angleSlopDeg: slop.angleSlopDeg };
}

const angle = angleAtDeg;

/** Projection of X onto the plane through X0, X1, X2 (spec §5.1); null when the three points are collinear. */
function planeProjector(x0: Vec3, x1: Vec3, x2: Vec3): ((x: Vec3) => Vec3) | null {
  const n = crossVec(subtractVec(x1, x0), subtractVec(x2, x1));
  if (lengthVec(n) < 1e-12) return null;
  const u = normalizeVec(n);
  const c = dotVec(u, x1);
  return (x) => subtractVec(x, scaleVec(u, dotVec(u, x) - c));
}

/** Theta test: passes with no hydrogens, else iff some H has ∠(A, H, D) ≥ θmin. */
function thetaTest(hydrogens: readonly Vec3[], donor: Vec3, acceptor: Vec3, thetaMin: number): boolean {
  return hydrogens.length === 0 || hydrogens.some((h) => angle(acceptor, h, donor) >= thetaMin);
}

// ---------------------------------------------------------------------------------------------
// Acceptor-side tests (spec §5.2). Raw parameters as in the spec's tables; slop applied here.

/** syn/anti (A1–A3, A5, A6, A9, A10): S = syn atom, P = plane atom. */
export function synAntiAcceptorTest(
  a: Vec3,
  s: Vec3,
  p: Vec3,
  d: Vec3,
  hydrogens: readonly Vec3[],
  params: SynAntiRow,
  slop: HBondCriteria,
): boolean {
  const u = normalizeVec(subtractVec(p, a));
  const sp = subtractVec(s, p);
  const w = subtractVec(sp, scaleVec(u, dotVec(sp, u)));
  const [r, phi, theta] = dotVec(subtractVec(d, a), w) > 0 ? params.syn : params.anti;
  if (distanceSquaredVec(d, a) > distanceLimit2(r, slop)) return false;
  const proj = planeProjector(a, p, s);
  if (proj && angle(proj(p), proj(a), proj(d)) < angleMin(phi, slop)) return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/** phi-psi (A4, A7, A8, A22–A29, generic): B1, B2 bonded atoms (B2 may be absent; §5.2.2 with B1's other neighbours G). */
export function phiPsiAcceptorTest(
  a: Vec3,
  b1: Vec3 | null,
  b2: Vec3 | null,
  b1Others: readonly Vec3[],
  d: Vec3,
  hydrogens: readonly Vec3[],
  params: PhiPsiRow,
  slop: HBondCriteria,
): boolean {
  let base: Vec3 | null = null;
  let proj: ((x: Vec3) => Vec3) | null = null;
  if (b1 && b2) {
    base = scaleVec(addVec(b1, b2), 0.5);
    proj = planeProjector(a, b1, b2);
  } else if (b1) {
    base = b1;
    if (b1Others.length === 1) proj = planeProjector(a, b1, b1Others[0]!);
    else if (b1Others.length === 2) proj = planeProjector(a, b1Others[0]!, b1Others[1]!);
    else if (b1Others.length > 2) return false; // connectivity error: the pair is skipped
  }
  const [r, phi, theta] = params;
  if (distanceSquaredVec(d, a) > distanceLimit2(r, slop)) return false;
  if (proj && base && angle(proj(base), proj(a), proj(d)) < angleMin(phi, slop)) return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/** theta-tau acceptor (A11–A21, generic) without the aniline tau: reference points Q (bonded partner, or the points opposite the lone pairs). */
export function thetaTauAcceptorTest(
  a: Vec3,
  references: readonly Vec3[],
  d: Vec3,
  hydrogens: readonly Vec3[],
  params: ThetaTauAcceptorRow,
  slop: HBondCriteria,
): boolean {
  const [r, low, high, theta] = params;
  if (distanceSquaredVec(d, a) > distanceLimit2(r, slop)) return false;
  const min = angleMin(low, slop);
  const max = angleMax(-high, slop);
  if (
    !references.some((q) => {
      const u = angle(q, a, d);
      return u >= min && u <= max;
    })
  )
    return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/** Generic acceptor: distance, then ∠(B, A, D) ≥ βmin for every neighbour B. */
export function genericAcceptorTest(
  a: Vec3,
  neighbours: readonly Vec3[],
  d: Vec3,
  params: GenericAcceptorRow,
  slop: HBondCriteria,
): boolean {
  if (distanceSquaredVec(d, a) > distanceLimit2(params[0], slop)) return false;
  const min = angleMin(params[1], slop);
  return neighbours.every((b) => angle(b, a, d) >= min);
}

// ---------------------------------------------------------------------------------------------
// Donor-side tests (spec §5.4), by acceptor class

/** Acceptor classes of the donor tests (spec §4.1). */
export type AcceptorClass = "sp2O" | "sp3O" | "sp3N" | "generic";

/** Acceptor class from IDATM type and element; null for types outside the IDATM table (every donor test rejects). */
export function acceptorClassOf(type: string, element: string): AcceptorClass | null {
  if (!IDATM_TYPES[type]) return null;
  const geom = geometryOf(type);
  if (element === "O" && geom === 3) return "sp2O";
  if ((element === "O" && geom === 4) || (element === "N" && geom === 3)) return "sp3O";
  if (element === "N" && geom === 4) return "sp3N";
  return "generic";
}

/** What the donor tests read about the acceptor. */
export interface AcceptorSite {
  pos: Vec3;
  /** Every atom bonded to it: the sp3-O phi plane (two bonds) and the lone pairs of an sp3 N. */
  neighbours: readonly Vec3[];
  cls: AcceptorClass;
  isSulfur: boolean;
}

const anyHydrogenWithin = (hs: readonly Vec3[], a: Vec3, limit2: number, strict = false) =>
  hs.some((h) => (strict ? distanceSquaredVec(h, a) < limit2 : distanceSquaredVec(h, a) <= limit2));

/**
 * theta-tau donor (D10, D11, D13–D18, generic planar N with >1 heavy neighbour; spec §5.4.1): needs a
 * hydrogen within rp of A (explicit or inferred) and the class's θ. `waterMode` (a water without H) skips
 * the hydrogen-distance requirement except for the generic class, which then always fails.
 */
export function thetaTauDonorTest(
  hydrogens: readonly Vec3[],
  d: Vec3,
  acc: AcceptorSite,
  params: ThetaTauDonorRow,
  slop: HBondCriteria,
  options: { waterMode?: boolean; generic?: readonly [rp: number, theta: number] } = {},
): boolean {
  const waterMode = options.waterMode ?? false;
  if (hydrogens.length === 0 && !waterMode) return false;
  const a = acc.pos;
  let rp: number;
  let theta: number;
  if (acc.cls === "sp2O") [rp, theta] = [params[0], params[1]];
  else if (acc.cls === "sp3O") {
    [rp, theta] = [params[2], params[3]];
    if (acc.neighbours.length === 2) {
      const [b1, b2] = acc.neighbours as [Vec3, Vec3];
      const proj = planeProjector(a, b1, b2);
      if (proj && angle(proj(scaleVec(addVec(b1, b2), 0.5)), proj(a), proj(d)) < angleMin(params[4], slop))
        return false;
    }
  } else if (acc.cls === "sp3N") {
    [rp, theta] = [params[5], params[6]];
    const q = oppositeLonePairs(a, acc.neighbours);
    if (q.length > 0 && !q.some((x) => angle(d, a, x) > angleMin(params[7], slop))) return false;
  } else [rp, theta] = options.generic ?? THETA_TAU_DONOR_GENERIC;
  const skipDistance = waterMode && acc.cls !== "generic";
  const limit = (rp + slop.distSlopA + (acc.cls === "generic" && acc.isSulfur ? SULFUR_COMPENSATION_A : 0)) ** 2;
  if (!skipDistance && !anyHydrogenWithin(hydrogens, a, limit)) return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/**
 * upsilon-tau donor (D1–D9, generic planar N with ≤1 heavy neighbour; spec §5.4.2): D···A, υ = ∠(X, D, A)
 * at the donor's only heavy neighbour X, θ, then the tau test against X's substituents (computed on demand).
 */
export function upsilonTauDonorTest(
  hydrogens: readonly Vec3[],
  d: Vec3,
  heavyNeighbours: readonly Vec3[],
  acc: AcceptorSite,
  params: UpsilonTauDonorRow,
  slop: HBondCriteria,
  xSubstituents: () => readonly Vec3[],
): boolean {
  const a = acc.pos;
  let row: readonly [number, number, number, number, number | null];
  if (acc.cls === "sp2O") row = params.sp2O;
  else if (acc.cls === "sp3O") row = [params.sp3O[0], params.sp3O[1], params.sp3O[2], params.sp3O[3], params.sp3O[4]];
  else if (acc.cls === "sp3N") {
    if (acc.neighbours.length > 1) {
      const q = oppositeLonePairs(a, acc.neighbours);
      if (q.length === 0 || !q.some((x) => angle(x, a, d) >= angleMin(params.sp3N[5], slop))) return false;
    }
    row = [params.sp3N[0], params.sp3N[1], params.sp3N[2], params.sp3N[3], params.sp3N[4]];
  } else row = [...UPSILON_TAU_DONOR_GENERIC, null];
  const [r, low, negHigh, theta, tau] = row;
  const limit = (r + slop.distSlopA + (acc.cls === "generic" && acc.isSulfur ? SULFUR_COMPENSATION_A : 0)) ** 2;
  if (distanceSquaredVec(d, a) > limit) return false;
  if (heavyNeighbours.length !== 1) return false;
  const x = heavyNeighbours[0]!;
  const u = angle(x, d, a);
  // A positive "maximum" (D7's +161, spec §10 Q2) is processed like any angle ≥ 7.5, so υ can never be at most its negative.
  const max = negHigh < 0 ? angleMax(negHigh, slop) : -angleMin(negHigh, slop);
  if (u < angleMin(low, slop) || u > max) return false;
  if (!thetaTest(hydrogens, d, a, angleMin(theta, slop))) return false;
  if (tau === null) return true;
  return tauTest(processTau(tau, slop), params.tauSymmetry, d, hydrogens, x, xSubstituents(), a);
}

/** Generic donor (D19 for O, N, S not covered above; spec §5.4.3). */
export function genericDonorTest(
  hydrogens: readonly Vec3[],
  d: Vec3,
  heavyNeighbours: readonly Vec3[],
  acc: AcceptorSite,
  row: GenericDonorRow,
  slop: HBondCriteria,
): boolean {
  const a = acc.pos;
  const k = acc.cls === "sp2O" ? 0 : acc.cls === "sp3O" ? 1 : acc.cls === "sp3N" ? 2 : null;
  const rp = k === null ? GENERIC_DONOR_CLASS.rp : row.rp[k];
  const r = k === null ? GENERIC_DONOR_CLASS.r : row.r[k];
  // Against a sulfur acceptor of the generic class only the bonded-angle minimum relaxes (spec §10 Q3).
  const beta = GENERIC_DONOR_CLASS.betaMin - (k === null && acc.isSulfur ? 9 : 0);
  if (
    hydrogens.length === 0
      ? distanceSquaredVec(d, a) > distanceLimit2(r, slop)
      : !anyHydrogenWithin(hydrogens, a, distanceLimit2(rp, slop), true)
  )
    return false;
  if (!heavyNeighbours.every((x) => angle(x, d, a) >= angleMin(beta, slop))) return false;
  return (
    hydrogens.length === 0 || hydrogens.some((h) => angle(d, h, a) >= angleMin(GENERIC_DONOR_CLASS.thetaMin, slop))
  );
}

const WATER_THETA_TAU: ThetaTauDonorRow = [
  WATER_DONOR.rp.sp2O,
  WATER_DONOR.theta,
  WATER_DONOR.rp.sp3O,
  WATER_DONOR.theta,
  WATER_DONOR.phiSp3O,
  WATER_DONOR.rp.sp3N,
  WATER_DONOR.theta,
  WATER_DONOR.upsilonSp3N,
];

/** Water donor (D12; spec §5.4.4): with H the theta-tau test with water limits; without, D···A by class then water mode. */
export function waterDonorTest(hydrogens: readonly Vec3[], d: Vec3, acc: AcceptorSite, slop: HBondCriteria): boolean {
  const generic = [WATER_DONOR.rp.generic, WATER_DONOR.theta] as const;
  if (hydrogens.length > 0) return thetaTauDonorTest(hydrogens, d, acc, WATER_THETA_TAU, slop, { generic });
  if (distanceSquaredVec(d, acc.pos) > distanceLimit2(WATER_DONOR.r[acc.cls], slop)) return false;
  return thetaTauDonorTest(hydrogens, d, acc, WATER_THETA_TAU, slop, { waterMode: true, generic });
}

// ---------------------------------------------------------------------------------------------
// Tau test (spec §5.3)

/** A processed tau: positive = minimum (shrinks by the angle slop, floor 0), negative = −maximum (grows, cap 180); null = no test. */
export function processTau(tau: number | null, slop: HBondCriteria): number | null {
  if (tau === null) return null;
  if (tau >= 0) return Math.max(tau - slop.angleSlopDeg, 0);
  return Math.max(tau - slop.angleSlopDeg, -180);
}

/**
 * Tau test: `processedTau` from processTau; `symmetry` the group's tau symmetry; Z the centre (the
 * donor), `zHydrogens` its hydrogens (used when symmetry is 4), X its first heavy neighbour and
 * `xSubstituents` X's substituents other than Z (explicit H, inferred H-or-lone-pair positions,
 * other heavy neighbours); O the other point (the acceptor). Rejects on a symmetry mismatch.
 */
export function tauTest(
  processedTau: number | null,
  symmetry: number,
  z: Vec3,
  zHydrogens: readonly Vec3[],
  x: Vec3,
  xSubstituents: readonly Vec3[],
  o: Vec3,
): boolean {
  if (processedTau === null) return true;
  let refs: readonly Vec3[] = symmetry === 4 ? zHydrogens : [];
  if (2 * refs.length !== symmetry) refs = xSubstituents;
  if (refs.length === 0) return true;
  if (2 * refs.length !== symmetry) return false;
  const n = normalizeVec(subtractVec(x, z));
  const proj = (p: Vec3) => subtractVec(p, scaleVec(n, dotVec(n, p)));
  const taus = refs.map((r) => angle(proj(o), proj(z), proj(r)));
  if (processedTau < 0) return taus.some((t) => t <= -processedTau);
  if (processedTau > 0) return taus.every((t) => t >= processedTau);
  return true;
}

/** Metal veto (spec §1.1 step 5, §7): a donor on the side of one of the acceptor's metals, ∠(D, A, M) < 45° (never relaxed). */
export function metalVeto(a: Vec3, d: Vec3, metals: readonly Vec3[]): boolean {
  return metals.some((m) => angleAtDeg(d, a, m) < METAL_VETO_DEG);
}
