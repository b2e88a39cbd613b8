/**
 * Donor and acceptor groups of ChimeraX `hbonds` (../shared/spec/hbond-criteria.md §2–§4), matched per
 * atom on the IDATM-typed graph: the first group in table order that claims an atom fixes its test and
 * its parameter row (hbond-tables.ts).
 */
import type { Atom } from "./types";
import { isMetal } from "./chemistry/bonds";
import { IDATM_TYPES, type TypedGraph, geometryOf, isPlanar, isTetrahedral } from "./chemistry/idatm";
import {
  GENERIC_ACCEPTORS,
  GENERIC_DONORS,
  type GenericAcceptorRow,
  type GenericDonorRow,
  PHI_PSI_ACCEPTORS,
  type PhiPsiRow,
  SYN_ANTI_ACCEPTORS,
  type SynAntiRow,
  THETA_TAU_ACCEPTORS,
  THETA_TAU_DONORS,
  type ThetaTauAcceptorRow,
  type ThetaTauDonorRow,
  UPSILON_TAU_DONORS,
  type UpsilonTauDonorRow,
} from "./hbond-tables";

export type AcceptorSpec = { group: string } & (
  | { test: "syn/anti"; syn: number; plane: number; params: SynAntiRow }
  | { test: "phi-psi"; b1: number | null; b2: number | null; params: PhiPsiRow }
  | { test: "theta-tau"; partner: number | "LP"; params: ThetaTauAcceptorRow; anilineTau?: true }
  | { test: "generic"; params: GenericAcceptorRow }
);

export type DonorSpec = { group: string } & (
  | { test: "theta-tau"; params: ThetaTauDonorRow }
  | { test: "upsilon-tau"; params: UpsilonTauDonorRow }
  | { test: "generic"; row: GenericDonorRow }
  | { test: "water" }
);

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

export function classifyAcceptor(g: TypedGraph, atoms: readonly Atom[], i: number): AcceptorSpec | null {
  const { T, E, nb, t, tet, only } = patternView(g, atoms, i);
  const others = (x: number) => g.adj[x]!.filter((j) => j !== i);
  const inRing = g.ringsOf[i]!.length > 0;
  if (g.truncated[i] || isMetal(E(i)) || E(i) === "C") return null;

  // A11: a bridging O3 matches through either of its phosphorus atoms (ATP's O3B: through PB, not PG with three O3-).
  if (t === "O3") {
    for (const p of nb) {
      if (T(p) !== "Pac") continue;
      const pn = g.adj[p]!;
      if (
        pn.filter((j) => T(j) === "O3-").length === 2 &&
        pn.length <= 4 &&
        pn.filter((j) => j !== i && T(j) !== "O3-").every(tet)
      ) {
        return { group: "A11 phosphate ester/P-OH O", test: "theta-tau", partner: p, params: THETA_TAU_ACCEPTORS.A11 };
      }
    }
  }
  // A1/A2 phosphates
  const pac = nb.find((j) => T(j) === "Pac");
  if (pac !== undefined && only === pac) {
    const p = pac;
    const pn = g.adj[p]!;
    const charged = pn.filter((j) => T(j) === "O3-");
    const rest = pn.filter((j) => T(j) !== "O3-");
    if (t === "O3-" && charged.length >= 3 && rest.length <= 1 && rest.every(tet)) {
      // Q1: only the O3- the matcher puts in the acceptor slot: the first (3 O3-) or first two (4 O3-) in P's bond order.
      const designated = charged.slice(0, charged.length === 4 ? 2 : 1);
      if (designated.includes(i))
        return {
          group: "A1 phosphate O-",
          test: "syn/anti",
          syn: charged[(charged.indexOf(i) + 1) % charged.length]!,
          plane: p,
          params: SYN_ANTI_ACCEPTORS.A1,
        };
    } else if (t === "O3-" && charged.length === 2 && rest.length <= 2 && rest.every((j) => tet(j) && T(j) !== "O3-")) {
      return {
        group: "A2 phosphodiester O-",
        test: "syn/anti",
        syn: charged.find((j) => j !== i)!,
        plane: p,
        params: SYN_ANTI_ACCEPTORS.A2,
      };
    }
  }
  // A3 carboxylate
  if (t === "O2-" && only >= 0 && T(only) === "Cac") {
    const os = g.adj[only]!.filter((j) => T(j) === "O2-");
    const rest = g.adj[only]!.filter((j) => T(j) !== "O2-");
    if (os.length === 2 && rest.length <= 1 && rest.every(tet))
      return {
        group: "A3 carboxylate",
        test: "syn/anti",
        syn: os.find((j) => j !== i)!,
        plane: only,
        params: SYN_ANTI_ACCEPTORS.A3,
      };
  }
  // A4 thiocarbonyl
  if (t === "S2" && only >= 0 && E(only) === "C")
    return { group: "A4 thiocarbonyl", test: "phi-psi", b1: only, b2: null, params: PHI_PSI_ACCEPTORS.A4 };
  if (t === "O2" && only >= 0 && E(only) === "C") {
    const c = only;
    const o = others(c);
    // A5 carboxylic acid C=O: C with [O2], [O3 with no other heavy neighbour], esb
    const acidO = o.find((j) => T(j) === "O3" && g.adj[j]!.length === 1);
    if (acidO !== undefined && o.length <= 2 && o.filter((j) => j !== acidO).every(tet))
      return { group: "A5 carboxylic acid C=O", test: "syn/anti", syn: acidO, plane: c, params: SYN_ANTI_ACCEPTORS.A5 };
    if (T(c) === "C2") {
      // A6 amide C=O: C2 with O2, Npl, esb
      const npl = o.find((j) => T(j) === "Npl");
      if (npl !== undefined && o.length <= 2 && o.filter((j) => j !== npl).every(tet))
        return { group: "A6 amide C=O", test: "syn/anti", syn: npl, plane: c, params: SYN_ANTI_ACCEPTORS.A6 };
      // A7 ketone/aldehyde: C2 with O2, C, R
      if (o.length >= 1 && o.length <= 2 && o.every((j) => E(j) === "C"))
        return { group: "A7 ketone/aldehyde C=O", test: "phi-psi", b1: c, b2: null, params: PHI_PSI_ACCEPTORS.A7 };
      // A8 ester C=O: C2 with O2, [O3 whose only other neighbour is tet], C
      if (
        o.length === 2 &&
        o.some((j) => E(j) === "C") &&
        o.some((j) => T(j) === "O3" && g.adj[j]!.length === 2 && g.adj[j]!.filter((k) => k !== c).every(tet))
      ) {
        return { group: "A8 ester C=O", test: "phi-psi", b1: c, b2: null, params: PHI_PSI_ACCEPTORS.A8 };
      }
    }
  }
  // A9 nitro
  if (t === "O2-" && only >= 0 && T(only) === "Ntr") {
    const os = g.adj[only]!.filter((j) => T(j) === "O2-");
    const rest = g.adj[only]!.filter((j) => T(j) !== "O2-");
    if (os.length === 2 && rest.length <= 1 && rest.every(tet))
      return {
        group: "A9 nitro",
        test: "syn/anti",
        syn: os.find((j) => j !== i)!,
        plane: only,
        params: SYN_ANTI_ACCEPTORS.A9,
      };
  }
  // A10 sulfone, A12 P-oxide, A13 sulfoxide (fire only for O2 on these centres; spec §10 Q8)
  if (t === "O2" && only >= 0 && T(only) === "Son") {
    const os = g.adj[only]!.filter((j) => T(j) === "O2");
    if (os.length === 2 && g.adj[only]!.filter((j) => T(j) !== "O2").every(tet))
      return {
        group: "A10 sulfone",
        test: "syn/anti",
        syn: os.find((j) => j !== i)!,
        plane: only,
        params: SYN_ANTI_ACCEPTORS.A10,
      };
  }
  if (t === "O2" && only >= 0 && T(only) === "Pox")
    return { group: "A12 P-oxide", test: "theta-tau", partner: only, params: THETA_TAU_ACCEPTORS.A12 };
  if (t === "O2" && only >= 0 && T(only) === "Sxd")
    return { group: "A13 sulfoxide", test: "theta-tau", partner: only, params: THETA_TAU_ACCEPTORS.A13 };
  // A14 primary amine N3: tet, H, H
  if (t === "N3" && only >= 0 && tet(only))
    return { group: "A14 primary amine", test: "theta-tau", partner: only, params: THETA_TAU_ACCEPTORS.A14 };
  // A15 alcohol O3: tet≠Sac,Pac, H
  if (t === "O3" && only >= 0 && tet(only) && T(only) !== "Sac" && T(only) !== "Pac")
    return { group: "A15 hydroxyl", test: "theta-tau", partner: only, params: THETA_TAU_ACCEPTORS.A15 };
  // A16 sulfate/sulfonate ester O
  if (t === "O3" && nb.length <= 2 && nb.some((j) => T(j) === "Sac") && nb.every((j) => T(j) !== "Pac")) {
    const s = nb.find((j) => T(j) === "Sac")!;
    if (g.adj[s]!.filter((j) => T(j) === "O3-").length === 2)
      return { group: "A16 sulfate ester O", test: "theta-tau", partner: s, params: THETA_TAU_ACCEPTORS.A16 };
  }
  // A17 tertiary amine, A19 secondary amine (lone pair)
  if (t === "N3" && nb.length === 3 && nb.every(tet))
    return { group: "A17 tertiary amine", test: "theta-tau", partner: "LP", params: THETA_TAU_ACCEPTORS.A17 };
  // A18 nitrile
  if (t === "N1" && only >= 0 && T(only) === "C1")
    return { group: "A18 nitrile", test: "theta-tau", partner: only, params: THETA_TAU_ACCEPTORS.A18 };
  if (t === "N3" && nb.length === 2 && nb.every(tet))
    return { group: "A19 secondary amine", test: "theta-tau", partner: "LP", params: THETA_TAU_ACCEPTORS.A19 };
  // A20 phenol
  if (t === "O3" && only >= 0 && T(only) === "Car")
    return { group: "A20 phenol", test: "theta-tau", partner: only, params: THETA_TAU_ACCEPTORS.A20 };
  // A21 aniline N
  if ((t === "Npl" || t === "N3") && only >= 0 && T(only) === "Car")
    return {
      group: "A21 aniline N",
      test: "theta-tau",
      partner: only,
      params: THETA_TAU_ACCEPTORS.A21,
      anilineTau: true,
    };
  // A22 water (O with hydrogens only)
  if (E(i) === "O" && nb.length === 0)
    return { group: "A22 water", test: "phi-psi", b1: null, b2: null, params: PHI_PSI_ACCEPTORS.A22 };
  // A23 non-ring ether, A24 non-ring imine N
  if (t === "O3" && !inRing && nb.length === 2 && nb.every((j) => E(j) === "C"))
    return { group: "A23 ether", test: "phi-psi", b1: nb[0]!, b2: nb[1]!, params: PHI_PSI_ACCEPTORS.A23 };
  if (t === "N2" && !inRing && nb.length === 2 && nb.every((j) => E(j) === "C"))
    return { group: "A24 imine N", test: "phi-psi", b1: nb[0]!, b2: nb[1]!, params: PHI_PSI_ACCEPTORS.A24 };
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
          ? { group: "A25 N in symmetric 6-ring", test: "phi-psi", b1: x1, b2: x2, params: PHI_PSI_ACCEPTORS.A25 }
          : { group: "A27 N in asymmetric 6-ring", test: "phi-psi", b1: x1, b2: x2, params: PHI_PSI_ACCEPTORS.A27 };
      }
      if (
        ring.length === 5 &&
        (t === "N2" || ((t === "Npl" || t === "N2+") && ring.some((j) => j !== i && E(j) === "N")))
      ) {
        const z = ring.filter((j) => j !== i && j !== x1 && j !== x2);
        const sym = E(x1) === E(x2) && z.length === 2 && E(z[0]!) === E(z[1]!);
        return sym
          ? { group: "A26 N in symmetric 5-ring", test: "phi-psi", b1: x1, b2: x2, params: PHI_PSI_ACCEPTORS.A26 }
          : { group: "A28 N in asymmetric 5-ring", test: "phi-psi", b1: x1, b2: x2, params: PHI_PSI_ACCEPTORS.A28 };
      }
    }
  }
  if (E(i) === "O" && g.ringsOf[i]!.some((k) => g.rings[k]!.length === 5)) {
    return {
      group: "A29 O in 5-ring",
      test: "phi-psi",
      b1: nb[0] ?? null,
      b2: nb[1] ?? null,
      params: PHI_PSI_ACCEPTORS.A29,
    };
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
      ? { group: `generic ${t}`, test: "phi-psi", b1: first, b2: null, params: PHI_PSI_ACCEPTORS.genericChargedO }
      : { group: `generic ${t}`, test: "generic", params: GENERIC_ACCEPTORS.oxygen };
  }
  if (t === "O2") {
    if (first === undefined) return null;
    if (firstGeom === 3)
      return { group: "generic O2", test: "phi-psi", b1: first, b2: null, params: PHI_PSI_ACCEPTORS.genericO2 };
    if (firstGeom === 4)
      return { group: "generic O2", test: "theta-tau", partner: first, params: THETA_TAU_ACCEPTORS.genericO2 };
    return { group: "generic O2", test: "generic", params: GENERIC_ACCEPTORS.oxygen };
  }
  if (t === "O3") {
    if (nb.length === 0) return { group: "generic O3", test: "generic", params: GENERIC_ACCEPTORS.oxygen };
    if (nb.length === 1)
      return { group: "generic O3", test: "theta-tau", partner: first!, params: THETA_TAU_ACCEPTORS.genericO3 };
    if (nb.length === 2)
      return { group: "generic O3", test: "phi-psi", b1: nb[0]!, b2: nb[1]!, params: PHI_PSI_ACCEPTORS.genericO3 };
    return null;
  }
  if (t === "N2")
    return {
      group: "generic N2",
      test: "phi-psi",
      b1: nb[0] ?? null,
      b2: nb[1] ?? null,
      params: PHI_PSI_ACCEPTORS.genericN2,
    };
  if (t === "N3") {
    if (nb.length === 0) return { group: "generic N3", test: "generic", params: GENERIC_ACCEPTORS.n3Alone };
    if (nb.length === 1)
      return { group: "generic N3", test: "theta-tau", partner: lp, params: THETA_TAU_ACCEPTORS.genericN3One };
    return { group: "generic N3", test: "theta-tau", partner: lp, params: THETA_TAU_ACCEPTORS.genericN3More };
  }
  if (t === "N1") return { group: "generic N1", test: "theta-tau", partner: lp, params: THETA_TAU_ACCEPTORS.genericN1 };
  if (t === "S2")
    return {
      group: "generic S2",
      test: "phi-psi",
      b1: nb[0] ?? null,
      b2: nb[1] ?? null,
      params: PHI_PSI_ACCEPTORS.genericS2,
    };
  if (t === "Sar" || t === "S3-") return { group: `generic ${t}`, test: "generic", params: GENERIC_ACCEPTORS.sulfur };
  if (atoms[i]!.element === "O")
    return { group: `generic O (${t})`, test: "generic", params: GENERIC_ACCEPTORS.oxygen };
  return null;
}

export function classifyDonor(g: TypedGraph, atoms: readonly Atom[], i: number): DonorSpec | null {
  const { T, E, nb, t, tet, only } = patternView(g, atoms, i);
  const ut = (group: string, key: keyof typeof UPSILON_TAU_DONORS): DonorSpec => ({
    group,
    test: "upsilon-tau",
    params: UPSILON_TAU_DONORS[key],
  });
  const tt = (group: string, key: keyof typeof THETA_TAU_DONORS): DonorSpec => ({
    group,
    test: "theta-tau",
    params: THETA_TAU_DONORS[key],
  });
  if (g.truncated[i] || !["N", "O", "S"].includes(E(i))) return null;

  if (t === "O3" && only >= 0 && T(only) === "Cac") return ut("D1 carboxylic acid OH", "D1");
  if (t === "Npl" && only >= 0 && T(only) === "C2" && g.adj[only]!.filter((j) => j !== i).every(tet))
    return ut("D2 protonated N=C", "D2");
  if (t === "Ng+" && only >= 0 && T(only) === "C2") return ut("D3 guanidinium/amidinium NH2", "D3");
  if (t === "N3+" && only >= 0 && tet(only)) return ut("D4 primary ammonium", "D4");
  if (t === "O3" && only >= 0 && tet(only)) return ut("D5 hydroxyl", "D5");
  if (E(i) === "N" && only >= 0 && T(only) === "C2") {
    const o = g.adj[only]!.filter((j) => j !== i);
    if (o.some((j) => T(j) === "O2") && o.length <= 2 && o.filter((j) => T(j) !== "O2").every(tet))
      return ut("D6 amide NH2", "D6");
  }
  if (t === "Npl" && only >= 0 && T(only) === "Car" && !g.aromatic[i]) return ut("D7 aniline NH2", "D7");
  if (t === "O3" && only >= 0 && T(only) === "Car") return ut("D8 phenol", "D8");
  if (t === "N3" && only >= 0 && tet(only)) return ut("D9 primary amine", "D9");
  if (t === "Npl" && nb.length === 2) {
    const tetN = nb.filter(tet);
    const pl = nb.filter((j) => isPlanar(T(j)));
    if (
      tetN.length === 1 &&
      pl.length === 1 &&
      g.adj[pl[0]!]!.filter((k) => k !== i).length <= 2 &&
      g.adj[pl[0]!]!.filter((k) => k !== i).every(tet)
    )
      return tt("D10 planar N-H", "D10");
  }
  if (t === "N3+" && nb.length === 2 && nb.every(tet)) return tt("D11 secondary ammonium", "D11");
  if (E(i) === "O" && nb.length === 0) return { group: "D12 water", test: "water" };
  if (E(i) === "N" && nb.length === 2) {
    const c = nb.find((j) => T(j) === "C2");
    const other = nb.find((j) => j !== c);
    if (c !== undefined && other !== undefined && tet(other)) {
      const o = g.adj[c]!.filter((j) => j !== i);
      if (o.some((j) => T(j) === "O2") && o.length <= 2 && o.filter((j) => T(j) !== "O2").every(tet))
        return tt("D13 amide N-H", "D13");
    }
  }
  if (t === "N3+" && nb.length === 3 && nb.every(tet)) return tt("D14 tertiary ammonium", "D14");
  if (t === "N2" && only >= 0 && isPlanar(T(only))) return tt("D15 imine N-H", "D15");
  if (t === "N3" && nb.length === 2 && nb.every(tet)) return tt("D16 secondary amine", "D16");
  if ((t === "Npl" || t === "N2+") && nb.length === 2 && g.ringsOf[i]!.length === 1) {
    const ring = g.rings[g.ringsOf[i]![0]!]!;
    if (ring.length === 5) return tt("D17 N-H in 5-ring", "D17");
    if (ring.length === 6 && ring.every((j) => E(j) !== "C" || T(j) === "Car"))
      return tt("D18 N-H in aromatic 6-ring", "D18");
  }
  // D19 generic: fewer bonds than the type's substituents (spec §4.3)
  const info = IDATM_TYPES[t];
  if (nb.length >= (info?.substituents ?? 0)) return null;
  if (t === "Npl" || t === "N2+")
    return nb.length > 1 ? tt("D19 generic planar N", "genericPlanarN") : ut("D19 generic planar N", "genericPlanarN");
  return { group: `D19 generic ${E(i)}`, test: "generic", row: GENERIC_DONORS[E(i) as "N" | "O" | "S"] };
}
