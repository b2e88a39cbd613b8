/**
 * The geometry tests of ChimeraX `hbonds` (after Mills & Dean 1996) as pure functions, written from
 * ../shared/spec/hbond-criteria.md (§1.4 slop processing, §5 tests, §5.5 constructions) with the
 * parameter rows of the groups the spec's unit cases use (§3, §4). `findHBonds` (hbonds.ts) runs
 * the acceptor tests from here and its own donor tests, with the group tables and IDATM typing.
 *
 * Conventions (spec §0): ∠(X, Y, Z) is the angle at Y in degrees, 0 when a vector has zero length;
 * distance tests compare squared distances with squared limits, inclusive (except the generic
 * donor's H···A test, strict).
 */
import { type Vec3, addVec, angleAtDeg, crossVec, distanceSquaredVec, dotVec, lengthVec, normalizeVec, scaleVec, subtractVec } from "./geometry/vec3";

/** ChimeraX `relax true`: 0.4 Å and 20°; `relax false`: 0 and 0. */
export interface Slop {
  distA: number;
  angleDeg: number;
}
export const RELAXED: Slop = { distA: 0.4, angleDeg: 20 };
export const STRICT: Slop = { distA: 0, angleDeg: 0 };

/** A processed distance limit, squared (spec §1.4: (v + distSlop)²). */
export function distanceLimit2(v: number, slop: Slop): number {
  return (v + slop.distA) ** 2;
}

/** A processed angle minimum (v ≥ 7.5): v − angleSlop, floored at 0. */
export function angleMin(v: number, slop: Slop): number {
  return Math.max(v - slop.angleDeg, 0);
}

/** A processed angle maximum, stored as −|max| (v < 0): the test's maximum becomes min(|v| + angleSlop, 180). */
export function angleMax(v: number, slop: Slop): number {
  return -Math.max(v - slop.angleDeg, -180);
}

const angle = angleAtDeg;

/** Projection of X onto the plane through X0, X1, X2 (spec §5.1); null when the three points are collinear. */
export function planeProjector(x0: Vec3, x1: Vec3, x2: Vec3): ((x: Vec3) => Vec3) | null {
  const n = crossVec(subtractVec(x1, x0), subtractVec(x2, x1));
  if (lengthVec(n) < 1e-12) return null;
  const u = normalizeVec(n);
  const c = dotVec(u, x1);
  return (x) => subtractVec(x, scaleVec(u, dotVec(u, x) - c));
}

/** Theta test: passes with no hydrogens, else iff some H has ∠(A, H, D) ≥ θmin. */
export function thetaTest(hydrogens: readonly Vec3[], donor: Vec3, acceptor: Vec3, thetaMin: number): boolean {
  return hydrogens.length === 0 || hydrogens.some((h) => angle(acceptor, h, donor) >= thetaMin);
}

// ---------------------------------------------------------------------------------------------
// Acceptor-side tests (spec §5.2). Raw parameters as in the spec's tables; slop applied here.

export interface SynAntiParams {
  syn: readonly [r: number, phi: number, theta: number];
  anti: readonly [r: number, phi: number, theta: number];
}

/** syn/anti (A1–A3, A5, A6, A9, A10): S = syn atom, P = plane atom. */
export function synAntiAcceptorTest(a: Vec3, s: Vec3, p: Vec3, d: Vec3, hydrogens: readonly Vec3[], params: SynAntiParams, slop: Slop): boolean {
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
  params: readonly [r: number, phi: number, theta: number],
  slop: Slop,
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
  params: readonly [r: number, upsilonLow: number, upsilonHigh: number, theta: number],
  slop: Slop,
): boolean {
  const [r, low, high, theta] = params;
  if (distanceSquaredVec(d, a) > distanceLimit2(r, slop)) return false;
  const min = angleMin(low, slop);
  const max = angleMax(-high, slop);
  if (!references.some((q) => {
    const u = angle(q, a, d);
    return u >= min && u <= max;
  })) return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/** Generic acceptor: distance, then ∠(B, A, D) ≥ βmin for every neighbour B. */
export function genericAcceptorTest(a: Vec3, neighbours: readonly Vec3[], d: Vec3, params: readonly [r: number, betaMin: number], slop: Slop): boolean {
  if (distanceSquaredVec(d, a) > distanceLimit2(params[0], slop)) return false;
  const min = angleMin(params[1], slop);
  return neighbours.every((b) => angle(b, a, d) >= min);
}

// ---------------------------------------------------------------------------------------------
// Donor-side tests (spec §5.4), for the acceptor classes sp2 O / sp3 O / sp3 N / generic.

export type AcceptorClass = "sp2O" | "sp3O" | "sp3N" | "generic";

/** theta-tau donor (D10, D11, D13–D18) for an sp2-O or generic acceptor: needs a hydrogen (explicit or inferred). */
export function thetaTauDonorTest(
  hydrogens: readonly Vec3[],
  d: Vec3,
  a: Vec3,
  acceptorClass: "sp2O" | "generic",
  params: { sp2O: readonly [rp: number, theta: number]; generic: readonly [rp: number, theta: number] },
  slop: Slop,
): boolean {
  if (hydrogens.length === 0) return false;
  const [rp, theta] = params[acceptorClass];
  const limit = distanceLimit2(rp, slop);
  if (!hydrogens.some((h) => distanceSquaredVec(h, a) <= limit)) return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/** upsilon-tau donor (D1–D9) for an sp2-O acceptor, τ None: D···A, υ = ∠(X, D, A) within [υlow, υhigh], theta. */
export function upsilonTauDonorTest(
  hydrogens: readonly Vec3[],
  d: Vec3,
  heavyNeighbours: readonly Vec3[],
  a: Vec3,
  params: readonly [r: number, upsilonLow: number, negUpsilonHigh: number, theta: number],
  slop: Slop,
): boolean {
  const [r, low, negHigh, theta] = params;
  if (distanceSquaredVec(d, a) > distanceLimit2(r, slop)) return false;
  if (heavyNeighbours.length !== 1) return false;
  const u = angle(heavyNeighbours[0]!, d, a);
  if (u < angleMin(low, slop) || u > angleMax(negHigh, slop)) return false;
  return thetaTest(hydrogens, d, a, angleMin(theta, slop));
}

/** Generic donor (D19) without hydrogens: D···A ≤ r and ∠(X, D, A) ≥ βmin for every heavy neighbour X. */
export function genericDonorTestNoH(d: Vec3, heavyNeighbours: readonly Vec3[], a: Vec3, params: readonly [r: number, betaMin: number], slop: Slop): boolean {
  if (distanceSquaredVec(d, a) > distanceLimit2(params[0], slop)) return false;
  const min = angleMin(params[1], slop);
  return heavyNeighbours.every((x) => angle(x, d, a) >= min);
}

/** Water donor without hydrogens (D12): D···A limit by class; a generic-class acceptor always fails (spec §5.4.4). */
export function waterDonorTestNoH(d: Vec3, a: Vec3, acceptorClass: AcceptorClass, slop: Slop): boolean {
  if (acceptorClass === "generic") return false;
  const r = acceptorClass === "sp2O" ? 3.27 : 3.14;
  return distanceSquaredVec(d, a) <= distanceLimit2(r, slop);
}

// ---------------------------------------------------------------------------------------------
// Constructions (spec §5.5)

/** The hydrogen of a planar donor with two heavy neighbours: on the external bisector, 0.91 Å from it. */
export function planarHydrogenOnBisector(c: Vec3, k1: Vec3, k2: Vec3, bondA = 0.91): Vec3 {
  const u1 = normalizeVec(subtractVec(k1, c));
  const u2 = normalizeVec(subtractVec(k2, c));
  return addVec(c, scaleVec(normalizeVec(scaleVec(addVec(u1, u2), -1)), bondA));
}

/** The lone pair of a tetrahedral atom with three substituents (|K| = 3): normal of the plane through C + uᵢ, on C's side. */
export function tetrahedralFourthPosition(c: Vec3, k: readonly [Vec3, Vec3, Vec3], lengthA = 1): Vec3 {
  const p = k.map((x) => addVec(c, normalizeVec(subtractVec(x, c)))) as [Vec3, Vec3, Vec3];
  let n = normalizeVec(crossVec(subtractVec(p[1], p[0]), subtractVec(p[2], p[1])));
  if (dotVec(n, subtractVec(c, p[0])) < 0) n = scaleVec(n, -1);
  return addVec(c, scaleVec(n, lengthA));
}

// ---------------------------------------------------------------------------------------------
// Parameter rows of the groups the spec's unit cases use (raw values, spec §3–§4).

export const ACCEPTOR_PARAMS = {
  /** A3 carboxylate (syn/anti). */
  carboxylate: { syn: [3.17, 90, 145], anti: [3.17, 110, 145] } as SynAntiParams,
  /** A15 non-phenol hydroxyl (theta-tau, Q = heavy neighbour). */
  hydroxyl: [3.03, 100, 161, 145] as const,
  /** A17 non-protonated tertiary amine (theta-tau, LP). */
  tertiaryAmine: [3.17, 153, 180, 145] as const,
  /** A25 N in a symmetric 6-ring (phi-psi, B1/B2 = ring neighbours). */
  symmetricSixRingN: [3.17, 150, 145] as const,
  /** Generic O3- / O2- with a non-planar first neighbour (generic). */
  genericChargedO: [3.53, 90] as const,
};

export const DONOR_PARAMS = {
  /** D13 amide N–H incl. backbone (theta-tau): H···A and θ per class. */
  amideNH: { sp2O: [2.23, 146] as const, generic: [2.48, 132] as const },
  /** D5 hydroxyl (upsilon-tau), sp2-O acceptor row: r, υlow, −υhigh, θ (τ None). */
  hydroxylSp2O: [3.17, 90, -141, 130] as const,
  /** D19 generic S donor, sp2-O acceptor: r, βmin. */
  genericSulfurSp2O: [3.65, 90] as const,
};

// ---------------------------------------------------------------------------------------------
// Tau test (spec §5.3)

/** A processed tau: positive = minimum (shrinks by the angle slop, floor 0), negative = −maximum (grows, cap 180); null = no test. */
export function processTau(tau: number | null, slop: Slop): number | null {
  if (tau === null) return null;
  if (tau >= 0) return Math.max(tau - slop.angleDeg, 0);
  return Math.max(tau - slop.angleDeg, -180);
}

/** The two remaining tetrahedral positions of a centre with two known substituents (|K| = 2 construction). */
export function tetrahedralPairPositions(c: Vec3, k1: Vec3, k2: Vec3, lengthA = 1): [Vec3, Vec3] {
  const u1 = normalizeVec(subtractVec(k1, c));
  const u2 = normalizeVec(subtractVec(k2, c));
  const b = normalizeVec(scaleVec(addVec(u1, u2), -1));
  const n = normalizeVec(crossVec(u1, u2));
  const half = (54.75 * Math.PI) / 180;
  return [
    addVec(c, scaleVec(addVec(scaleVec(b, Math.cos(half)), scaleVec(n, Math.sin(half))), lengthA)),
    addVec(c, scaleVec(addVec(scaleVec(b, Math.cos(half)), scaleVec(n, -Math.sin(half))), lengthA)),
  ];
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
