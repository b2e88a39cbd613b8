/**
 * Parameter rows of ChimeraX `hbonds` (../shared/spec/hbond-criteria.md §3 acceptor groups, §3.3 generic
 * acceptors, §4 donor groups and generic donors), as raw values: slop is applied by the tests in
 * hbond-geometry.ts. The group matcher (hbond-groups.ts) and the criteria unit tests read the same rows.
 */

/** syn/anti acceptor: (r, φ, θ) on the syn side and on the anti side. */
export interface SynAntiRow {
  syn: readonly [r: number, phi: number, theta: number];
  anti: readonly [r: number, phi: number, theta: number];
}
export type PhiPsiRow = readonly [r: number, phi: number, theta: number];
/** theta-tau acceptor: r, υ low, υ high, θ. */
export type ThetaTauAcceptorRow = readonly [r: number, upsilonLow: number, upsilonHigh: number, theta: number];
export type GenericAcceptorRow = readonly [r: number, betaMin: number];

export const SYN_ANTI_ACCEPTORS = {
  A1: { syn: [3.03, 110, 145], anti: [3.03, 110, 135] },
  A2: { syn: [3.03, 110, 145], anti: [3.03, 110, 135] },
  A3: { syn: [3.17, 90, 145], anti: [3.17, 110, 145] },
  A5: { syn: [3.17, 110, 130], anti: [3.17, 110, 135] },
  A6: { syn: [3.3, 110, 135], anti: [3.3, 110, 130] },
  A9: { syn: [3.42, 90, 145], anti: [3.53, 110, 130] },
  A10: { syn: [3.3, 110, 130], anti: [3.3, 120, 135] },
} as const satisfies Record<string, SynAntiRow>;

export const PHI_PSI_ACCEPTORS = {
  A4: [3.73, 90, 145],
  A7: [3.3, 110, 130],
  A8: [3.17, 110, 135],
  A22: [3.03, 120, 145],
  A23: [3.42, 140, 140],
  A24: [3.42, 140, 140],
  A25: [3.17, 150, 145],
  A26: [3.3, 140, 155],
  A27: [3.3, 140, 140],
  A28: [3.3, 150, 135],
  A29: [3.42, 150, 135],
  /** Generic O2-/O3- whose first neighbour is planar. */
  genericChargedO: [3.53, 90, 130],
  /** Generic O2 whose first neighbour is planar. */
  genericO2: [3.3, 110, 130],
  /** Generic O3 with two bonds. */
  genericO3: [3.42, 120, 135],
  genericN2: [3.42, 140, 135],
  genericS2: [3.83, 85, 140],
} as const satisfies Record<string, PhiPsiRow>;

export const THETA_TAU_ACCEPTORS = {
  A11: [3.03, 103, 146, 145],
  A12: [3.03, 109, 180, 145],
  A13: [3.03, 100, 180, 145],
  A14: [3.03, 103, 180, 155],
  A15: [3.03, 100, 161, 145],
  A16: [3.17, 103, 180, 150],
  A17: [3.17, 153, 180, 145],
  A18: [3.3, 153, 180, 150],
  A19: [3.3, 153, 180, 150],
  A20: [3.17, 100, 153, 150],
  A21: [3.42, 90, 137, 140],
  /** Generic O2 whose first neighbour is tetrahedral. */
  genericO2: [3.03, 100, 180, 145],
  /** Generic O3 with one bond. */
  genericO3: [3.17, 100, 161, 145],
  /** Generic N3 with one heavy neighbour / with two or three. */
  genericN3One: [3.13, 98, 180, 150],
  genericN3More: [3.3, 153, 180, 145],
  genericN1: [3.4, 136, 180, 145],
} as const satisfies Record<string, ThetaTauAcceptorRow>;

/** A21's tau (never relaxed) and its symmetry. */
export const ANILINE_ACCEPTOR_TAU = { tau: 37.5, symmetry: 4 } as const;

export const GENERIC_ACCEPTORS = {
  /** Any remaining O (O2-/O3- on a non-planar atom, O2 on a single/linear one, O3 with no bond, Oar, …). */
  oxygen: [3.53, 90],
  /** N3 without neighbours. */
  n3Alone: [3.42, 90],
  /** Sar, S3-. */
  sulfur: [3.83, 85],
} as const satisfies Record<string, GenericAcceptorRow>;

/** Theta-tau donor: rp[sp2 O], θ[sp2 O], rp[sp3 O], θ[sp3 O], φ[sp3 O], rp[sp3 N], θ[sp3 N], υN[sp3 N] (H···A distances). */
export type ThetaTauDonorRow = readonly [number, number, number, number, number, number, number, number];
/** Upsilon-tau donor rows: (r, υlow, −υhigh, θ, τ) for sp2 O; + φ (unused) for sp3 O; + υN for sp3 N (D···A distances). */
export interface UpsilonTauDonorRow {
  sp2O: readonly [number, number, number, number, number | null];
  sp3O: readonly [number, number, number, number, number | null, number];
  sp3N: readonly [number, number, number, number, number | null, number];
  tauSymmetry: number;
}
/** Generic donor: H···A and D···A limits for sp2 O, sp3 O, sp3 N acceptors. */
export interface GenericDonorRow {
  rp: readonly [number, number, number];
  r: readonly [number, number, number];
}

const D2_D3: UpsilonTauDonorRow = {
  sp2O: [3.17, 90, -146, 140, -30],
  sp3O: [3.17, 90, -146, 140, -22.5, 150],
  sp3N: [3.17, 113, -161, 125, null, 140],
  tauSymmetry: 4,
};
export const UPSILON_TAU_DONORS = {
  D1: {
    sp2O: [2.87, 103, -128, 140, -30],
    sp3O: [2.87, 103, -128, 155, -30, 150],
    sp3N: [2.87, 103, -128, 140, -30, 150],
    tauSymmetry: 2,
  },
  D2: D2_D3,
  D3: D2_D3,
  D4: {
    sp2O: [3.17, 90, -136, 140, 20],
    sp3O: [3.17, 90, -132, 150, 25, 130],
    sp3N: [3.17, 90, -124, 155, 15, 150],
    tauSymmetry: 6,
  },
  D5: {
    sp2O: [3.17, 90, -141, 130, null],
    sp3O: [3.03, 90, -141, 135, null, 140],
    sp3N: [3.03, 100, -132, 145, null, 150],
    tauSymmetry: 6,
  },
  D6: {
    sp2O: [3.3, 103, -153, 135, -45],
    sp3O: [3.3, 109, -141, 140, -30, 140],
    sp3N: [3.3, 113, -161, 125, -30, 145],
    tauSymmetry: 4,
  },
  // D7's sp3-N upper bound is +161 in ChimeraX (spec §10 Q2): aniline N never donates to sp3 N. Kept for parity.
  D7: {
    sp2O: [3.3, 100, -146, 145, -37.5],
    sp3O: [3.3, 103, -146, 140, -37.5, 130],
    sp3N: [3.42, 90, 161, 125, null, 140],
    tauSymmetry: 4,
  },
  D8: {
    sp2O: [3.03, 103, -136, 145, -37.5],
    sp3O: [3.03, 103, -136, 150, -45.0, 140],
    sp3N: [2.87, 109, -128, 145, -52.5, 150],
    tauSymmetry: 4,
  },
  D9: {
    sp2O: [3.3, 90, -128, 150, 30],
    sp3O: [3.42, 90, -124, 155, 25, 130],
    sp3N: [3.42, 90, -132, 155, 20, 140],
    tauSymmetry: 6,
  },
  /** Generic Npl/N2+ with at most one heavy neighbour. */
  genericPlanarN: {
    sp2O: [3.3, 90, -153, 135, -45],
    sp3O: [3.3, 90, -146, 140, -37.5, 130],
    sp3N: [3.4, 108, -166, 125, -35, 140],
    tauSymmetry: 4,
  },
} as const satisfies Record<string, UpsilonTauDonorRow>;

export const THETA_TAU_DONORS = {
  D10: [1.92, 146, 1.92, 153, 150, 2.48, 141, 145],
  D11: [2.09, 141, 2.09, 141, 155, 2.48, 141, 145],
  D13: [2.23, 146, 2.23, 146, 140, 2.36, 141, 145],
  D14: [1.92, 146, 2.09, 146, 140, 2.48, 141, 145],
  D15: [2.23, 132, 2.36, 146, 140, 2.48, 141, 145],
  D16: [2.36, 141, 2.48, 146, 150, 2.48, 153, 155],
  D17: [2.09, 146, 2.09, 141, 140, 2.48, 141, 145],
  D18: [2.23, 136, 2.23, 141, 150, 2.48, 141, 145],
  /** Generic Npl/N2+ with more than one heavy neighbour. */
  genericPlanarN: [2.23, 136, 2.23, 141, 140, 2.46, 136, 140],
} as const satisfies Record<string, ThetaTauDonorRow>;

/** Generic-class acceptor row of every theta-tau donor (rp, θ) and upsilon-tau donor (r, υlow, −υhigh, θ) (spec §4.1). */
export const THETA_TAU_DONOR_GENERIC = [2.48, 132] as const;
export const UPSILON_TAU_DONOR_GENERIC = [3.42, 90, -161, 125] as const;

/** Generic donors by element (spec §4.3). */
export const GENERIC_DONORS = {
  O: { rp: [2.41, 2.28, 2.28], r: [3.27, 3.14, 3.14] },
  N: { rp: [2.36, 2.48, 2.48], r: [3.3, 3.42, 3.42] },
  S: { rp: [2.42, 2.42, 2.42], r: [3.65, 3.65, 3.65] },
} as const satisfies Record<string, GenericDonorRow>;
/** Generic donors against a generic-class acceptor, and their angle minima: rp, r, θ min (D–H···A), β min (X–D···A). */
export const GENERIC_DONOR_CLASS = { rp: 2.48, r: 3.42, thetaMin: 130, betaMin: 90 } as const;

/** D12 water (spec §4.2, §5.4.4): H···A limits, D···A limits (H···A + 0.91 Å) and angles by acceptor class. */
export const WATER_DONOR = {
  rp: { sp2O: 2.36, sp3O: 2.23, sp3N: 2.23, generic: 2.36 },
  r: { sp2O: 3.27, sp3O: 3.14, sp3N: 3.14, generic: 3.27 },
  theta: 146,
  phiSp3O: 140,
  upsilonSp3N: 150,
} as const;

/** Sulfur compensation added to relaxed distance limits (spec §1.5); the metal screen and veto (spec §7), never relaxed. */
export const SULFUR_COMPENSATION_A = 0.35;
export const METAL_COORDINATION_RADIUS_A = 4.0;
export const METAL_VETO_DEG = 45;

/** Donor classes of Harding's tables: water O, Asp/Glu carboxylate O, main-chain carbonyl O, His N, Cys S. */
export type MetalDonorClass = "water" | "carboxylate" | "carbonyl" | "his" | "cys";

/**
 * Target metal–donor distances (Å) in proteins: M. M. Harding, "Small revisions to predicted distances around metal
 * sites in proteins", Acta Cryst. D62:678–682 (2006), the recommended targets for Na, Mg, K, Ca, Mn, Fe, Co, Cu and Zn
 * (His and Cys only where the paper gives them); Ni, which Harding does not cover, from Zheng et al., J. Inorg.
 * Biochem. 102:1765 (2008). Transcribed from two independent copies of the tables that agree value for value
 * (MTK++'s collection.cpp and the metal_distances_info.txt of knamikas/Alchemy; Ni from the latter only), and checked
 * against the metal sites of the shared structures (docs/hbonds.md, `npm run bench:metal-sites`).
 */
export const METAL_TARGET_DISTANCES_A: Readonly<Record<string, Readonly<Partial<Record<MetalDonorClass, number>>>>> = {
  Na: { water: 2.41, carboxylate: 2.41, carbonyl: 2.38 },
  Mg: { water: 2.07, carboxylate: 2.07, carbonyl: 2.26 },
  K: { water: 2.81, carboxylate: 2.82, carbonyl: 2.74 },
  Ca: { water: 2.39, carboxylate: 2.36, carbonyl: 2.36 },
  Mn: { water: 2.19, carboxylate: 2.15, carbonyl: 2.19, his: 2.21, cys: 2.35 },
  Fe: { water: 2.09, carboxylate: 2.04, carbonyl: 2.04, his: 2.16, cys: 2.3 },
  Co: { water: 2.09, carboxylate: 2.05, carbonyl: 2.08, his: 2.14, cys: 2.25 },
  Ni: { water: 2.19, carboxylate: 2.17, carbonyl: 2.17, his: 1.99, cys: 2.24 },
  Cu: { water: 2.13, carboxylate: 1.99, carbonyl: 2.04, his: 2.02, cys: 2.15 },
  Zn: { water: 2.09, carboxylate: 1.99, carbonyl: 2.07, his: 2.03, cys: 2.31 },
};

/**
 * Inner-sphere coordination distance per metal: the longest target distance of any donor class above (Mg 2.26, the
 * main-chain carbonyl; Mn, Fe, Co, Ni, Cu, Zn their Cys S; Na, K, Ca water or carboxylate), plus
 * MAX_COORDINATION_EXCESS_A. Two atoms both this close to one metal are its ligands.
 */
export const METAL_COORDINATION_TARGET_A: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(METAL_TARGET_DISTANCES_A).map(([metal, targets]) => [metal, Math.max(...Object.values(targets))]),
);
/** Allowance over the target distance: observed coordination bonds in crystal structures spread about ±0.2–0.3 Å. */
export const MAX_COORDINATION_EXCESS_A = 0.5;
/** A metal outside the table: its covalent radius (elements.ts) plus this (O/N covalent radius ~0.7 Å plus the excess). */
export const UNLISTED_METAL_LIGAND_ALLOWANCE_A = 1.2;
