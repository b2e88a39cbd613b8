/**
 * ChimeraX `hbonds` geometry tests (lib/molecule/hbond-geometry.ts, the functions findHBonds calls) with
 * the parameter rows findHBonds uses (lib/molecule/hbond-tables.ts), against the unit cases of
 * ../shared/spec/hbond-criteria.md §9.2: accepted and rejected geometries for several acceptor groups
 * (carboxylate, hydroxyl, ring N, tertiary amine, phosphate O) and donor groups (backbone N–H, hydroxyl,
 * water, Cys SG), strict (slop 0) and relaxed (0.4 Å / 20°).
 */
import { describe, expect, it } from "vitest";
import {
  type AcceptorClass,
  type AcceptorSite,
  DEFAULT_HBOND_CRITERIA as RELAXED,
  STRICT_HBOND_CRITERIA as STRICT,
  genericAcceptorTest,
  genericDonorTest,
  metalVeto,
  phiPsiAcceptorTest,
  processTau,
  synAntiAcceptorTest,
  tauTest,
  thetaTauAcceptorTest,
  thetaTauDonorTest,
  upsilonTauDonorTest,
  waterDonorTest,
} from "@/lib/molecule/hbond-geometry";
import { tetrahedralPositions, trigonalPositions } from "@/lib/molecule/hbond-hydrogens";
import {
  GENERIC_ACCEPTORS,
  GENERIC_DONORS,
  PHI_PSI_ACCEPTORS,
  SYN_ANTI_ACCEPTORS,
  THETA_TAU_ACCEPTORS,
  THETA_TAU_DONORS,
  UPSILON_TAU_DONORS,
} from "@/lib/molecule/hbond-tables";
import { type Vec3, addVec, angleAtDeg, normalizeVec, scaleVec, subtractVec } from "@/lib/molecule/geometry/vec3";

const rad = (deg: number) => (deg * Math.PI) / 180;
const polar = (deg: number, r = 1): Vec3 => [r * Math.cos(rad(deg)), r * Math.sin(rad(deg)), 0];
type Verdict = "accept" | "reject";
const v = (b: boolean): Verdict => (b ? "accept" : "reject");
/** An acceptor as the donor tests see it (no bonded atoms unless given). */
const site = (pos: Vec3, cls: AcceptorClass, neighbours: Vec3[] = [], isSulfur = false): AcceptorSite => ({
  pos,
  neighbours,
  cls,
  isSulfur,
});

/** Point at distance d from `from`, making angle `deg` at `from` with the direction `axis` (in the xy plane). */
function atAngle(from: Vec3, toward: Vec3, deg: number, d: number): Vec3 {
  const base = Math.atan2(toward[1] - from[1], toward[0] - from[0]);
  return addVec(from, [d * Math.cos(base + rad(deg)), d * Math.sin(base + rad(deg)), 0]);
}

/** A hydrogen 0.91 Å from D with ∠(D, H, A) = θ, in the xy plane. */
function hydrogenWithTheta(d: Vec3, a: Vec3, theta: number): Vec3 {
  let lo = 0;
  let hi = Math.PI;
  const dirA = Math.atan2(a[1] - d[1], a[0] - d[0]);
  const h = (beta: number): Vec3 => addVec(d, [0.91 * Math.cos(dirA + beta), 0.91 * Math.sin(dirA + beta), 0]);
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (angleAtDeg(d, h(mid), a) > theta) lo = mid;
    else hi = mid;
  }
  return h((lo + hi) / 2);
}

describe("U1 carboxylate acceptor (A3, syn/anti)", () => {
  const C: Vec3 = [0, 0, 0];
  const O1: Vec3 = [0.625, 1.0825, 0];
  const O2: Vec3 = [0.625, -1.0825, 0];
  const donorAt = (alpha: number, d: number) => addVec(O1, polar(alpha, d));
  const test = (D: Vec3, Hs: Vec3[], slop = STRICT) =>
    v(synAntiAcceptorTest(O1, O2, C, D, Hs, SYN_ANTI_ACCEPTORS.A3, slop));
  it.each([
    [0, 3.0, "accept", "accept"],
    [0, 3.4, "reject", "accept"],
    [0, 3.6, "reject", "reject"],
    [120, 3.0, "accept", "accept"],
    [60, 3.0, "accept", "accept"],
    [140, 3.0, "reject", "accept"],
    [155, 3.0, "reject", "reject"],
    [-35, 3.0, "reject", "accept"],
  ] as const)("α %s°, d %s Å: strict %s, relaxed %s", (alpha, d, strict, relaxed) => {
    expect(test(donorAt(alpha, d), [])).toBe(strict);
    expect(test(donorAt(alpha, d), [], RELAXED)).toBe(relaxed);
  });
  it.each([
    [150, "accept", "accept"],
    [140, "reject", "accept"],
    [120, "reject", "reject"],
  ] as const)("explicit H with D–H···A %s°: strict %s, relaxed %s", (theta, strict, relaxed) => {
    const D = donorAt(0, 3.0);
    const H = hydrogenWithTheta(D, O1, theta);
    expect(angleAtDeg(D, H, O1)).toBeCloseTo(theta, 6);
    expect(test(D, [H])).toBe(strict);
    expect(test(D, [H], RELAXED)).toBe(relaxed);
  });
});

describe("U2 hydroxyl acceptor (A15, theta-tau)", () => {
  const CB: Vec3 = [0, 0, 0];
  const OG: Vec3 = [1.43, 0, 0];
  const test = (upsilon: number, d: number, slop = STRICT) =>
    v(thetaTauAcceptorTest(OG, [CB], atAngle(OG, CB, upsilon, d), [], THETA_TAU_ACCEPTORS.A15, slop));
  it.each([
    [120, 2.9, "accept", "accept"],
    [165, 2.9, "reject", "accept"],
    [175, 2.9, "reject", "accept"],
    [95, 2.9, "reject", "accept"],
    [75, 2.9, "reject", "reject"],
    [120, 3.2, "reject", "accept"],
    [120, 3.5, "reject", "reject"],
  ] as const)("υ %s°, d %s Å: strict %s, relaxed %s", (u, d, strict, relaxed) => {
    expect(test(u, d)).toBe(strict);
    expect(test(u, d, RELAXED)).toBe(relaxed);
  });
});

describe("U3 symmetric 6-ring N (A25, phi-psi)", () => {
  const N: Vec3 = [0, 0, 0];
  const X1 = polar(120, 1.34);
  const X2 = polar(240, 1.34);
  const test = (D: Vec3, slop = STRICT) => v(phiPsiAcceptorTest(N, X1, X2, [], D, [], PHI_PSI_ACCEPTORS.A25, slop));
  it.each([
    [0, "accept", "accept"],
    [25, "accept", "accept"],
    [35, "reject", "accept"],
    [45, "reject", "accept"],
  ] as const)("in-plane offset %s°: strict %s, relaxed %s", (off, strict, relaxed) => {
    expect(test(polar(off, 3.0))).toBe(strict);
    expect(test(polar(off, 3.0), RELAXED)).toBe(relaxed);
  });
  it("along the lone pair: 3.5 Å reject/accept, 3.6 Å reject/reject", () => {
    expect([test([3.5, 0, 0]), test([3.5, 0, 0], RELAXED), test([3.6, 0, 0]), test([3.6, 0, 0], RELAXED)]).toEqual([
      "reject",
      "accept",
      "reject",
      "reject",
    ]);
  });
  it("tilted 40° or 60° out of the ring plane is accepted (phi-psi has no out-of-plane test)", () => {
    for (const tilt of [40, 60]) expect(test([3 * Math.cos(rad(tilt)), 0, 3 * Math.sin(rad(tilt))])).toBe("accept");
  });
});

describe("U4 tertiary amine acceptor (A17, lone pair)", () => {
  const N: Vec3 = [0, 0, 0];
  const sub = (phi: number): Vec3 => [
    1.47 * Math.sin(rad(109.5)) * Math.cos(rad(phi)),
    1.47 * Math.sin(rad(109.5)) * Math.sin(rad(phi)),
    1.47 * Math.cos(rad(109.5)),
  ];
  const carbons: [Vec3, Vec3, Vec3] = [sub(0), sub(120), sub(240)];
  const lonePair = tetrahedralPositions(N, carbons, 1)[0]!;
  const opposite = subtractVec(N, subtractVec(lonePair, N));
  const test = (off: number, d: number, slop = STRICT) =>
    v(
      thetaTauAcceptorTest(
        N,
        [opposite],
        [d * Math.sin(rad(off)), 0, d * Math.cos(rad(off))],
        [],
        THETA_TAU_ACCEPTORS.A17,
        slop,
      ),
    );
  it("the lone pair points along +z", () => {
    expect(lonePair[2]).toBeCloseTo(1, 6);
  });
  it.each([
    [0, "accept", "accept"],
    [20, "accept", "accept"],
    [30, "reject", "accept"],
    [40, "reject", "accept"],
  ] as const)("%s° off the lone pair at 3.0 Å: strict %s, relaxed %s", (off, strict, relaxed) => {
    expect(test(off, 3.0)).toBe(strict);
    expect(test(off, 3.0, RELAXED)).toBe(relaxed);
  });
  it("on the axis at 3.30 Å: reject strict (3.17), accept relaxed", () => {
    expect([test(0, 3.3), test(0, 3.3, RELAXED)]).toEqual(["reject", "accept"]);
  });
});

describe("U5 generic O3- acceptor (phosphate O)", () => {
  const P: Vec3 = [0, 0, 0];
  const O: Vec3 = [1.5, 0, 0];
  const test = (angle: number, d: number, slop = STRICT) =>
    v(genericAcceptorTest(O, [P], atAngle(O, P, angle, d), GENERIC_ACCEPTORS.oxygen, slop));
  it.each([
    [150, 3.4, "accept", "accept"],
    [95, 3.4, "accept", "accept"],
    [80, 3.4, "reject", "accept"],
    [65, 3.4, "reject", "reject"],
    [150, 3.6, "reject", "accept"],
    [150, 4.0, "reject", "reject"],
  ] as const)("∠(P, O, D) %s°, d %s Å: strict %s, relaxed %s", (a, d, strict, relaxed) => {
    expect(test(a, d)).toBe(strict);
    expect(test(a, d, RELAXED)).toBe(relaxed);
  });
});

describe("U6 backbone N–H donor (D13) with the inferred H", () => {
  const N: Vec3 = [0, 0, 0];
  const H = trigonalPositions(N, [polar(120, 1.33), polar(240, 1.46)], 0.91, [])[0]!;
  const test = (A: Vec3, slop = STRICT) => v(thetaTauDonorTest([H], N, site(A, "sp2O"), THETA_TAU_DONORS.D13, slop));
  it("infers H at (0.91, 0, 0)", () => {
    expect(H[0]).toBeCloseTo(0.91, 2);
    expect(Math.abs(H[1])).toBeLessThan(0.02);
  });
  it.each([
    [1.9, "accept", "accept"],
    [2.2, "accept", "accept"],
    [2.5, "reject", "accept"],
    [2.7, "reject", "reject"],
  ] as const)("H···A %s Å along +x: strict %s, relaxed %s", (ha, strict, relaxed) => {
    const A = addVec(H, [ha, 0, 0]);
    expect(test(A)).toBe(strict);
    expect(test(A, RELAXED)).toBe(relaxed);
  });
  it.each([
    [150, "accept", "accept"],
    [135, "reject", "accept"],
    [120, "reject", "reject"],
  ] as const)("H···A 1.90 Å with D–H···A %s°: strict %s, relaxed %s", (theta, strict, relaxed) => {
    const A = addVec(H, scaleVec(polar(180 - theta), 1.9));
    expect(angleAtDeg(N, H, A)).toBeCloseTo(theta, 1);
    expect(test(A)).toBe(strict);
    expect(test(A, RELAXED)).toBe(relaxed);
  });
});

describe("U8 hydroxyl donor (D5, rotor without H) to an sp2 O", () => {
  const CB: Vec3 = [0, 0, 0];
  const OG: Vec3 = [1.43, 0, 0];
  const test = (u: number, d: number, slop = STRICT) =>
    v(upsilonTauDonorTest([], OG, [CB], site(atAngle(OG, CB, u, d), "sp2O"), UPSILON_TAU_DONORS.D5, slop, () => []));
  it.each([
    [110, 2.8, "accept", "accept"],
    [145, 2.8, "reject", "accept"],
    [155, 2.8, "reject", "accept"],
    [85, 2.8, "reject", "accept"],
    [65, 2.8, "reject", "reject"],
    [110, 3.3, "reject", "accept"],
    [110, 3.6, "reject", "reject"],
  ] as const)("υ %s°, d %s Å: strict %s, relaxed %s", (u, d, strict, relaxed) => {
    expect(test(u, d)).toBe(strict);
    expect(test(u, d, RELAXED)).toBe(relaxed);
  });
});

describe("U11 water donor without H", () => {
  it.each([
    [3.0, "accept", "accept"],
    [3.2, "accept", "accept"],
    [3.5, "reject", "accept"],
    [3.7, "reject", "reject"],
  ] as const)("to an O2 at %s Å: strict %s, relaxed %s", (d, strict, relaxed) => {
    expect(v(waterDonorTest([], [0, 0, 0], site([d, 0, 0], "sp2O", [[d + 1.23, 0, 0]]), STRICT))).toBe(strict);
    expect(v(waterDonorTest([], [0, 0, 0], site([d, 0, 0], "sp2O", [[d + 1.23, 0, 0]]), RELAXED))).toBe(relaxed);
  });
  it("to an S3 (generic class) never", () => {
    expect(waterDonorTest([], [0, 0, 0], site([3.0, 0, 0], "generic", [], true), RELAXED)).toBe(false);
  });
});

describe("U12 Cys SG generic donor (no H) to an O2", () => {
  const CB: Vec3 = [0, 0, 0];
  const SG: Vec3 = [1.81, 0, 0];
  const test = (angle: number, d: number, slop = STRICT) =>
    v(genericDonorTest([], SG, [CB], site(atAngle(SG, CB, angle, d), "sp2O"), GENERIC_DONORS.S, slop));
  it.each([
    [110, 3.5, "accept", "accept"],
    [110, 3.9, "reject", "accept"],
    [110, 4.1, "reject", "reject"],
    [80, 3.5, "reject", "accept"],
    [65, 3.5, "reject", "reject"],
  ] as const)("∠(CB, SG, A) %s°, d %s Å: strict %s, relaxed %s", (a, d, strict, relaxed) => {
    expect(test(a, d)).toBe(strict);
    expect(test(a, d, RELAXED)).toBe(relaxed);
  });
});

describe("U9 amide NH2 tau (D6, symmetry 4)", () => {
  const CG: Vec3 = [0, 0, 0];
  const ND2: Vec3 = [1.33, 0, 0];
  const Hs: Vec3[] = [
    [1.785, 0.7881, 0],
    [1.785, -0.7881, 0],
  ];
  // Acceptor 2.9 Å from ND2 along the first N–H, rotated about the N–C axis (x) by ω.
  const acceptor = (omega: number): Vec3 => {
    const dir = normalizeVec(subtractVec(Hs[0]!, ND2));
    return addVec(ND2, scaleVec([dir[0], dir[1] * Math.cos(rad(omega)), dir[1] * Math.sin(rad(omega))], 2.9));
  };
  const test = (omega: number, slop = STRICT) => v(tauTest(processTau(-45, slop), 4, ND2, Hs, CG, [], acceptor(omega)));
  it.each([
    [0, "accept", "accept"],
    [40, "accept", "accept"],
    [50, "reject", "accept"],
    [60, "reject", "accept"],
    [70, "reject", "reject"],
  ] as const)("ω %s°: strict (τ −45) %s, relaxed (τ −65) %s", (omega, strict, relaxed) => {
    expect(test(omega)).toBe(strict);
    expect(test(omega, RELAXED)).toBe(relaxed);
  });
});

describe("U10 primary ammonium tau (D4, symmetry 6)", () => {
  const CE: Vec3 = [0, 0, 0];
  const NZ: Vec3 = [1.49, 0, 0];
  const CD: Vec3 = [-0.5, 1.43, 0];
  const subs = [CD, ...tetrahedralPositions(CE, [NZ, CD], 1)];
  // Seen down NZ→CE (the x axis) CD projects onto +y; the acceptor sits at projected angle φ from it.
  const acceptor = (phi: number): Vec3 => [NZ[0] + 1, 2.5 * Math.cos(rad(phi)), 2.5 * Math.sin(rad(phi))];
  const test = (phi: number, slop = STRICT) => v(tauTest(processTau(20, slop), 6, NZ, [], CE, subs, acceptor(phi)));
  it.each([
    [0, "reject", "accept"],
    [10, "reject", "accept"],
    [30, "accept", "accept"],
    [60, "accept", "accept"],
  ] as const)("projected angle to CD %s°: strict (τ 20) %s, relaxed (τ 0) %s", (phi, strict, relaxed) => {
    expect(test(phi)).toBe(strict);
    expect(test(phi, RELAXED)).toBe(relaxed);
  });
  it("a symmetry mismatch rejects the pair (D1's quirk Q4: symmetry 2 against 3 substituents)", () => {
    expect(tauTest(processTau(-30, STRICT), 2, NZ, [], CE, subs, acceptor(0))).toBe(false);
  });
});

describe("metal veto (spec §1.1 step 5: ∠(D, A, M) < 45°, never relaxed)", () => {
  const A: Vec3 = [0, 0, 0];
  const M: Vec3 = [2.1, 0, 0];
  it.each([
    [40, true],
    [44, true],
    [46, false],
    [120, false],
  ] as const)("donor %s° from the metal seen from A: vetoed %s", (deg, vetoed) => {
    expect(metalVeto(A, polar(deg, 2.9), [M])).toBe(vetoed);
  });
  it("an acceptor without metals is never vetoed; one of several metals on the donor's side is enough", () => {
    expect(metalVeto(A, polar(10, 2.9), [])).toBe(false);
    expect(metalVeto(A, polar(10, 2.9), [polar(180, 2.1), M])).toBe(true);
  });
});
